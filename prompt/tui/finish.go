package tui

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/askuser/askuser/prompt"
)

var _ prompt.Finisher = (*Prompter)(nil)

// Finish ends a conversation on the terminal. When the answers are known,
// it writes them on the terminal, one line each, such as
// "✔ Database: PostgreSQL", each note under its answer: the terminal UI
// erases its screens, and
// nothing else would be left to say what was answered. (Telling a hang-up
// from the end of input it causes is the caller's: it is the same for
// every way of asking on a terminal.)
func (t *Prompter) Finish(_ context.Context, err error, summary []prompt.Summary) error {
	if err == nil {
		// The answers are printed whatever happens here: a summary that
		// cannot be drawn loses nothing.
		_, _ = io.WriteString(t.Out, t.summary("", summary))
	}
	return err
}

// summary returns each answer on a line of its own, after prefix, and
// its note, if any, on the next.
func (t *Prompter) summary(prefix string, summary []prompt.Summary) string {
	var b strings.Builder
	for _, s := range summary {
		fmt.Fprintf(&b, "%s %s%s %s\n", t.paint("✔", sgrGreen), prompt.Display(prefix),
			t.paint(prompt.Display(s.Asked), sgrBold), t.paint(prompt.Display(s.Answer), sgrCyan))
		if s.Note != "" {
			fmt.Fprintf(&b, "  %s\n", t.paint("Note: "+prompt.Display(s.Note), sgrDim))
		}
	}
	return b.String()
}
