package prompt_test

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/line"
	"github.com/askuser/askuser/schema"
)

// Every way of asking is a Prompter, and gives one checked answer per
// question: here the line prompts, answered by a script.
func ExamplePrompter() {
	qs := []schema.Question{{Question: "Which database?", Header: "Database", Options: []schema.Option{
		{Label: "PostgreSQL", Description: "Relational"},
		{Label: "SQLite", Description: "Embedded"},
	}}}
	var asker prompt.Prompter = line.New(strings.NewReader("2\n"), io.Discard, false)
	answers, err := asker.Ask(context.Background(), qs)
	if err != nil {
		panic(err)
	}
	fmt.Println(answers[0])
	// Output: SQLite
}

// What the questions say is drawn through Display: a terminal shows the
// escape sequences, bidirectional overrides and invisible characters in
// it, and obeys none of them.
func ExampleDisplay() {
	fmt.Println(prompt.Display("\x1b]0;pwned\x07Deploy?"))
	fmt.Println(prompt.Display("claude\u200bcode"))
	fmt.Println(prompt.Display("abc\u202edef"))
	fmt.Println(prompt.Display("two\nlines"))
	// Output:
	// \x1b]0;pwned\x07Deploy?
	// claude⟨U+200B⟩code
	// abc\u202edef
	// two lines
}

// A description or a preview keeps its lines.
func ExampleDisplayMultiline() {
	fmt.Println(prompt.DisplayMultiline("CREATE TABLE users (\n\tid bigserial\r\n);\x1b[2J"))
	// Output:
	// CREATE TABLE users (
	//     id bigserial
	// );\x1b[2J
}

// Summarize lists the answers as a view shows them at the end: each under
// its header, with its note.
func ExampleSummarize() {
	qs := []schema.Question{
		{Question: "Which database?", Header: "Database", Options: []schema.Option{{Label: "PostgreSQL"}, {Label: "SQLite"}}},
		schema.ConfirmQuestion("Deploy now?", true),
	}
	answers := []prompt.Answer{{Labels: []string{"SQLite"}, Note: "for the tests"}, {Labels: []string{schema.Yes}}}
	for _, s := range prompt.Summarize(qs, answers) {
		fmt.Println(s.Asked, s.Answer)
		if s.Note != "" {
			fmt.Println("  note:", s.Note)
		}
	}
	// Output:
	// Database: SQLite
	//   note: for the tests
	// Deploy now? Yes
}
