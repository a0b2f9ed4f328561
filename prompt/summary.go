package prompt

import (
	"io"
	"strings"

	"github.com/askuser/askuser/schema"
)

// Summary writes one line per answered question, in question order, such
// as "✔ Database: PostgreSQL". The terminal UI's caller writes it on the
// terminal after the last answer, including any answers that were given in
// advance and never asked. Colour is as for TUIOptions.Color.
func Summary(w io.Writer, qs []schema.Question, answers []Answer, color bool) error {
	st := style{color: color}
	var b strings.Builder
	for i, q := range qs {
		if i >= len(answers) {
			break
		}
		b.WriteString(st.paint("✔", sgrGreen))
		b.WriteString(" ")
		b.WriteString(st.paint(clean(q.Header, false)+":", sgrBold))
		b.WriteString(" ")
		b.WriteString(st.paint(clean(answers[i].String(), false), sgrCyan))
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
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
