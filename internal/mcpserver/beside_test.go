package mcpserver

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/ask"
)

// passedOver is what the server says when the client's form asked nobody.
const passedOver = "sooner than a person can read it. Asking another way.\n"

// passLog is the server's log, which closes passed once it says that the
// form was passed over.
type passLog struct {
	mu     sync.Mutex
	b      strings.Builder
	passed chan struct{}
}

func newPassLog() *passLog { return &passLog{passed: make(chan struct{})} }

func (l *passLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	was := strings.Contains(l.b.String(), passedOver)
	l.b.Write(p)
	if !was && strings.Contains(l.b.String(), passedOver) {
		close(l.passed)
	}
	return len(p), nil
}

func (l *passLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// form is a client's form that the test fills in: shown when the client
// is asked, and told when the server ends it.
type form struct {
	shown, ended chan struct{}
	answer       chan string // the label the person picks in it
}

func newForm() *form {
	return &form{shown: make(chan struct{}, 1), ended: make(chan struct{}, 1), answer: make(chan string, 1)}
}

func (f *form) client() *mcp.ClientOptions {
	return &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		f.shown <- struct{}{}
		select {
		case label := <-f.answer:
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_pick": label}}, nil
		case <-ctx.Done():
			// The server cancelled the request (notifications/cancelled).
			f.ended <- struct{}{}
			return nil, ctx.Err()
		}
	}}
}

// within waits for c, or fails the test after 10 s.
func within(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not happen within 10 s", what)
	}
}

// With an inbox running, askuser's question waits there as well as in the
// client's form, and the first answer wins: answered in the inbox, the
// call returns the inbox's answer and the form's request is cancelled;
// answered in the form, the inbox's set is withdrawn.
func TestInboxBesideForm(t *testing.T) {
	t.Run("the inbox answers", func(t *testing.T) {
		f, p := newForm(), newPerson()
		cs := serve(t, Options{Route: route(ask.UIAuto, p.way(), ask.Way{})}, f.client())
		got := calling(cs)
		within(t, f.shown, "the form")
		p.answer <- "SQLite"
		if text := <-got; text != `{"answers":{"Database":"SQLite"}}` {
			t.Errorf("call: %q, want the inbox's answer", text)
		}
		within(t, f.ended, "the end of the form")
	})
	t.Run("the form answers", func(t *testing.T) {
		f, p := newForm(), newPerson()
		cs := serve(t, Options{Route: route(ask.UIAuto, p.way(), ask.Way{})}, f.client())
		got := calling(cs)
		within(t, f.shown, "the form")
		for deadline := time.Now().Add(10 * time.Second); p.sets() == 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		f.answer <- "PostgreSQL"
		if text := <-got; text != `{"answers":{"Database":"PostgreSQL"}}` {
			t.Errorf("call: %q, want the form's answer", text)
		}
		within(t, p.withdrawn, "the withdrawal from the inbox")
		if n := p.sets(); n != 1 {
			t.Errorf("the inbox was asked %d times, want 1", n)
		}
	})
}
