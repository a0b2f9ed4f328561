//go:build unix

package cmd

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/ask"
	core "github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/screen"
	"github.com/askuser/askuser/internal/ptytest"
	"github.com/askuser/askuser/prompt"
)

// The inbox shows its queue on the terminal screen where askuser would
// use its terminal UI, and as line prompts elsewhere.
func TestInboxOnTerminal(t *testing.T) {
	tty := ptytest.New(t, 80, 24).Tty()
	for _, c := range []struct {
		name          string
		ui            string
		inTTY, errTTY bool
		env           map[string]string
		want          bool
		unavailable   bool
	}{
		{"auto at a terminal", "auto", true, true, nil, true, false},
		{"auto, stdin not a terminal", "auto", false, true, nil, false, false},
		{"auto, stderr not a terminal", "auto", true, false, nil, false, false},
		{"auto, ACCESSIBLE", "auto", true, true, map[string]string{"ACCESSIBLE": "1"}, false, false},
		{"auto, TERM=dumb", "auto", true, true, map[string]string{"TERM": "dumb"}, false, false},
		{"line at a terminal", "line", true, true, nil, false, false},
		{"tui at a terminal", "tui", true, true, map[string]string{"ACCESSIBLE": "1"}, true, false},
		{"tui without one", "tui", false, true, nil, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := &Env{
				IO:     &IOStreams{In: tty, ErrOut: tty, InFile: tty, ErrFile: tty, InTTY: c.inTTY, ErrTTY: c.errTTY},
				Getenv: varsEnv(c.env),
			}
			got, err := inboxOnTerminal(env, ask.UI(c.ui), "--ui "+c.ui)
			var unavailable *prompt.UnavailableError
			if got != c.want || errors.As(err, &unavailable) != c.unavailable {
				t.Errorf("inboxOnTerminal = %v, %v; want %v, unavailable %v", got, err, c.want, c.unavailable)
			}
		})
	}
}

// When the inbox itself fails, its terminal screen is stopped and the
// terminal given back before the error is reported.
func TestInboxFailureRestoresTheTerminal(t *testing.T) {
	tm := ptytest.New(t, 60, 20)
	q := core.NewQueue(core.QueueOptions{})
	s := screen.NewTerminal(screen.TerminalOptions{Queue: q, In: tm.Tty(), Out: tm.Tty(), Where: "/run/inbox.sock"})
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
