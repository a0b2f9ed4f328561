package inbox

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"testing"
	"time"

	"github.com/askuser/askuser/prompt"
)

// plainTCP is a transport that carries HTTP, written on the server's
// handler alone: HTTP on a TCP listener, without the token's checks.
type plainTCP struct{ ln net.Listener }

func (p plainTCP) Serve(_ context.Context, srv *Server) error {
	srv.Serve(p.ln, srv.handler())
	return nil
}

// A new transport is a Listener: it serves askers as the others do, and
// needs nothing of the queue or the views.
func TestListenerOfAnotherTransport(t *testing.T) {
	raw, err := os.ReadFile("../../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	q := NewQueue(QueueOptions{})
	srv := NewServer(q, raw)
	var l Listener = plainTCP{ln}
	if err := l.Serve(context.Background(), srv); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close("the test is over") })

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	type result struct {
		e   Event
		err error
	}
	done := make(chan result, 1)
	go func() {
		c := TCPAddr{Host: ln.Addr().String(), Token: "unchecked"}.Dial()
		questions := json.RawMessage(`[{"question":"Which database?","header":"Database","options":[{"label":"PostgreSQL","description":"a"},{"label":"SQLite","description":"b"}],"multiSelect":false}]`)
		e, err := c.Ask(ctx, &Request{From: "elsewhere", Questions: questions}, nil)
		done <- result{e, err}
	}()
	for v := q.Snapshot(); len(v.Sets) == 0; v = q.Snapshot() {
		select {
		case <-v.Changed:
		case <-ctx.Done():
			t.Fatal("no set arrived")
		}
	}
	set := q.Snapshot().Sets[0]
	if set.From != "elsewhere" {
		t.Errorf("the set came from %q, want elsewhere", set.From)
	}
	if err := q.Answer(set, ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}}); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || r.e.Event != EventAnswered || len(r.e.Answers) != 1 || len(r.e.Answers[0].Labels) != 1 || r.e.Answers[0].Labels[0] != "SQLite" {
		t.Errorf("the asker got %+v, %v; want SQLite answered", r.e, r.err)
	}
}
