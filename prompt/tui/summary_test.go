package tui

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

func TestSummary(t *testing.T) {
	qs := []schema.Question{{Header: "Database"}, {Header: "Features"}, {Header: "Not answered"}}
	answers := []prompt.Answer{
		{Labels: []string{"PostgreSQL (Recommended)"}},
		{Labels: []string{"Auth", "Search"}, Other: "Audit\x1b[2J log"},
	}
	var b strings.Builder
	if err := Summary(&b, qs, answers, false); err != nil {
		t.Fatal(err)
	}
	want := "✔ Database: PostgreSQL (Recommended)\n✔ Features: Auth, Search, Audit\\x1b[2J log\n"
	if got := b.String(); got != want {
		t.Errorf("Summary =\n%q\nwant\n%q", got, want)
	}

	b.Reset()
	if err := Summary(&b, qs[:1], answers[:1], true); err != nil {
		t.Fatal(err)
	}
	want = "\x1b[32m✔\x1b[0m \x1b[1mDatabase:\x1b[0m \x1b[36mPostgreSQL (Recommended)\x1b[0m\n"
	if got := b.String(); got != want {
		t.Errorf("Summary in colour =\n%q\nwant\n%q", got, want)
	}
}

func TestColorEnabled(t *testing.T) {
	tests := []struct {
		env        map[string]string
		isTerminal bool
		want       bool
	}{
		{nil, true, true},
		{nil, false, false},
		{map[string]string{"TERM": "dumb"}, true, false},
		{map[string]string{"NO_COLOR": "1"}, true, false},
		{map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, true, false},
		{map[string]string{"CLICOLOR": "0"}, true, false},
		{map[string]string{"CLICOLOR": "1"}, false, false},
		{map[string]string{"CLICOLOR_FORCE": "1"}, false, true},
		{map[string]string{"CLICOLOR_FORCE": "1", "CLICOLOR": "0"}, false, true},
		{map[string]string{"CLICOLOR_FORCE": "0"}, false, false},
	}
	for _, tt := range tests {
		got := ColorEnabled(func(k string) string { return tt.env[k] }, tt.isTerminal)
		if got != tt.want {
			t.Errorf("ColorEnabled(%v, terminal %v) = %v, want %v", tt.env, tt.isTerminal, got, tt.want)
		}
	}
}
