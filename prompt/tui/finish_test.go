package tui

import (
	"bytes"
	"context"
	"testing"

	"github.com/askuser/askuser/prompt"
)

// fakeTerminal is an output that says it is a terminal's descriptor.
type fakeTerminal struct{ bytes.Buffer }

func (*fakeTerminal) Fd() uintptr { return ^uintptr(0) }

func TestFinishShowsTheAnswers(t *testing.T) {
	summary := []prompt.Summary{
		{Asked: "Database:", Answer: "PostgreSQL (Recommended)"},
		{Asked: "Features:", Answer: "Auth, Search, Audit\x1b[2J log", Note: "Audit\u202e later"},
		{Asked: "Delete\x1b[2J 15 files?", Answer: "Yes"},
	}
	for _, tc := range []struct {
		color bool
		want  string
	}{
		{false, "✔ Database: PostgreSQL (Recommended)\n✔ Features: Auth, Search, Audit\\x1b[2J log\n  Note: Audit\\u202e later\n✔ Delete\\x1b[2J 15 files? Yes\n"},
		{true, "\x1b[32m✔\x1b[0m \x1b[1mDatabase:\x1b[0m \x1b[36mPostgreSQL (Recommended)\x1b[0m\n"},
	} {
		var out fakeTerminal
		a := &Prompter{Options: Options{Out: &out, Color: tc.color}}
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

// A conversation that failed shows no summary and keeps its error.
func TestFinishAfterAnError(t *testing.T) {
	var out fakeTerminal
	a := &Prompter{Options: Options{Out: &out}}
	summary := []prompt.Summary{{Asked: "Database:", Answer: "SQLite"}}
	for _, err := range []error{prompt.ErrCancelled, prompt.ErrNoAnswer} {
		if got := a.Finish(context.Background(), err, summary); got != err {
			t.Errorf("Finish(%v) = %v", err, got)
		}
	}
	if out.Len() != 0 {
		t.Errorf("summary written after an error: %q", out.String())
	}
}
