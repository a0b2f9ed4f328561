package inbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"github.com/askuser/askuser/internal/natstest"
	"github.com/askuser/askuser/prompt"
)

// natsInbox is an inbox on a NATS server, in this process.
type natsInbox struct {
	q    *Queue
	srv  *Server
	said *lines
}

// lines collects what an inbox says to its person.
type lines struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lines) say(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(&l.b, format, args...)
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startNATSInbox(t *testing.T, a *NATSAddr, id *age.X25519Identity, by string) *natsInbox {
	t.Helper()
	in := &natsInbox{q: NewQueue(QueueOptions{}), said: &lines{}}
	in.srv = NewServer(in.q, schemaJSON(t))
	if err := (NATSListener{Addr: a, Options: NATSOptions{Identity: id, By: by, Say: in.said.say}}).Serve(context.Background(), in.srv); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.srv.Close("the test is over") })
	return in
}

// natsSetup starts a server and returns an inbox's address on it, sealed
// to a new identity.
func natsSetup(t *testing.T) (*natstest.Server, *NATSAddr, *age.X25519Identity) {
	t.Helper()
	ns := natstest.Start(t, nil)
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	a, err := ParseAddr(ns.URL("team", "to="+id.Recipient().String()))
	if err != nil {
		t.Fatal(err)
	}
	return ns, a.NATS, id
}

func askOver(ctx context.Context, tr Transport, req *Request) <-chan askResult {
	ch := make(chan askResult, 1)
	go func() {
		e, err := tr.Ask(ctx, req, nil)
		ch <- askResult{e, err}
	}()
	return ch
}

// A set goes through the server, sealed, to an inbox that starts after
// it, and the asker gets exactly the answer given there.
func TestNATSAnswered(t *testing.T) {
	_, a, id := natsSetup(t)
	res := askOver(context.Background(), Dial(Addr{NATS: a}), askRequest())
	time.Sleep(200 * time.Millisecond)
	in := startNATSInbox(t, a, id, "alice@laptop")
	set := waitFor(t, in.q, 1)[0]
	if set.From != "test" || set.Questions[0].Header != "Database" {
		t.Fatalf("queued %+v", set)
	}
	if err := in.q.Answer(set, Reply{Answers: []prompt.Answer{{Labels: []string{"SQLite"}, Note: "small"}}}); err != nil {
		t.Fatal(err)
	}
	r := result(t, res, 10*time.Second)
	if r.err != nil || r.e.Event != EventAnswered || len(r.e.Answers) != 1 || r.e.Answers[0].Labels[0] != "SQLite" || r.e.Answers[0].Note != "small" {
		t.Fatalf("got %+v, %v", r.e, r.err)
	}
}

// Two inboxes on one queue show every set; when both answer at once, the
// first answer published wins: exactly that one reaches the asker, and
// the other inbox says that its answer was not sent, and who answered.
func TestNATSTwoInboxesRace(t *testing.T) {
	_, a, id := natsSetup(t)
	one := startNATSInbox(t, a, id, "one")
	two := startNATSInbox(t, a, id, "two")
	for trial := 0; trial < 50; trial++ {
		saidBefore := []string{one.said.String(), two.said.String()}
		res := askOver(context.Background(), Dial(Addr{NATS: a}), askRequest())
		sets := []*Set{waitFor(t, one.q, 1)[0], waitFor(t, two.q, 1)[0]}
		labels := []string{"PostgreSQL", "SQLite"}
		var wg sync.WaitGroup
		for i, in := range []*natsInbox{one, two} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// A set ended here by the other inbox first is not
				// answered twice.
				if err := in.q.Answer(sets[i], Reply{Answers: []prompt.Answer{{Labels: []string{labels[i]}}}}); err != nil && !errors.Is(err, ErrEnded) {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		r := result(t, res, 10*time.Second)
		if r.err != nil || r.e.Event != EventAnswered || len(r.e.Answers) != 1 {
			t.Fatalf("trial %d: %+v, %v", trial, r.e, r.err)
		}
		winner := 0
		if r.e.Answers[0].Labels[0] == "SQLite" {
			winner = 1
		}
		// The loser's set ends there too, however the race went: as
		// answered by the winner, or with its own answer, said not sent
		// because the winner answered first. Nothing else is said.
		names := []string{"one", "two"}
		loser := []*natsInbox{one, two}[1-winner]
		waitFor(t, loser.q, 0)
		waitFor(t, []*natsInbox{one, two}[winner].q, 0)
		lost := sets[1-winner].End()
		notSent := fmt.Sprintf("Your answer to the questions from test was not sent: they were answered elsewhere (by %s) first.\n", names[winner])
		want := saidBefore[1-winner]
		if lost.State != Answered || lost.Reason != "by "+names[winner] {
			if lost.State != Answered || lost.Reason != "" || len(lost.Reply.Answers) != 1 || lost.Reply.Answers[0].Labels[0] != labels[1-winner] {
				t.Fatalf("trial %d: the loser's set ended %+v", trial, lost)
			}
			want += notSent
		}
		deadline := time.Now().Add(5 * time.Second)
		for loser.said.String() != want {
			if time.Now().After(deadline) {
				t.Fatalf("trial %d: the loser's set ended %+v and it said:\n%s\nwant:\n%s", trial, lost, loser.said, want)
			}
			time.Sleep(10 * time.Millisecond)
		}
		if said := []*natsInbox{one, two}[winner].said.String(); said != saidBefore[winner] {
			t.Fatalf("trial %d: the winner said %q", trial, strings.TrimPrefix(said, saidBefore[winner]))
		}
	}
	t.Logf("answers not sent: one %d, two %d", strings.Count(one.said.String(), "not sent"), strings.Count(two.said.String(), "not sent"))
}

// handFeed is a feed on a, named by, that reads no stream: the test hands
// it the set and the ends in the order the race it plays needs. A set of
// id waits in it, read and beating, but not yet queued.
func handFeed(t *testing.T, a *NATSAddr, id *age.X25519Identity, by, setID string) (*natsFeed, *natsInbox, *natsEntry) {
	t.Helper()
	in := &natsInbox{q: NewQueue(QueueOptions{}), said: &lines{}}
	in.srv = NewServer(in.q, schemaJSON(t))
	conn, err := dialNATS(context.Background(), a, "test")
	if err != nil {
		t.Fatal(err)
	}
	f := &natsFeed{srv: in.srv, conn: conn, o: NATSOptions{Identity: id, By: by, Say: in.said.say}, sets: map[string]*natsEntry{}, ready: true}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	t.Cleanup(func() {
		f.cancel()
		f.wg.Wait()
		conn.close()
	})
	set, refused := in.srv.setOf(askRequest())
	if refused != nil {
		t.Fatal(refused)
	}
	reply, _ := age.GenerateX25519Identity()
	e := &natsEntry{id: setID, set: set, reply: reply.Recipient().String(), secret: "s", seen: time.Now(), beat: time.Now(), shown: true}
	f.sets[setID] = e
	return f, in, e
}

// otherEnd publishes, as inbox by, that it answered set setID, and
// returns the end as the other inboxes read it.
func otherEnd(t *testing.T, f *natsFeed, id *age.X25519Identity, by, setID string) []byte {
	t.Helper()
	body, err := json.Marshal(natsEnd{End: EventAnswered, By: by, Answer: &Event{Event: EventAnswered}, Secret: "s"})
	if err == nil {
		body, err = seal(body, id.Recipient())
	}
	if err == nil {
		err = f.conn.publishEnd(context.Background(), setID, body)
	}
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// An inbox whose person answers just as another inbox's answer arrives
// (the end is read after the answer here, before it is published) says
// that the answer was not sent, and who answered.
func TestNATSAnsweredAsEndArrives(t *testing.T) {
	_, a, id := natsSetup(t)
	f, in, e := handFeed(t, a, id, "one", "race")
	if _, err := in.q.Add(e.set); err != nil {
		t.Fatal(err)
	}
	if err := in.q.Answer(e.set, Reply{Answers: []prompt.Answer{{Labels: []string{"SQLite"}}}}); err != nil {
		t.Fatal(err)
	}
	f.onEnd("race", otherEnd(t, f, id, "two", "race"))
	f.settle(e)
	if said := in.said.String(); !strings.Contains(said, "was not sent: they were answered elsewhere (by two) first") {
		t.Fatalf("the inbox said %q", said)
	}
}

// A set whose end is read between its asker's beat and its queueing is
// not queued: nothing would take it away.
func TestNATSEndBeforeShown(t *testing.T) {
	_, a, id := natsSetup(t)
	f, in, e := handFeed(t, a, id, "one", "early")
	f.onEnd("early", otherEnd(t, f, id, "two", "early"))
	f.show(e)
	if v := in.q.Snapshot(); len(v.Sets) != 0 {
		t.Fatalf("the queue holds %d sets", len(v.Sets))
	}
}

// An end that the stream refused, because another inbox's end was stored
// first, still reaches the asker's subscription, and may reach it before
// the stored one: the asker takes the stored one.
func TestNATSAskerTakesStoredEnd(t *testing.T) {
	_, a, id := natsSetup(t)
	conn, err := dialNATS(context.Background(), a, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.close()
	ask := &natsAsk{addr: Addr{NATS: a}, conn: conn, id: "both", secret: "s"}
	ask.reply, _ = age.GenerateX25519Identity()
	ends := make(chan *nats.Msg, 4)
	sub, err := conn.nc.ChanSubscribe(a.subject("end", "both"), ends)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := ask.post(context.Background(), askRequest()); err != nil {
		t.Fatal(err)
	}
	end := func(label, by string) []byte {
		body, err := json.Marshal(natsEnd{End: EventAnswered, By: by, Secret: "s", Answer: &Event{Event: EventAnswered, Answers: []prompt.Answer{{Labels: []string{label}}}}})
		if err == nil {
			body, err = seal(body, ask.reply.Recipient(), id.Recipient())
		}
		if err != nil {
			t.Fatal(err)
		}
		return body
	}
	if err := conn.publishEnd(context.Background(), "both", end("SQLite", "two")); err != nil {
		t.Fatal(err)
	}
	if err := conn.publishEnd(context.Background(), "both", end("PostgreSQL", "one")); !errors.Is(err, errEndTaken) {
		t.Fatalf("the second end: %v", err)
	}
	// Both reach the subscription: they are handed on the refused one
	// first, as the server may pass them on.
	var got []*nats.Msg
	for len(got) < 2 {
		select {
		case m := <-ends:
			got = append(got, m)
		case <-time.After(5 * time.Second):
			t.Fatalf("%d ends reached the subscription", len(got))
		}
	}
	swapped := make(chan *nats.Msg, 2)
	swapped <- got[1]
	swapped <- got[0]
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	e, err := ask.wait(ctx, swapped)
	if err != nil || len(e.Answers) != 1 || e.Answers[0].Labels[0] != "SQLite" {
		t.Fatalf("the asker got %+v, %v", e, err)
	}
}

// An asker that stops waiting withdraws its set from every inbox; one that
// stops beating (killed) is withdrawn after natsDead.
func TestNATSWithdrawn(t *testing.T) {
	_, a, id := natsSetup(t)
	in := startNATSInbox(t, a, id, "one")
	ctx, cancel := context.WithCancel(context.Background())
	res := askOver(ctx, Dial(Addr{NATS: a}), askRequest())
	set := waitFor(t, in.q, 1)[0]
	cancel()
	result(t, res, 5*time.Second)
	waitFor(t, in.q, 0)
	if e := set.End(); e.State != Withdrawn {
		t.Fatalf("ended %+v", e)
	}

	// A set whose asker never beats is never shown, and is withdrawn.
	conn, err := dialNATS(context.Background(), a, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.close()
	silent := &natsAsk{addr: Addr{NATS: a}, conn: conn, id: "silent", secret: "s"}
	silent.reply, _ = age.GenerateX25519Identity()
	start := time.Now()
	if err := silent.post(context.Background(), askRequest()); err != nil {
		t.Fatal(err)
	}
	for {
		m, err := conn.lastEnd(context.Background(), "silent")
		if err != nil {
			t.Fatal(err)
		}
		if m != nil {
			var gone *GoneError
			if _, err := silent.read(m.Data); !errors.As(err, &gone) || !strings.Contains(gone.Err.Error(), "nothing heard from the asker") {
				t.Fatalf("the end reads %v", err)
			}
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("the silent set was not withdrawn within 5 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := in.q.Len(); n != 0 {
		t.Fatalf("%d sets shown", n)
	}
}

// Questions larger than the server takes in a message are refused with
// what to change.
func TestNATSTooLarge(t *testing.T) {
	ns := natstest.Start(t, func(o *server.Options) { o.MaxPayload = 4096 })
	a, err := ParseAddr(ns.URL("team", ""))
	if err != nil {
		t.Fatal(err)
	}
	req := &Request{Kind: KindInput, Message: strings.Repeat("x", 5000)}
	_, err = Dial(a).Ask(context.Background(), req, nil)
	var server *ServerError
	if !errors.As(err, &server) || !strings.Contains(err.Error(), "raise its max_payload") {
		t.Fatalf("got %v", err)
	}
}

// A set the inbox refuses (its questions are not valid there) comes back
// to its asker refused, with why, as over the socket.
func TestNATSRefused(t *testing.T) {
	_, a, id := natsSetup(t)
	startNATSInbox(t, a, id, "one")
	req := &Request{Kind: KindAsk, From: "test", Questions: []byte(`[{"question":"Q?","header":"H","options":[],"multiSelect":false}]`)}
	_, err := Dial(Addr{NATS: a}).Ask(context.Background(), req, nil)
	var refused *RefusedError
	if !errors.As(err, &refused) || refused.Status != 400 || len(refused.Body.Problems) == 0 {
		t.Fatalf("got %v", err)
	}
}

// cutter forwards TCP connections to a server until cut: then it closes
// them and refuses new ones until mended.
type cutter struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	frozen bool
	conns  []net.Conn
}

func newCutter(t *testing.T, target string) *cutter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &cutter{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); c.setCut(true) })
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			c.mu.Lock()
			cut := c.cut
			c.mu.Unlock()
			out, err := net.Dial("tcp", target)
			if cut || err != nil {
				in.Close()
				continue
			}
			c.mu.Lock()
			c.conns = append(c.conns, in, out)
			c.mu.Unlock()
			go func() { c.copy(out, in); out.Close() }()
			go func() { c.copy(in, out); in.Close() }()
		}
	}()
	return c
}

// copy copies from r to w, holding what it reads while the cutter is
// frozen: the connection stays open, and nothing goes through.
func (c *cutter) copy(w io.Writer, r io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		for c.isFrozen() {
			time.Sleep(10 * time.Millisecond)
		}
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (c *cutter) isFrozen() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.frozen
}

func (c *cutter) freeze(frozen bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frozen = frozen
}

func (c *cutter) setCut(cut bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cut = cut
	if cut {
		for _, conn := range c.conns {
			conn.Close()
		}
		c.conns = nil
	}
}

// An asker cut off from the server for longer than the inbox waits for a
// beat has its set withdrawn there; once back, it stores its set again
// and still gets its answer.
func TestNATSAskerCutOff(t *testing.T) {
	ns, a, id := natsSetup(t)
	in := startNATSInbox(t, a, id, "one")
	proxy := newCutter(t, ns.HostPort())
	via := *a
	via.Host = proxy.ln.Addr().String()
	res := askOver(context.Background(), Dial(Addr{NATS: &via}), askRequest())
	first := waitFor(t, in.q, 1)[0]
	proxy.setCut(true)
	waitFor(t, in.q, 0)
	if e := first.End(); e.State != Withdrawn {
		t.Fatalf("the set cut off ended %+v", e)
	}
	proxy.setCut(false)
	again := waitFor(t, in.q, 1)[0]
	if err := in.q.Answer(again, Reply{Answers: []prompt.Answer{{Labels: []string{"SQLite"}}}}); err != nil {
		t.Fatal(err)
	}
	if r := result(t, res, 10*time.Second); r.err != nil || r.e.Answers[0].Labels[0] != "SQLite" {
		t.Fatalf("got %+v, %v", r.e, r.err)
	}
}

// An asker whose address has no to= (the server is on this machine) seals
// its set all the same to the recipient the inbox left on the server: the
// server's store holds no question.
func TestNATSSealedWithoutTo(t *testing.T) {
	ns, a, id := natsSetup(t)
	in := startNATSInbox(t, a, id, "one")
	plain := *a
	plain.To = ""
	res := askOver(context.Background(), Dial(Addr{NATS: &plain}), askRequest())
	set := waitFor(t, in.q, 1)[0]
	err := filepath.WalkDir(ns.Opts.StoreDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if bytes.Contains(b, []byte("Which database")) {
			t.Errorf("%s holds the question in plain text", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := in.q.Cancel(set); err != nil {
		t.Fatal(err)
	}
	if r := result(t, res, 10*time.Second); r.err != nil || r.e.Event != EventCancelled {
		t.Fatalf("got %+v, %v", r.e, r.err)
	}
}

// The credentials NATS takes reach the server: a token in the address,
// and an NKey seed in a file; a wrong one is refused with what to check.
func TestNATSCredentials(t *testing.T) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	seed, _ := kp.Seed()
	seedFile := filepath.Join(t.TempDir(), "user.nk")
	if err := os.WriteFile(seedFile, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	other, _ := nkeys.CreateUser()
	otherSeed, _ := other.Seed()
	otherFile := filepath.Join(t.TempDir(), "other.nk")
	if err := os.WriteFile(otherFile, otherSeed, 0o600); err != nil {
		t.Fatal(err)
	}
	tokened := natstest.Start(t, func(o *server.Options) { o.Authorization = "s3cret-token" })
	nkeyed := natstest.Start(t, func(o *server.Options) { o.Nkeys = []*server.NkeyUser{{Nkey: pub}} })
	for _, c := range []struct {
		addr string
		ok   bool
	}{
		{"nats://s3cret-token@" + tokened.HostPort() + "/team", true},
		{"nats://wrong-token@" + tokened.HostPort() + "/team", false},
		{"nats://" + tokened.HostPort() + "/team", false},
		{"nats://" + nkeyed.HostPort() + "/team?nkey=" + seedFile, true},
		{"nats://" + nkeyed.HostPort() + "/team?nkey=" + otherFile, false},
	} {
		a, err := ParseAddr(c.addr)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Dial(a).Probe(context.Background())
		var server *ServerError
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.addr, err)
		case !c.ok && (!errors.As(err, &server) || !strings.Contains(err.Error(), "refused the credentials")):
			t.Errorf("%s: %v; want the credentials refused", c.addr, err)
		}
	}
}

// An inbox whose connection stops carrying anything while it still looks
// open (a laptop that wakes, before its client notices) does not take the
// silence for its askers': the sets stay, and are answered once the
// connection carries again.
func TestNATSInboxFrozen(t *testing.T) {
	ns, a, id := natsSetup(t)
	proxy := newCutter(t, ns.HostPort())
	via := *a
	via.Host = proxy.ln.Addr().String()
	in := startNATSInbox(t, &via, id, "one")
	res := askOver(context.Background(), Dial(Addr{NATS: a}), askRequest())
	set := waitFor(t, in.q, 1)[0]
	proxy.freeze(true)
	time.Sleep(natsDead + 2*time.Second)
	if e := set.End(); e.State != Waiting {
		t.Fatalf("the set ended %+v while the inbox's connection was frozen", e)
	}
	proxy.freeze(false)
	// The withdrawal the inbox tried, which the server takes once the
	// connection carries again, takes the set away; its asker, which still
	// waits, stores it again.
	deadline := time.Now().Add(10 * time.Second)
	for {
		v := in.q.Snapshot()
		if len(v.Sets) == 1 && v.Sets[0] != set {
			if err := in.q.Answer(v.Sets[0], Reply{Answers: []prompt.Answer{{Labels: []string{"SQLite"}}}}); err != nil {
				t.Fatal(err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the set was not answerable after the connection came back")
		}
		select {
		case <-v.Changed:
		case <-time.After(100 * time.Millisecond):
		}
	}
	if r := result(t, res, 10*time.Second); r.err != nil || r.e.Answers[0].Labels[0] != "SQLite" {
		t.Fatalf("got %+v, %v", r.e, r.err)
	}
}
