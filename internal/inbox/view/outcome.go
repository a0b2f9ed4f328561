package view

import (
	"fmt"
	"strings"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

// The terminal screen, the line prompts and the log record every set that
// ends, whichever view (or inbox) ended it, from the one record of its end
// (inbox.End): so what is done on the web page, or by the asker, is not
// lost on the terminal.

// outcome says how a set from from ended, as the inbox's terminal, its
// line prompts and its log record it: "" for one closed with the inbox,
// which the inbox says once for all.
func outcome(e inbox.End, from string) string {
	switch e.State {
	case inbox.Answered:
		return fmt.Sprintf("The questions from %s were answered %s.", from, where(e))
	case inbox.Cancelled:
		if e.Via == inbox.ViaHere {
			return fmt.Sprintf("Cancelled the questions from %s.", from)
		}
		return fmt.Sprintf("The questions from %s were cancelled %s.", from, where(e))
	case inbox.Withdrawn:
		return fmt.Sprintf("The questions from %s were withdrawn (%s).", from, prompt.Display(e.Reason))
	}
	return ""
}

// where says where the person answered or cancelled a set, for outcome.
func where(e inbox.End) string {
	switch e.Via {
	case inbox.ViaHere:
		return "here"
	case inbox.ViaPage:
		return "on the web page"
	case inbox.ViaNotification:
		return "from the notification"
	}
	return "elsewhere" + e.ByWhom()
}

// answersShown reports whether the answers of a set that ended with e are
// recorded, rather than its outcome: those given here, on the page or
// from the notification, which this inbox holds.
func answersShown(e inbox.End) bool {
	return e.State == inbox.Answered && e.Via != inbox.ViaElsewhere
}

// answersPrefix is what comes before each answer recorded of a set from
// from: "~/src/api · ", or "~/src/api, on the web page · ".
func answersPrefix(e inbox.End, from string) string {
	if e.Via == inbox.ViaHere {
		return from + " · "
	}
	return from + ", " + where(e) + " · "
}

// writeAnswers writes the answers of s, which ended with e, on b, as the
// terminal UI prints its summary, without colour: "✔ PREFIX Header:
// answer", a line each, and each note on the next.
func writeAnswers(b *strings.Builder, s *inbox.Set, e inbox.End, from string) {
	for _, a := range prompt.Summarize(s.Questions, e.Answers) {
		fmt.Fprintf(b, "✔ %s%s %s\n", answersPrefix(e, from), prompt.Display(a.Asked), prompt.Display(a.Answer))
		if a.Note != "" {
			fmt.Fprintf(b, "  Note: %s\n", prompt.Display(a.Note))
		}
	}
}
