package tui

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/askuser/askuser/prompt"
)

// fakeTerminal is an output that says it is a terminal's descriptor.
type fakeTerminal struct{ bytes.Buffer }

func (*fakeTerminal) Fd() uintptr { return ^uintptr(0) }

func TestFinishShowsTheAnswers(t *testing.T) {
	summary := []prompt.Summary{
		{Asked: "Database:", Answer: "PostgreSQL (Recommended)"},
		{Asked: "Features:", Answer: "Auth, Search, Audit\x1b[2J log"},
		{Asked: "Delete\x1b[2J 15 files?", Answer: "Yes"},
	}
	for _, tc := range []struct {
		color bool
		want  string
	}{
		{false, "✔ Database: PostgreSQL (Recommended)\n✔ Features: Auth, Search, Audit\\x1b[2J log\n✔ Delete\\x1b[2J 15 files? Yes\n"},
		{true, "\x1b[32m✔\x1b[0m \x1b[1mDatabase:\x1b[0m \x1b[36mPostgreSQL (Recommended)\x1b[0m\n"},
	} {
		var out fakeTerminal
		a := &Asker{out: &out, st: style{color: tc.color}}
		s := summary
		if tc.color {
			s = summary[:1]
		}
		if err := a.Finish(context.Background(), nil, s); err != nil {
			t.Fatal(err)
		}
		if got := out.String(); got != tc.want {
			t.Errorf("colour %v: summary =\n%q\nwant\n%q", tc.color, got, tc.want)
		}
	}
}

// A conversation that failed shows no summary and keeps its error; one
// whose terminal read as ended waits for a hang-up's signal first, unless
// the context has already ended.
func TestFinishAfterAnError(t *testing.T) {
	var out fakeTerminal
	a := &Asker{out: &out}
	summary := []prompt.Summary{{Asked: "Database:", Answer: "SQLite"}}
	if err := a.Finish(context.Background(), prompt.ErrCancelled, summary); err != prompt.ErrCancelled {
		t.Errorf("cancelled: Finish = %v", err)
	}

	start := time.Now()
	if err := a.Finish(context.Background(), prompt.ErrNoAnswer, summary); !errors.Is(err, prompt.ErrNoAnswer) {
		t.Errorf("ended: Finish = %v", err)
	}
	if d := time.Since(start); d < hangupGrace {
		t.Errorf("ended input: Finish waited %s, want at least %s for a hang-up", d, hangupGrace)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan error, 1)
	go func() { done <- a.Finish(ctx, prompt.ErrNoAnswer, summary) }()
	select {
	case err := <-done:
		if !errors.Is(err, prompt.ErrNoAnswer) {
			t.Errorf("ended, context done: Finish = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Finish waited out a context that had ended")
	}
	if out.Len() != 0 {
		t.Errorf("summary written after an error: %q", out.String())
	}
}
