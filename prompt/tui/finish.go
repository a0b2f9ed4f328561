package tui

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/askuser/askuser/prompt"
)

var _ prompt.Finisher = (*Asker)(nil)

// hangupGrace is how long a terminal that read as ended is given to turn
// out to have hung up: the kernel's SIGHUP may arrive just after the end of
// input it causes.
const hangupGrace = 250 * time.Millisecond

// Finish ends a conversation on the terminal. When the terminal's input
// ended, it waits a moment for ctx to end, so that a hang-up is reported
// as one rather than as the end of input it causes. When the answers are
// known, it writes them on the terminal, one line each, such as
// "✔ Database: PostgreSQL": the terminal UI erases its screens, and
// nothing else would be left to say what was answered.
func (t *Asker) Finish(ctx context.Context, err error, summary []prompt.Summary) error {
	if errors.Is(err, prompt.ErrNoAnswer) {
		select {
		case <-ctx.Done():
		case <-time.After(hangupGrace):
		}
	}
	if err == nil {
		// The answers are printed whatever happens here: a summary that
		// cannot be drawn loses nothing.
		_ = writeSummary(t.out, summary, t.st)
	}
	return err
}

// writeSummary writes each answer on a line of its own.
func writeSummary(w io.Writer, summary []prompt.Summary, st style) error {
	var b strings.Builder
	for _, s := range summary {
		b.WriteString(st.paint("✔", sgrGreen))
		b.WriteString(" ")
		b.WriteString(st.paint(prompt.Display(s.Asked), sgrBold))
		b.WriteString(" ")
		b.WriteString(st.paint(prompt.Display(s.Answer), sgrCyan))
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
