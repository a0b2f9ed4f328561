package natsinbox

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/inbox"
)

// spy reads the sets stored on the server at a as the inbox would, with
// id, and hands each on, opened, once.
func spy(t *testing.T, a *address, id *age.X25519Identity) <-chan wireSet {
	t.Helper()
	nc, err := nats.Connect(a.serverURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	sets := make(chan wireSet, 16)
	seen := map[string]bool{}
	_, err = nc.Subscribe(a.subject("set", "*.*"), func(m *nats.Msg) {
		plain, err := open(m.Data, id, maxMessage)
		var ws wireSet
		if err == nil && json.Unmarshal(plain, &ws) == nil && !seen[ws.Secret] {
			seen[ws.Secret] = true
			sets <- ws
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return sets
}

// endAs stores an end of the set ws, sealed to its asker, as an inbox
// would.
func endAs(t *testing.T, c *conn, ws wireSet, w wireEnd) {
	t.Helper()
	plain, _ := json.Marshal(w)
	body, err := seal(plain, ws.Reply)
	if err == nil {
		err = c.publishEnd(context.Background(), endID(ws.Secret), body)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func nextSet(t *testing.T, sets <-chan wireSet) wireSet {
	t.Helper()
	select {
	case ws := <-sets:
		return ws
	case <-time.After(10 * time.Second):
		t.Fatal("no set was stored")
	}
	return wireSet{}
}

// An asker told that an inbox heard no beat of it, while it waits, asks
// again, as often as it is told (a re-post costs it nothing: the inbox, or
// the asker, was away), each time under a new id, and is never told
// "went away" for it.
func TestAskerAsksAgain(t *testing.T) {
	_, a, id := setup(t)
	sets := spy(t, a, id)
	res := askOver(context.Background(), a.Dial(), askRequest())
	c, err := dial(a, roleInbox, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer c.nc.Close()
	seen := map[string]bool{}
	var ws wireSet
	for i := 0; i < 5; i++ {
		ws = nextSet(t, sets)
		if seen[ws.Secret] {
			t.Fatalf("asked again under the same secret")
		}
		seen[ws.Secret] = true
		endAs(t, c, ws, wireEnd{End: endWithdrawn, Reason: "nothing heard from the asker for 3s", Unheard: true})
	}
	ws = nextSet(t, sets)
	endAs(t, c, ws, wireEnd{End: inbox.EventCancelled, By: "inbox"})
	if r := result(t, res, 10*time.Second); r.err != nil || r.e.Event != inbox.EventCancelled {
		t.Fatalf("got %+v, %v", r.e, r.err)
	}
}

// An end that the asker cannot read is told as what it is, naming where it
// is stored, never as the inbox gone.
func TestAskerUnreadableEnd(t *testing.T) {
	_, a, id := setup(t)
	c, err := dial(a, roleInbox, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer c.nc.Close()
	for _, end := range []func(ws wireSet) []byte{
		func(wireSet) []byte { return []byte(`{"end":"answered","by":"your-boss"}`) },
		func(ws wireSet) []byte {
			b, _ := seal([]byte("not json"), ws.Reply)
			return b
		},
		func(ws wireSet) []byte {
			b, _ := seal([]byte(`{"end":"promoted"}`), ws.Reply)
			return b
		},
	} {
		sets := spy(t, a, id)
		res := askOver(context.Background(), a.Dial(), askRequest())
		ws := nextSet(t, sets)
		if err := c.publishEnd(context.Background(), endID(ws.Secret), end(ws)); err != nil {
			t.Fatal(err)
		}
		r := result(t, res, 10*time.Second)
		if !isA[*inbox.ServerError](r.err) || !strings.Contains(r.err.Error(), "the end of the questions stored at "+a.String()) || strings.Contains(r.err.Error(), "went away") {
			t.Errorf("got %v", r.err)
		}
	}
}

// The set of an asker that stops waiting leaves the server within setTTL
// when no inbox runs to delete it: withdrawn, or killed without a word.
// Its anchor, which holds nothing, stays for endTTL.
func TestSetLeavesWithoutInbox(t *testing.T) {
	// Put back once every cleanup of the test has stopped what reads it.
	ttl := setTTL
	t.Cleanup(func() { setTTL = ttl })
	setTTL = 2 * time.Second
	_, a, id := setup(t)
	sets := spy(t, a, id)
	ctx, cancel := context.WithCancel(context.Background())
	res := askOver(ctx, a.Dial(), askRequest())
	nextSet(t, sets)
	silent, c := newAsk(t, a, a.To)
	if err := silent.post(context.Background()); err != nil {
		t.Fatal(err)
	}
	nextSet(t, sets)
	js, _ := jetstream.New(c.nc)
	s, err := js.Stream(context.Background(), a.setsStream())
	if err != nil {
		t.Fatal(err)
	}
	count := func() int {
		info, err := s.Info(context.Background(), jetstream.WithSubjectFilter(a.subject("set", ">")))
		if err != nil {
			t.Fatal(err)
		}
		copies := 0
		for subject := range info.State.Subjects {
			if !strings.HasSuffix(subject, ".0") {
				copies++
			}
		}
		return copies
	}
	deadline := time.Now().Add(10 * time.Second)
	for count() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the sets were not stored")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	result(t, res, 5*time.Second)
	time.Sleep(setTTL + 2*time.Second)
	if n := count(); n != 0 {
		t.Fatalf("%d copies of sets are stored %s after their askers stopped", n, setTTL+2*time.Second)
	}
}

// An asker's anchor, stored after its set's first copy and naming it, is
// taken by the server and dates the set: an inbox that starts once that
// copy has left the server shows the set as waiting since it was first
// asked, not since the oldest copy still stored.
func TestAnchorKeepsDate(t *testing.T) {
	// Put back once every cleanup of the test has stopped what reads it.
	ttl := setTTL
	t.Cleanup(func() { setTTL = ttl })
	setTTL = time.Second
	_, a, id := setup(t)
	sets := spy(t, a, id)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res := askOver(ctx, a.Dial(), askRequest())
	nextSet(t, sets)
	first := time.Now()
	time.Sleep(4 * setTTL)
	in := startInbox(t, a, id, "one")
	if s := waitFor(t, in.q, 1)[0]; !s.Arrived.Before(first.Add(setTTL)) {
		t.Errorf("a set whose first copy was stored at %s is shown as asked at %s", first, s.Arrived)
	}
	cancel()
	result(t, res, 5*time.Second)
}

// An asker whose server is slow to take its connection (a fleet of askers
// started at once) waits it out rather than take it for no server: its
// first connections, which nothing answers, time out, and it connects once
// the server answers again.
func TestAskerWaitsOutASlowServer(t *testing.T) {
	ns, a, id := setup(t)
	in := startInbox(t, a, id, "one")
	proxy := newCutter(t, ns.HostPort())
	proxy.freeze(true)
	via := *a
	via.Host = proxy.ln.Addr().String()
	res := askOver(context.Background(), via.Dial(), askRequest())
	time.Sleep(inbox.ProbeTimeout + time.Second)
	select {
	case r := <-res:
		t.Fatalf("the asker ended while the server was slow: %+v, %v", r.e, r.err)
	default:
	}
	proxy.freeze(false)
	answer(t, in.q, waitWithin(t, in.q, 1, 3*inbox.ProbeTimeout)[0], "SQLite")
	if r := result(t, res, 10*time.Second); r.err != nil || r.e.Answers[0].Labels[0] != "SQLite" {
		t.Fatalf("got %+v, %v", r.e, r.err)
	}
}

// An asker whose to= is not the inbox's is told so at once, naming the
// inbox's recipient, rather than wait for an answer nobody can give: its
// set, which the inbox cannot open, is withdrawn and never shown.
func TestAskerToNotTheInbox(t *testing.T) {
	_, a, id := setup(t)
	in := startInbox(t, a, id, "one")
	other, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	wrong := *a
	wrong.To = other.Recipient().String()
	res := askOver(context.Background(), wrong.Dial(), askRequest())
	r := result(t, res, pollEvery-time.Second)
	if !isA[*inbox.ServerError](r.err) || !strings.Contains(r.err.Error(), "seals to "+id.Recipient().String()) {
		t.Fatalf("got %+v, %v", r.e, r.err)
	}
	if n := len(in.q.Snapshot().Sets); n != 0 {
		t.Fatalf("the inbox shows %d sets", n)
	}
}
