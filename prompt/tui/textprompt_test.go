package tui

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/schema"
)

// The text prompt refuses what CheckOther refuses, saying why.
func TestValidateText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"MariaDB", ""},
		{"", "an answer is needed: type it, or press Esc to cancel"},
		{" \t ", "an answer is needed: type it, or press Esc to cancel"},
		{strings.Repeat("é", schema.MaxOtherLength+1), "your answer must be at most 2000 characters (got 2001); type it again, or press Esc to cancel"},
		{"\xff", "your answer must be UTF-8 text; check the terminal's encoding; type it again, or press Esc to cancel"},
	}
	for _, tt := range tests {
		err := validateText(tt.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("validateText(%.20q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The note and Other prompts refuse what CheckOther refuses, saying why,
// but take a blank text: it is no note, or back to the options.
func TestValidateTypedBlank(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Fits on one machine", ""},
		{"", ""},
		{" \u3000\u200b ", ""},
		{strings.Repeat("é", schema.MaxOtherLength+1), "your note must be at most 2000 characters (got 2001); type it again, or press Esc to go back"},
		{"\xff", "your note must be UTF-8 text; check the terminal's encoding; type it again, or press Esc to go back"},
	}
	for _, tt := range tests {
		err := validateTyped("your note", "go back", nil)(tt.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("validateTyped(%.20q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The empty text shows the placeholder, or else the default, dimmed;
// without colour, a placeholder says in words that it is an example, and
// a default is shown only in the keys.
func TestTextHint(t *testing.T) {
	tests := []struct {
		color            bool
		placeholder, def string
		want             string
	}{
		{true, "MariaDB", "", "\x1b[2mMariaDB\x1b[0m"},
		{true, "MariaDB", "SQLite", "\x1b[2mMariaDB\x1b[0m"},
		{true, "", "SQLite", "\x1b[2mSQLite\x1b[0m"},
		{true, "", "", ""},
		{false, "MariaDB", "SQLite", "e.g. MariaDB"},
		{false, "", "SQLite", ""},
		{false, "", "", ""},
	}
	for _, tt := range tests {
		p := &textPrompt{screen: screen{&Prompter{Options: Options{Color: tt.color}}}, placeholder: tt.placeholder, def: tt.def}
		if got := p.hint(40); got != tt.want {
			t.Errorf("hint with colour %v, placeholder %q, default %q = %q, want %q", tt.color, tt.placeholder, tt.def, got, tt.want)
		}
	}
}
