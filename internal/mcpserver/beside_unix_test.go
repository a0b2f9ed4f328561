//go:build unix

package mcpserver

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
)

// realInbox serves an inbox on a socket of the test's, and returns its
// queue and the route of askuser mcp in auto mode with it.
func realInbox(t *testing.T) (*inbox.Queue, func(*ask.Way, string) *ask.Route) {
	t.Helper()
	raw, err := os.ReadFile("../../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "inbox.sock")
	ln, err := inbox.ListenSocket(path)
	if err != nil {
		t.Fatal(err)
	}
	q := inbox.NewQueue(inbox.QueueOptions{})
	srv := inbox.NewServer(q, raw)
	_ = inbox.SocketListener{Listener: ln}.Serve(context.Background(), srv)
	t.Cleanup(func() { srv.Close("the test is over") })
	o := ask.Options{Mode: ask.UIAuto, Inbox: ask.InboxOptions{Addr: inbox.SocketAddr(path)}}
	env := &ask.Streams{IO: &iostreams.Streams{In: eofReader{}, Out: io.Discard, ErrOut: io.Discard}}
	return q, func(own *ask.Way, _ string) *ask.Route { return ask.NewPlace(env, o, nil).Client(o, own) }
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// queued waits for the queue to hold one set, and returns it.
func queued(t *testing.T, q *inbox.Queue) *inbox.Set {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if sets := q.Snapshot().Sets; len(sets) == 1 {
			return sets[0]
		}
	}
	t.Fatal("no set waits in the inbox")
	return nil
}

// TestInboxBesideForm with askuser inbox's own server on a socket: the set
// answered in the inbox answers the call and ends the form; the form
// answered first withdraws the set from the inbox.
func TestRealInboxBesideForm(t *testing.T) {
	t.Run("the inbox answers", func(t *testing.T) {
		q, route := realInbox(t)
		f := newForm()
		cs := serve(t, Options{Route: route}, f.client())
		got := calling(cs)
		within(t, f.shown, "the form")
		if err := q.Answer(queued(t, q), inbox.ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}}); err != nil {
			t.Fatal(err)
		}
		if text := <-got; text != `{"answers":{"Database":"SQLite"}}` {
			t.Errorf("call: %q, want the inbox's answer", text)
		}
		within(t, f.ended, "the end of the form")
	})
	t.Run("the form answers", func(t *testing.T) {
		q, route := realInbox(t)
		f := newForm()
		cs := serve(t, Options{Route: route}, f.client())
		got := calling(cs)
		within(t, f.shown, "the form")
		s := queued(t, q)
		f.answer <- "PostgreSQL"
		if text := <-got; text != `{"answers":{"Database":"PostgreSQL"}}` {
			t.Errorf("call: %q, want the form's answer", text)
		}
		within(t, s.Done(), "the end of the inbox's set")
		if e := s.End(); e.State != inbox.Withdrawn || e.Reason != "answered in the MCP client's form" {
			t.Errorf("the inbox's set ended %+v, want withdrawn, answered in the MCP client's form", e)
		}
	})
}

// logged waits for the server's log l to say text.
func logged(t *testing.T, l *passLog, text string) {
	t.Helper()
	for deadline := time.Now().Add(testutil.Slow); !strings.Contains(l.String(), text); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server's log does not say %q:\n%s", text, l)
		}
	}
}

// A client that takes its forms in the call's result (protocol versions
// after 2025-11-25) is handed back the form, and the questions wait in
// the inbox beside it, for askuser inbox's own server on a socket: the
// first answer wins. Answered in the inbox, the reply to the form that
// the client brings when it calls again is dropped; the form answered
// first withdraws the set; a form the client could not show leaves the
// set waiting; and a session that closes before the client calls again
// withdraws it.
func TestRealInboxBesideRoundTripForm(t *testing.T) {
	t.Run("the inbox answers", func(t *testing.T) {
		q, route := realInbox(t)
		f, log := newForm(), newPassLog()
		cs := serveVersion(t, Options{Route: route, Log: log}, f.client(), "")
		got := calling(cs)
		within(t, f.shown, "the form")
		s := queued(t, q)
		if err := q.Answer(s, inbox.ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}}); err != nil {
			t.Fatal(err)
		}
		logged(t, log, answeredIdle)
		f.answer <- "PostgreSQL"
		if text := <-got; text != `{"answers":{"Database":"SQLite"}}` {
			t.Errorf("call: %q, want the inbox's answer", text)
		}
		logged(t, log, "before the MCP client sent the form's reply, which is dropped.")
	})
	t.Run("the form answers", func(t *testing.T) {
		q, route := realInbox(t)
		f := newForm()
		cs := serveVersion(t, Options{Route: route}, f.client(), "")
		got := calling(cs)
		within(t, f.shown, "the form")
		s := queued(t, q)
		f.answer <- "PostgreSQL"
		if text := <-got; text != `{"answers":{"Database":"PostgreSQL"}}` {
			t.Errorf("call: %q, want the form's answer", text)
		}
		within(t, s.Done(), "the end of the inbox's set")
		if e := s.End(); e.State != inbox.Withdrawn || e.Reason != "answered in the MCP client's form" {
			t.Errorf("the inbox's set ended %+v, want withdrawn, answered in the MCP client's form", e)
		}
	})
	t.Run("the client could not show the form", func(t *testing.T) {
		q, route := realInbox(t)
		log := newPassLog()
		// The client declines the form once the set waits in the inbox
		// (or the wait for it is over: nil), sooner than Quickest: no
		// person saw the form.
		beside := make(chan *inbox.Set, 1)
		decline := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			var set *inbox.Set
			for deadline := time.Now().Add(testutil.Slow); set == nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if sets := q.Snapshot().Sets; len(sets) == 1 {
					set = sets[0]
				}
			}
			beside <- set
			return &mcp.ElicitResult{Action: "decline"}, nil
		}}
		cs := serveVersion(t, Options{Route: route, Log: log, Quickest: 2 * testutil.Slow}, decline, "")
		got := calling(cs)
		s := <-beside
		if s == nil {
			t.Fatal("no set waited in the inbox beside the form")
		}
		within(t, log.passed, "the form passed over")
		if e := s.End(); e.State != inbox.Waiting {
			t.Fatalf("the inbox's set ended %+v when the form was passed over, want it waiting", e)
		}
		if err := q.Answer(s, inbox.ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}}); err != nil {
			t.Fatal(err)
		}
		if text := <-got; text != `{"answers":{"Database":"SQLite"}}` {
			t.Errorf("call: %q, want the inbox's answer", text)
		}
		if n := len(q.Snapshot().Sets); n != 0 {
			t.Errorf("%d sets wait in the inbox, want none", n)
		}
	})
	t.Run("the session closes", func(t *testing.T) {
		q, route := realInbox(t)
		f := newForm()
		cs := serveVersion(t, Options{Route: route}, f.client(), "")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go callWith(ctx, cs, nil)
		within(t, f.shown, "the form")
		s := queued(t, q)
		cs.Close()
		within(t, s.Done(), "the end of the inbox's set")
		// The session's end is no answer: the set is withdrawn because the
		// asker went, whether before its stream began or after.
		if e := s.End(); e.State != inbox.Withdrawn || (e.Reason != "the asker stopped waiting" && e.Reason != "the asker went away") {
			t.Errorf("the inbox's set ended %+v, want withdrawn, the asker gone", e)
		}
	})
}
