package tui

import (
	"io"
	"strings"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Summary writes one line per answered question, in question order, such
// as "✔ Database: PostgreSQL". The terminal UI's caller writes it on the
// terminal after the last answer, including any answers that were given in
// advance and never asked. Colour is as for Options.Color.
func Summary(w io.Writer, qs []schema.Question, answers []prompt.Answer, color bool) error {
	var b strings.Builder
	for i, q := range qs {
		if i >= len(answers) {
			break
		}
		summaryLine(&b, prompt.Display(q.Header)+":", answers[i].String(), color)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// SummaryLine writes what was asked and its answer on one line, such as
// "✔ Delete 15 files? Yes", for confirm and input. Colour is as for
// Options.Color.
func SummaryLine(w io.Writer, asked, answer string, color bool) error {
	var b strings.Builder
	summaryLine(&b, prompt.Display(asked), answer, color)
	_, err := io.WriteString(w, b.String())
	return err
}

func summaryLine(b *strings.Builder, asked, answer string, color bool) {
	st := style{color: color}
	b.WriteString(st.paint("✔", sgrGreen))
	b.WriteString(" ")
	b.WriteString(st.paint(asked, sgrBold))
	b.WriteString(" ")
	b.WriteString(st.paint(prompt.Display(answer), sgrCyan))
	b.WriteString("\n")
}

// ColorEnabled says whether to use colour on a stream, from the
// environment and whether the stream is a terminal: NO_COLOR (any value)
// turns colour off, CLICOLOR_FORCE (other than 0) turns it on even when
// the stream is not a terminal, CLICOLOR=0 turns it off, and otherwise a
// terminal other than TERM=dumb gets colour.
func ColorEnabled(getenv func(string) string, isTerminal bool) bool {
	switch {
	case getenv("NO_COLOR") != "":
		return false
	case getenv("CLICOLOR_FORCE") != "" && getenv("CLICOLOR_FORCE") != "0":
		return true
	case getenv("CLICOLOR") == "0":
		return false
	}
	return isTerminal && getenv("TERM") != "dumb"
}
