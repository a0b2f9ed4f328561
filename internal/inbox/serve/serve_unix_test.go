//go:build unix

package serve

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/internal/ptytest"
)

// When the inbox itself fails, its terminal screen is stopped and the
// terminal given back before the error is reported.
func TestInboxFailureRestoresTheTerminal(t *testing.T) {
	tm := ptytest.New(t, 60, 20)
	q := inbox.NewQueue(inbox.QueueOptions{})
	s := view.NewTerminal(view.TerminalOptions{Queue: q, In: tm.Tty(), Out: tm.Tty(), Where: "/run/inbox.sock"})
	failures := make(chan error, 1)
	type result struct {
		failed bool
		err    error
	}
	done := make(chan result, 1)
	go func() {
		failed, err := showQueue(context.Background(), s.Run, failures)
		done <- result{failed, err}
	}()
	tm.ExpectScreen("Waiting for questions at /run/inbox.sock.")
	if echo, canonical := tm.LineMode(); echo || canonical {
		t.Fatalf("the screen runs with echo %v, line editing %v; want raw mode", echo, canonical)
	}
	broken := errors.New("serve the inbox: broken")
	failures <- broken
	var r result
	select {
	case r = <-done:
	case <-time.After(ptytest.Timeout):
		t.Fatal("the screen did not stop")
	}
	if !r.failed || r.err != broken {
		t.Errorf("showQueue = %v, %v; want true, %v", r.failed, r.err, broken)
	}
	if echo, canonical := tm.LineMode(); !echo || !canonical {
		t.Errorf("terminal left with echo %v, line editing %v", echo, canonical)
	}
	tm.Drain()
	if !tm.CursorVisible() {
		t.Error("cursor left hidden")
	}
	if got := tm.Screen(); got != "" {
		t.Errorf("screen left:\n%s", got)
	}
}
