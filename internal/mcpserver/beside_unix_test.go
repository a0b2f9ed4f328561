//go:build unix

package mcpserver

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/iostreams"
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
		got := make(chan string, 1)
		go func() {
			text, _ := callWith(context.Background(), cs, nil)
			got <- text
		}()
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
		got := make(chan string, 1)
		go func() {
			text, _ := callWith(context.Background(), cs, nil)
			got <- text
		}()
		within(t, f.shown, "the form")
		s := queued(t, q)
		f.answer <- "PostgreSQL"
		if text := <-got; text != `{"answers":{"Database":"PostgreSQL"}}` {
			t.Errorf("call: %q, want the form's answer", text)
		}
		within(t, s.Done(), "the end of the inbox's set")
		if e := s.End(); e.State != inbox.Withdrawn {
			t.Errorf("the inbox's set ended %+v, want withdrawn", e)
		}
	})
}
