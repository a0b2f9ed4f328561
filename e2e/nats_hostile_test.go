//go:build unix

package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/natstest"
	"github.com/askuser/askuser/internal/testutil"
)

// The adversarial suite of the inbox on NATS: a server with the
// permissions of docs/across-machines.md, as the page prints them (two people, alice and bob, each with
// an inbox's user and an agents' user), askuser inbox and its askers as
// processes, and a hostile client that holds the agents' credentials and
// nothing else, trying what the page says such a client cannot do.
// The test's own user, test-admin, only looks: it plays the leak of a set's
// id where a test needs one.

// tenant is one person's inbox on the server of readmeServer.
type tenant struct {
	name   string
	ns     *natstest.Server
	config string // where the inbox keeps its identity
	inbox  string // the inbox's address, with its user
	agents string // the address the inbox printed, with the agents' user
}

func newTenant(t *testing.T, ns *natstest.Server, name string) *tenant {
	upper := strings.ToUpper(name)
	return &tenant{
		name: name, ns: ns, config: t.TempDir(),
		inbox: fmt.Sprintf("nats://%s-inbox:%s-INBOX-PASSWORD@%s/%s", name, upper, ns.HostPort(), name),
	}
}

// start starts the tenant's inbox, with the variables env besides; the
// first start learns the address it prints for the agents.
func (tn *tenant) start(t *testing.T, env ...string) *inboxProcess {
	t.Helper()
	in, printed := startNATSInbox(t, tn.inbox, tn.config, env...)
	upper := strings.ToUpper(tn.name)
	tn.agents = strings.Replace(printed, tn.name+"-inbox:"+upper+"-INBOX-PASSWORD", tn.name+"-agent:"+upper+"-AGENT-PASSWORD", 1)
	if tn.agents == printed {
		t.Fatalf("the inbox printed %q", printed)
	}
	return in
}

// ask starts an asker of the tenant's agents, named name.
func (tn *tenant) ask(t *testing.T, name string, args ...string) *asker {
	t.Helper()
	if len(args) == 0 {
		args = []string{"-f", "q.json"}
	}
	return startNATSAsker(t, tn.agents, t.TempDir(), questionsDir(t), name, args...)
}

// recipient is the inbox's age recipient, from the address it printed.
func (tn *tenant) recipient(t *testing.T) age.Recipient {
	t.Helper()
	m := regexp.MustCompile(`to=(age1[0-9a-z]+)`).FindStringSubmatch(tn.agents)
	if m == nil {
		t.Fatalf("no to= in %q", tn.agents)
	}
	r, err := age.ParseX25519Recipient(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// hostileConn is a connection with the agents' credentials of a tenant:
// what a hostile agent holds. Refused holds what the server refused it.
type hostileConn struct {
	*nats.Conn
	js jetstream.JetStream

	mu      sync.Mutex
	refused []string
}

func hostile(t *testing.T, ns *natstest.Server, name string) *hostileConn {
	t.Helper()
	h := &hostileConn{}
	nc, err := nats.Connect("nats://"+ns.HostPort(),
		nats.UserInfo(name+"-agent", strings.ToUpper(name)+"-AGENT-PASSWORD"),
		// The reply prefix README grants the agents: an agent must use
		// it, or it hears no reply at all.
		nats.CustomInboxPrefix("_askuser."+name+".agent"),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			h.mu.Lock()
			h.refused = append(h.refused, err.Error())
			h.mu.Unlock()
		}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	h.Conn = nc
	h.js, _ = jetstream.New(nc)
	return h
}

// wasRefused waits a moment for the server to refuse what mentions
// subject, and reports whether it did.
func (h *hostileConn) wasRefused(subject string) bool {
	deadline := time.Now().Add(testutil.Slow)
	for time.Now().Before(deadline) {
		h.mu.Lock()
		for _, r := range h.refused {
			if strings.Contains(r, "Permissions Violation") && strings.Contains(r, subject) {
				h.mu.Unlock()
				return true
			}
		}
		h.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// admin is the test's own connection to the account of the person name,
// which may look at every stream there.
func admin(t *testing.T, ns *natstest.Server, name string) jetstream.JetStream {
	t.Helper()
	nc, err := nats.Connect("nats://"+ns.HostPort(), nats.UserInfo("test-admin-"+name, "test-admin"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// storedSubjects returns the subjects stored in a stream under filter.
func storedSubjects(t *testing.T, js jetstream.JetStream, stream, filter string) map[string]uint64 {
	t.Helper()
	s, err := js.Stream(context.Background(), stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(context.Background(), jetstream.WithSubjectFilter(filter))
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Subjects
}

// leakedCopy is the subject of a copy of the one set stored in alice's
// queue, askuser.alice.set.ID.COPY, as a leak would give it to a hostile
// agent: the test's admin reads it.
func leakedCopy(t *testing.T, js jetstream.JetStream) string {
	t.Helper()
	for subject := range storedSubjects(t, js, "ASKUSER_alice", "askuser.alice.set.>") {
		if !strings.HasSuffix(subject, ".0") {
			return subject
		}
	}
	t.Fatal("no set is stored")
	return ""
}

// leakedSetID is the id of the one set stored in alice's queue, as a leak
// would give it to a hostile agent.
func leakedSetID(t *testing.T, js jetstream.JetStream) string {
	t.Helper()
	return strings.Split(leakedCopy(t, js), ".")[3]
}

// forgedSet is a set of the attacker's own, as askuser stores one: its
// questions, its reply recipient (the attacker's), and a secret of its own.
func forgedSet(t *testing.T, question string, reply age.Recipient, to ...age.Recipient) []byte {
	t.Helper()
	return setOf(t, newTestSecret(), question, reply, to...)
}

// newTestSecret is a set's secret, as askuser makes one.
func newTestSecret() string {
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	return hex.EncodeToString(secret)
}

// setOf is a set of secret as askuser stores it, asking question, with
// reply as its recipient, sealed to to (unsealed without).
func setOf(t *testing.T, secret, question string, reply age.Recipient, to ...age.Recipient) []byte {
	t.Helper()
	plain, _ := json.Marshal(map[string]any{
		"request": map[string]any{"kind": "ask", "from": "victim", "questions": json.RawMessage(`[{"question":"` + question + `","header":"Database","options":[{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false}]`)},
		"reply":   fmt.Sprint(reply),
		"secret":  secret,
	})
	return sealTo(t, plain, to...)
}

// sealTo seals plain to the recipients to, as askuser seals; with none, it
// is plain.
func sealTo(t *testing.T, plain []byte, to ...age.Recipient) []byte {
	t.Helper()
	if len(to) == 0 {
		return plain
	}
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, to...)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write(plain)
	_ = w.Close()
	return buf.Bytes()
}

// digestOf is what askuser names a set's subjects after: its id ("askuser
// set") or its end's ("askuser end").
func digestOf(label, secret string) string {
	sum := sha256.Sum256([]byte(label + "\x00" + secret))
	return hex.EncodeToString(sum[:16])
}

// D1: with the agents' credentials, a hostile agent can neither learn a
// set's id nor, knowing it and its copy's subject, replace the set: the
// server refuses a second message on the subject, and a copy of the
// attacker's own on another subject of the set's is deleted by the inbox,
// which knows the set under that id.
// After a restart, the inbox shows the victim's questions, and the answer
// goes to the victim.
func TestNATSHostileReplaceSet(t *testing.T) {
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	victim := alice.ask(t, "victim")
	in.screen.waitFor(t, "From victim", 30*time.Second)

	h := hostile(t, ns, "alice")
	// What found the set's id before: a direct get of the newest set.
	if _, err := h.Request("$JS.API.DIRECT.GET.ASKUSER_alice.askuser.alice.set.>", nil, time.Second); err == nil || !h.wasRefused("DIRECT.GET.ASKUSER_alice.askuser.alice.set") {
		t.Fatalf("a direct get of the sets was not refused: %v", err)
	}
	if _, err := h.Request("$JS.API.STREAM.INFO.ASKUSER_alice", []byte(`{"subjects_filter":">"}`), time.Second); err == nil || !h.wasRefused("STREAM.INFO.ASKUSER_alice") {
		t.Fatalf("the stream's information, which lists its subjects, was not refused: %v", err)
	}

	copied := leakedCopy(t, admin(t, ns, "alice"))
	id := strings.Split(copied, ".")[3]
	thief, _ := age.GenerateX25519Identity()
	forged := forgedSet(t, "ATTACKER QUESTION?", thief.Recipient(), alice.recipient(t))
	_, err := h.js.Publish(context.Background(), copied, forged, jetstream.WithMsgTTL(2*time.Minute))
	if err == nil || !strings.Contains(err.Error(), "maximum messages per subject") {
		t.Fatalf("the set's own subject took a second message: %v", err)
	}
	if _, err := h.js.Publish(context.Background(), "askuser.alice.set."+id+".2", forged, jetstream.WithMsgTTL(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	in.screen.waitFor(t, "Deleted a message on askuser.alice.set."+id+".2 that is not its subject's set", 10*time.Second)

	in.quit(t)
	in = alice.start(t)
	in.screen.waitFor(t, "From victim", 30*time.Second)
	in.screen.waitFor(t, "Which database?", 5*time.Second)
	in.type_(t, "sqlite")
	victim.answered(t, 0, sqlite)
	if strings.Contains(in.screen.String(), "ATTACKER QUESTION") {
		t.Errorf("the inbox showed the attacker's questions:\n%s", in.screen)
	}
}

// D2: a laptop that sleeps (the inbox stopped with SIGSTOP, shorter and
// longer than the server takes to drop its connection) loses nothing and
// withdraws nothing: no asker is withdrawn or asks again, each set shows
// the time since it was first asked, and a set asked after the wake
// arrives at once. Its 24 s of sleeps run beside the other tests.
func TestNATSHostileSleep(t *testing.T) {
	t.Parallel()
	// The server drops a client that answers no ping for about 6 s.
	ns := readmeServer(t, func(o *server.Options) { o.PingInterval, o.MaxPingsOut = 2*time.Second, 2 })
	alice := newTenant(t, ns, "alice")
	arrivals := filepath.Join(t.TempDir(), "arrivals")
	in := alice.start(t, `ASKUSER_NOTIFY_COMMAND=echo "$ASKUSER_FROM" >> `+arrivals)
	arrived := func() []string {
		b, _ := os.ReadFile(arrivals)
		return strings.Fields(string(b))
	}
	began := time.Now()
	var askers []*asker
	for _, name := range []string{"one", "two", "three"} {
		a := alice.ask(t, name)
		a.waitStderr(t, "Waiting for an answer in the inbox", 30*time.Second)
		askers = append(askers, a)
	}
	in.screen.waitFor(t, "From one", 30*time.Second)
	waitArrived := func(n int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for len(arrived()) < n {
			if time.Now().After(deadline) {
				t.Fatalf("%d sets arrived, want %d: %v", len(arrived()), n, arrived())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitArrived(3)
	for _, sleep := range []time.Duration{4 * time.Second, 10 * time.Second} {
		if err := in.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		time.Sleep(sleep)
		if err := in.cmd.Process.Signal(syscall.SIGCONT); err != nil {
			t.Fatal(err)
		}
		// As long again as a set takes to be withdrawn, and more.
		time.Sleep(5 * time.Second)
		if got := arrived(); len(got) != 3 {
			t.Fatalf("after a sleep of %s, the sets arrived %v: some were asked again", sleep, got)
		}
		for _, a := range askers {
			select {
			case <-a.done:
				t.Fatalf("after a sleep of %s, %s exited %d:\n%s", sleep, a.name, a.code(), a.stderr)
			default:
			}
		}
	}
	if strings.Contains(in.screen.String(), "withdrawn") {
		t.Fatalf("a set was withdrawn:\n%s", in.screen)
	}
	// A set asked after the wake arrives at once.
	late := alice.ask(t, "late")
	late.waitStderr(t, "Waiting for an answer in the inbox", 30*time.Second)
	asked := time.Now()
	waitArrived(4)
	if d := time.Since(asked); d > testutil.Slow {
		t.Errorf("a set asked after the wake took %s to arrive", d)
	}
	// Each set says how long it has waited since it was first asked.
	in.type_(t, "sqlite")
	askers[0].answered(t, 0, sqlite)
	waited := time.Since(began)
	m := regexp.MustCompile(`From two · waiting (\d+)s`).FindStringSubmatch(in.screen.String()[strings.Index(in.screen.String(), "Sent to one"):])
	var secs int
	if m != nil {
		fmt.Sscan(m[1], &secs)
	}
	if m == nil || time.Duration(secs)*time.Second < waited-3*time.Second {
		t.Fatalf("the second set shows %v, after %s:\n%s", m, waited, in.screen)
	}
	for i, a := range append(askers[1:], late) {
		in.type_(t, "postgresql")
		a.answered(t, 0, postgreSQL)
		_ = i
	}
}

// D3: ends cannot be forged. An end's subject is named after the set's
// secret, which the hostile agent lacks: whatever it publishes on the
// end subject that the set's id would have named, or on any other, changes
// nothing; what is not even sealed is told once and deleted, and a
// subject that holds an end takes no other.
func TestNATSHostileForgedEnds(t *testing.T) {
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	victim := alice.ask(t, "victim")
	in.screen.waitFor(t, "From victim", 30*time.Second)
	id := leakedSetID(t, admin(t, ns, "alice"))
	h := hostile(t, ns, "alice")
	sealedEnd := func(plain string) []byte {
		var buf bytes.Buffer
		w, _ := age.Encrypt(&buf, alice.recipient(t))
		_, _ = io.WriteString(w, plain)
		_ = w.Close()
		return buf.Bytes()
	}
	// The sealed one first, expiring as askuser's ends do (after a day):
	// the inbox leaves it (it may be an end of long ago), so that the
	// subject holds it when the others come.
	for i, body := range [][]byte{
		sealedEnd(`{"end":"answered","by":"your-boss@security","answer":{"event":"answered","answers":[{"labels":["PostgreSQL"]}]}}`),
		[]byte(`{"end":"answered","by":"your-boss@security"}`),
		[]byte(`{"end":"withdrawn","reason":"the asker was fired"}`),
	} {
		_, err := h.js.Publish(context.Background(), "askuser.alice.end."+id, body, jetstream.WithMsgTTL(24*time.Hour))
		if i > 0 && (err == nil || !strings.Contains(err.Error(), "maximum messages per subject")) {
			t.Fatalf("a second end on one subject: %v", err)
		}
		if _, err := h.js.Publish(context.Background(), fmt.Sprintf("askuser.alice.end.%s%d", id, i), body, jetstream.WithMsgTTL(24*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	in.screen.waitFor(t, "Deleted a message on askuser.alice.end."+id+"1 that is not a sealed end of a set.", 10*time.Second)
	time.Sleep(2 * time.Second)
	if s := in.screen.String(); strings.Contains(s, "your-boss") || strings.Contains(s, "fired") || strings.Contains(s, "elsewhere") {
		t.Fatalf("a forged end was taken:\n%s", s)
	}
	in.type_(t, "sqlite")
	victim.answered(t, 0, sqlite)
}

// D4: the queue is bounded, and what the inbox cannot open is told once
// and deleted: a flood from one credential stops at the stream's limits,
// the inbox clears it, a set asked behind it shows within a second, and
// an inbox started later has nothing left to tell.
func TestNATSHostileFlood(t *testing.T) {
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	js := admin(t, ns, "alice")
	s, err := js.Stream(context.Background(), "ASKUSER_alice")
	if err != nil {
		t.Fatal(err)
	}
	cfg := s.CachedInfo().Config
	if cfg.MaxMsgs <= 0 || cfg.MaxBytes <= 0 || cfg.MaxMsgSize <= 0 || cfg.MaxAge <= 0 || cfg.Discard != jetstream.DiscardNew {
		t.Fatalf("the stream has no limits: %+v", cfg)
	}
	h := hostile(t, ns, "alice")
	junk := make([]byte, 64<<10)
	_, _ = rand.Read(junk)
	flood := time.Now()
	sent := 0
	for time.Since(flood) < 2*time.Second {
		sent++
		if err := h.Publish(fmt.Sprintf("askuser.alice.set.junk%d.1", sent), junk); err != nil {
			t.Fatal(err)
		}
	}
	_ = h.Flush()
	info, err := s.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Bytes > uint64(cfg.MaxBytes) {
		t.Fatalf("the flood stored %d bytes, over the limit of %d", info.State.Bytes, cfg.MaxBytes)
	}
	t.Logf("the flood sent %d MiB; the stream holds %d MiB", sent*len(junk)>>20, info.State.Bytes>>20)
	real := alice.ask(t, "real")
	real.waitStderr(t, "Waiting for an answer in the inbox", 30*time.Second)
	asked := time.Now()
	in.screen.waitFor(t, "From real", 30*time.Second)
	if d := time.Since(asked); d > testutil.Slow {
		t.Errorf("the set behind the flood took %s to show", d)
	}
	if n := strings.Count(in.screen.String(), "Deleted a message on askuser.alice.set.junk"); n != 1 {
		t.Errorf("the junk was told of %d times:\n%s", n, in.screen)
	}
	// Once the inbox has cleared it, the stream holds the real set alone:
	// its anchor and its copy.
	deadline := time.Now().Add(30 * time.Second)
	for len(storedSubjects(t, js, "ASKUSER_alice", "askuser.alice.set.>")) != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the junk was not deleted: %d sets stored", len(storedSubjects(t, js, "ASKUSER_alice", "askuser.alice.set.>")))
		}
		time.Sleep(100 * time.Millisecond)
	}
	in.quit(t)
	in = alice.start(t)
	in.screen.waitFor(t, "From real", 30*time.Second)
	if strings.Contains(in.screen.String(), "Deleted") {
		t.Errorf("an inbox started after the flood told of it again:\n%s", in.screen)
	}
	in.type_(t, "sqlite")
	real.answered(t, 0, sqlite)
}

// D5: an asker whose to= is not the inbox's recipient is told so, in one
// line, within 5 s: at once when an inbox has run, and within 5 s of the
// first inbox's start when none had.
func TestNATSHostileWrongTo(t *testing.T) {
	other, _ := age.GenerateX25519Identity()
	wrongTo := func(addr string) string {
		return regexp.MustCompile(`to=age1[0-9a-z]+`).ReplaceAllString(addr, "to="+other.Recipient().String())
	}
	check := func(a *asker, within time.Duration) {
		t.Helper()
		a.ended(t, within, 69, a.stderr)
		lines := strings.Split(strings.TrimSuffix(a.stderr.String(), "\n"), "\n")
		last := lines[len(lines)-1]
		if !strings.HasPrefix(last, "Error: ASKUSER_INBOX has to="+other.Recipient().String()+", but the inbox at") || a.stdout.String() != "" {
			t.Errorf("stderr %q, stdout %q", a.stderr, a.stdout)
		}
	}
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	alice.start(t).quit(t)
	check(startNATSAsker(t, wrongTo(alice.agents), t.TempDir(), questionsDir(t), "wrong", "-f", "q.json"), 5*time.Second)

	// On a server open to all, the asker comes first and makes the queue.
	open := natstest.Start(t, nil)
	id, _ := age.GenerateX25519Identity()
	early := startNATSAsker(t, open.URL("carol", "to="+other.Recipient().String()), t.TempDir(), questionsDir(t), "early", "-f", "q.json")
	early.waitStderr(t, "Waiting for an answer in the inbox", 30*time.Second)
	config := t.TempDir()
	if err := os.MkdirAll(filepath.Join(config, "askuser"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(config, "askuser", "inbox.age"), []byte(id.String()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	startNATSInbox(t, open.URL("carol", ""), config)
	check(early, 5*time.Second)
}

// D6: the agents' credentials cannot make, change, purge or remove a
// queue's streams; a stream made by an agent where the server lets it
// (an open server), with limits not askuser's, is corrected by the inbox,
// and its sets wait as long as the person takes. Its wait past the
// stream's max age runs beside the other tests.
func TestNATSHostileStreams(t *testing.T) {
	t.Parallel()
	ns := readmeServer(t, nil)
	h := hostile(t, ns, "bob")
	ctx := context.Background()
	if _, err := h.js.CreateStream(ctx, jetstream.StreamConfig{Name: "ASKUSER_bob", Subjects: []string{"askuser.bob.>"}, MaxAge: 10 * time.Second}); err == nil || !h.wasRefused("STREAM.CREATE.ASKUSER_bob") {
		t.Fatalf("an agent made bob's stream: %v", err)
	}
	alice := newTenant(t, ns, "alice")
	alice.start(t).quit(t)
	ha := hostile(t, ns, "alice")
	for _, subject := range []string{"$JS.API.STREAM.UPDATE.ASKUSER_alice", "$JS.API.STREAM.PURGE.ASKUSER_alice", "$JS.API.STREAM.DELETE.ASKUSER_alice", "$JS.API.STREAM.MSG.DELETE.ASKUSER_alice", "$JS.API.STREAM.DELETE.ASKUSER-BEATS_alice"} {
		if _, err := ha.Request(subject, []byte(`{}`), time.Second); err == nil || !ha.wasRefused(subject[len("$JS.API."):]) {
			t.Errorf("%s was not refused: %v", subject, err)
		}
	}

	open := natstest.Start(t, nil)
	nc, err := nats.Connect("nats://" + open.HostPort())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "ASKUSER_bob", Subjects: []string{"askuser.bob.>"}, MaxAge: 10 * time.Second}); err != nil {
		t.Fatal(err)
	}
	bob := &tenant{name: "bob", ns: open, config: t.TempDir(), inbox: open.URL("bob", "")}
	in, printed := startNATSInbox(t, bob.inbox, bob.config)
	in.screen.waitFor(t, "The stream ASKUSER_bob on the NATS server had subjects [askuser.bob.>]", 5*time.Second)
	in.screen.waitFor(t, "max_age 10s (askuser's: 25h0m0s)", 5*time.Second)
	a := startNATSAsker(t, printed, t.TempDir(), questionsDir(t), "patient", "-f", "q.json")
	in.screen.waitFor(t, "From patient", 30*time.Second)
	time.Sleep(12 * time.Second)
	in.type_(t, "sqlite")
	a.answered(t, 0, sqlite)
}

// D7: no user of the server receives another's deliveries: bob's agents
// may subscribe to neither _INBOX.> nor alice's reply prefixes, and what
// alice's inbox and asker exchange reaches none of bob's subscriptions;
// alice's own agents cannot subscribe to her inbox's replies, where the
// sets are delivered.
func TestNATSHostileDeliveries(t *testing.T) {
	ns := readmeServer(t, nil)
	bob := hostile(t, ns, "bob")
	var got []string
	var mu sync.Mutex
	for _, subject := range []string{"_INBOX.>", "_askuser.alice.>", "askuser.alice.>", "_askuser.bob.agent.>", "askuser.bob.end.*"} {
		_, err := bob.Subscribe(subject, func(m *nats.Msg) {
			mu.Lock()
			got = append(got, m.Subject)
			mu.Unlock()
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, refused := range []string{"_INBOX.>", "_askuser.alice.>", "askuser.alice.>"} {
		if !bob.wasRefused(`Subscription to "` + refused + `"`) {
			t.Errorf("bob's agents subscribed to %s", refused)
		}
	}
	h := hostile(t, ns, "alice")
	if _, err := h.Subscribe("_askuser.alice.inbox.>", func(*nats.Msg) {}); err != nil {
		t.Fatal(err)
	}
	if !h.wasRefused(`Subscription to "_askuser.alice.inbox.>"`) {
		t.Error("alice's agents subscribed to her inbox's replies")
	}
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	a := alice.ask(t, "agent")
	in.screen.waitFor(t, "From agent", 30*time.Second)
	in.type_(t, "sqlite")
	a.answered(t, 0, sqlite)
	time.Sleep(time.Second)
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 0 {
		t.Fatalf("bob's agents received %v", got)
	}
}

// D8: an answer given while the server is down is shown as sent only once
// it is stored: the inbox says that it is not sent yet, and, once the
// server is back and has stored it, that it is sent; it reaches the asker,
// and nothing says it was not sent at all. Its wait while the server is
// down runs beside the other tests.
func TestNATSHostileAnswerWhileDown(t *testing.T) {
	t.Parallel()
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	a := alice.ask(t, "waiting")
	in.screen.waitFor(t, "From waiting", 30*time.Second)
	ns.Stop()
	in.screen.waitFor(t, "Lost the NATS server", 10*time.Second)
	in.type_(t, "sqlite")
	in.screen.waitFor(t, "Your answer to the questions from waiting is not sent yet (the NATS server at nats://"+ns.HostPort()+" has not stored it: ", 10*time.Second)
	// Long enough for the inbox to try again and again, as the answer
	// waits to be stored.
	time.Sleep(5 * time.Second)
	ns.Restart()
	a.answered(t, 0, sqlite)
	in.screen.waitFor(t, "Your answer to the questions from waiting is stored on the NATS server now: sent.\n", 10*time.Second)
	if s := in.screen.String(); strings.Contains(s, "Sent to waiting") || strings.Contains(s, "was not sent") || strings.Contains(s, "elsewhere") {
		t.Fatalf("the inbox said:\n%s", s)
	}
}

// D17: an answer counts as sent only on the sets' stream's own
// acknowledgement of its end, never on what else reaches its reply
// subject. A hostile agent fills the sets' stream to its limits with
// anchors that the inbox keeps (a day's, as askuser stores them), so that
// the stream refuses the person's answer. It listens wherever its
// credentials let it (everything, the ends, the inbox's replies, the
// API), and to every reply subject it hears on the inbox's tries it sends
// the acknowledgements of the beats' stream and of the sets' stream,
// itself and through each responder it reaches. The inbox says that the
// answer is not sent yet, stores no end and keeps no history of it while
// the stream refuses it; once room is made (the filler deleted, as the
// person or the server's operator would), the end is stored, the inbox
// says it is sent, the history says answered, and the asker gets it.
func TestNATSHostileForgedAck(t *testing.T) {
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	state := t.TempDir()
	in := alice.start(t, "XDG_STATE_HOME="+state)
	victim := alice.ask(t, "victim")
	in.screen.waitFor(t, "From victim", 30*time.Second)
	ctx := context.Background()
	js := admin(t, ns, "alice")
	h := hostile(t, ns, "alice")

	// The listener: what the server refuses it is refused; the ends are
	// its to hear.
	var mu sync.Mutex
	var tries []string // the subjects of the ends it heard
	replies := map[string]bool{}
	var lastSeq uint64 // the sets' stream's last sequence, as the agent's acks say
	beat := digestOf("askuser set", newTestSecret())
	forge := func(reply string) {
		mu.Lock()
		seq := lastSeq + 1
		mu.Unlock()
		for _, ack := range []string{
			`{"stream":"ASKUSER-BEATS_alice","seq":1}`,
			fmt.Sprintf(`{"stream":"ASKUSER_alice","seq":%d}`, seq),
		} {
			_ = h.Publish(reply, []byte(ack))
		}
		// The responders the agent reaches, their replies aimed there.
		_ = h.PublishRequest("askuser.alice.beat."+beat, reply, nil)
		_ = h.PublishRequest("$JS.API.DIRECT.GET.ASKUSER_alice.askuser.alice.key.*", reply, nil)
		_ = h.PublishRequest("askuser.alice.set."+digestOf("askuser set", newTestSecret())+".0", reply, nil)
	}
	heard := func(m *nats.Msg) {
		mu.Lock()
		if strings.HasPrefix(m.Subject, "askuser.alice.end.") {
			tries = append(tries, m.Subject)
		}
		fresh := m.Reply != "" && !replies[m.Reply]
		if m.Reply != "" {
			replies[m.Reply] = true
		}
		mu.Unlock()
		if fresh {
			forge(m.Reply)
		}
	}
	for _, subject := range []string{">", "askuser.alice.>", "_askuser.alice.inbox.>", "$JS.API.>"} {
		if _, err := h.Subscribe(subject, heard); err != nil {
			t.Fatal(err)
		}
		if !h.wasRefused(subject) {
			t.Errorf("the agents' credentials subscribed to %s", subject)
		}
	}
	for _, subject := range []string{"askuser.alice.end.*", "_askuser.alice.agent.>"} {
		if _, err := h.Subscribe(subject, heard); err != nil {
			t.Fatal(err)
		}
	}

	// The filler: anchors, largest first, until the stream takes not even
	// an empty one.
	var filler []uint64
	for _, size := range []int{1_000_000, 64 << 10, 4 << 10, 256, 0} {
		body := make([]byte, size)
		for {
			ack, err := h.js.Publish(ctx, "askuser.alice.set."+digestOf("askuser set", newTestSecret())+".0", body, jetstream.WithMsgTTL(24*time.Hour))
			if err != nil {
				if !strings.Contains(err.Error(), "maximum") {
					t.Fatalf("the filler of %d bytes: %v", size, err)
				}
				break
			}
			filler = append(filler, ack.Sequence)
			mu.Lock()
			lastSeq = ack.Sequence
			mu.Unlock()
		}
	}
	stream, err := js.Stream(ctx, "ASKUSER_alice")
	if err != nil {
		t.Fatal(err)
	}
	info, err := stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the agent stored %d anchors: the stream holds %d messages, %d bytes", len(filler), info.State.Msgs, info.State.Bytes)

	in.type_(t, "sqlite")
	in.screen.waitFor(t, "Your answer to the questions from victim is not sent yet (", 30*time.Second)
	// The inbox tries again, and the agent hears each try and answers it.
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		n := len(tries)
		mu.Unlock()
		if n >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent heard %d tries of the inbox's end:\n%s", n, in.screen)
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(2 * time.Second)
	mu.Lock()
	// On the page's configuration, the agent hears the inbox's reply
	// subjects (the ends' stream export carries them), but they are the
	// inbox's account's: its own publishes there are refused, and what a
	// responder sends there for it stays in the agents' account.
	t.Logf("the agent heard %d tries of the inbox's end, with %d reply subjects, and forged acknowledgements to each", len(tries), len(replies))
	h.mu.Lock()
	refused := 0
	for _, r := range h.refused {
		if strings.Contains(r, "Publish to \"_askuser.alice.inbox.") {
			refused++
		}
	}
	h.mu.Unlock()
	t.Logf("the server refused %d of the agent's publishes to them", refused)
	mu.Unlock()
	history := filepath.Join(state, "askuser", "history.jsonl")
	if s := in.screen.String(); strings.Contains(s, "stored on the NATS server now: sent") || strings.Contains(s, "Sent to victim") {
		t.Fatalf("the inbox says sent an answer that the stream refused:\n%s", s)
	}
	if ends := storedSubjects(t, js, "ASKUSER_alice", "askuser.alice.end.>"); len(ends) != 0 {
		t.Fatalf("an end was stored in a full stream: %v", ends)
	}
	if b, _ := os.ReadFile(history); bytes.Contains(b, []byte(`"answered"`)) {
		t.Errorf("the history says answered while the answer is not stored:\n%s", b)
	}
	select {
	case <-victim.done:
		t.Fatalf("the asker exited %d before its answer was stored: %s", victim.code(), victim.stdout)
	default:
	}

	// Room is made: the filler goes.
	for _, seq := range filler {
		if err := stream.DeleteMsg(ctx, seq); err != nil {
			t.Fatal(err)
		}
	}
	in.screen.waitFor(t, "Your answer to the questions from victim is stored on the NATS server now: sent.\n", 30*time.Second)
	victim.answered(t, 0, sqlite)
	ends := storedSubjects(t, js, "ASKUSER_alice", "askuser.alice.end.>")
	mu.Lock()
	heardEnd := len(tries) > 0 && ends[tries[0]] == 1
	mu.Unlock()
	if len(ends) != 1 || !heardEnd {
		t.Errorf("the ends stored: %v; the agent heard tries on %v", ends, tries[:1])
	}
	deadline = time.Now().Add(testutil.Slow)
	for {
		b, _ := os.ReadFile(history)
		if bytes.Contains(b, []byte(`"from":"victim"`)) && bytes.Contains(b, []byte(`"outcome":"answered"`)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the history, once the answer was sent:\n%s", b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// D9: when the server loses its store, the streams are made anew, and a
// running inbox reads them again from their start: a set asked then is
// shown, rather than skipped until the new stream's sequence passes the
// old one's.
func TestNATSHostileStoreLost(t *testing.T) {
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	var before []*asker
	for _, name := range []string{"before1", "before2"} {
		a := alice.ask(t, name)
		in.screen.waitFor(t, "From before1", 30*time.Second)
		a.waitStderr(t, "Waiting for an answer", 30*time.Second)
		before = append(before, a)
	}
	ns.Stop()
	entries, _ := os.ReadDir(ns.Opts.StoreDir)
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(ns.Opts.StoreDir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	ns.Restart()
	in.screen.waitFor(t, "were made anew (their store was lost): reading them again.", 15*time.Second)
	// The sets shown still reach their askers.
	in.type_(t, "sqlite")
	before[0].answered(t, 0, sqlite)
	in.type_(t, "postgresql")
	before[1].answered(t, 0, postgreSQL)
	after := alice.ask(t, "after")
	after.waitStderr(t, "Waiting for an answer", 30*time.Second)
	in.screen.waitFor(t, "From after", 10*time.Second)
	in.type_(t, "sqlite")
	after.answered(t, 0, sqlite)
}

// D11: what the inbox cannot open is told for what it is: not a set, a
// set sealed to another recipient, a set without a recipient to seal its
// answer to.
func TestNATSHostileJunkTold(t *testing.T) {
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	h := hostile(t, ns, "alice")
	other, _ := age.GenerateX25519Identity()
	secret := strings.Repeat("ab", 32)
	sum := sha256.Sum256([]byte("askuser set\x00" + secret))
	id := hex.EncodeToString(sum[:16])
	var noReply bytes.Buffer
	w, _ := age.Encrypt(&noReply, alice.recipient(t))
	_, _ = fmt.Fprintf(w, `{"request":{"kind":"input","message":"Name?"},"reply":"age1bogus","secret":%q}`, secret)
	_ = w.Close()
	for _, c := range []struct {
		subject string
		body    []byte
		told    string
	}{
		{"askuser.alice.set.garbage.1", []byte("\x00\x01 not json"), "is not a set of questions."},
		{"askuser.alice.set.elsewhere.1", forgedSet(t, "Q?", other.Recipient(), other.Recipient()), "is sealed to another recipient than this inbox's (" + fmt.Sprint(alice.recipient(t)) + "): its asker's to= is another inbox's."},
		{"askuser.alice.set." + id + ".1", noReply.Bytes(), "carries no age recipient to seal its answer to (reply is not age1...)."},
	} {
		// Stored to expire as a copy of a set does, to be opened.
		if _, err := h.js.Publish(context.Background(), c.subject, c.body, jetstream.WithMsgTTL(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
		in.screen.waitFor(t, "Deleted a message on "+c.subject+" that "+c.told+"\n", 10*time.Second)
	}
}

// What the agents' credentials store to stay for good is deleted: an end
// sealed to the inbox, for a set it never saw, that would never expire
// (Nats-TTL: never) and so hold the stream's room until it is full. And a
// subject with an escape sequence in it is told, not obeyed.
func TestNATSHostileLastingJunk(t *testing.T) {
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	js := admin(t, ns, "alice")
	h := hostile(t, ns, "alice")
	var end bytes.Buffer
	w, _ := age.Encrypt(&end, alice.recipient(t))
	_, _ = io.WriteString(w, `{"end":"withdrawn"}`)
	_ = w.Close()
	subject := "askuser.alice.end." + strings.Repeat("0f", 16)
	msg := &nats.Msg{Subject: subject, Header: nats.Header{}, Data: end.Bytes()}
	msg.Header.Set(jetstream.MsgTTLHeader, "never")
	if _, err := h.js.PublishMsg(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	in.screen.waitFor(t, "Deleted a message on "+subject+" that does not expire as an end of a set does.\n", 10*time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for len(storedSubjects(t, js, "ASKUSER_alice", subject)) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the lasting end was not deleted")
		}
		time.Sleep(100 * time.Millisecond)
	}

	if _, err := h.js.Publish(context.Background(), "askuser.alice.set.\x1b[2J.1", []byte("junk")); err != nil {
		t.Fatal(err)
	}
	in.screen.waitFor(t, `Deleted a message on askuser.alice.set.\x1b[2J.1 that does not expire as a copy of a set does.`+"\n", 10*time.Second)
	if strings.Contains(in.screen.String(), "\x1b") {
		t.Errorf("the inbox wrote an escape sequence from a subject:\n%q", in.screen)
	}
}

// D12: a second inbox with another identity cannot take the queue over
// (it is refused, and the first inbox still gets the sets); an identity
// file that others may read is refused; and nats//host, a mistyped
// address, is told as such, on one line, exit 69.
func TestNATSHostileIdentity(t *testing.T) {
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	for _, c := range []struct {
		name   string
		config func() string
		told   string
	}{
		{"another identity", t.TempDir, "and this inbox's identity (age1"},
		{"an identity others may read", func() string {
			config := t.TempDir()
			dir := filepath.Join(config, "askuser")
			_ = os.MkdirAll(dir, 0o700)
			b, _ := os.ReadFile(filepath.Join(alice.config, "askuser", "inbox.age"))
			_ = os.WriteFile(filepath.Join(dir, "inbox.age"), b, 0o644)
			return config
		}, "may be read by others (mode 0644)"},
	} {
		// With --web, as a service runs it: without a terminal, an inbox
		// with nothing to answer on exits 69 before it tries the server.
		second := runToEnd(t, natsEnv(t, alice.inbox, c.config()), "inbox", "--web")
		if second.code != 69 || !strings.Contains(second.out, c.told) || strings.Count(second.out, "\n") != 1 {
			t.Errorf("%s: exit %d:\n%s", c.name, second.code, second.out)
		}
	}
	a := alice.ask(t, "still")
	in.screen.waitFor(t, "From still", 30*time.Second)
	in.type_(t, "sqlite")
	a.answered(t, 0, sqlite)

	typo := "nats//alice-agent:ALICE-AGENT-PASSWORD@" + ns.HostPort() + "/alice"
	for _, args := range [][]string{{"inbox"}, {"confirm", "Deploy?"}} {
		r := runToEnd(t, natsEnv(t, typo, t.TempDir()), args...)
		if r.code != 69 || r.out != `Error: Invalid ASKUSER_INBOX: the address begins like an address on nats but lacks "://": want nats://HOST[:PORT][/NAME][?to=age1...], as askuser inbox prints it`+"\n" {
			t.Errorf("askuser %s at %s: exit %d:\n%s", args[0], typo, r.code, r.out)
		}
	}
}

// ran is a run of askuser to its end, with stdin /dev/null.
type ran struct {
	code int
	out  string // stdout and stderr
}

func runToEnd(t *testing.T, env []string, args ...string) ran {
	t.Helper()
	cmd := exec.Command(askuserPath(t), args...)
	cmd.Env = env
	null, _ := os.Open(os.DevNull)
	defer null.Close()
	cmd.Stdin = null
	out, _ := cmd.CombinedOutput()
	return ran{cmd.ProcessState.ExitCode(), string(out)}
}
