package view

import (
	"cmp"
	"errors"
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
	switch {
	case e.State == inbox.Cancelled && e.Via == inbox.ViaHere:
		return fmt.Sprintf("Cancelled the questions from %s.", from)
	case e.State == inbox.Cancelled, e.State == inbox.Answered:
		return fmt.Sprintf("The questions from %s were %s %s.", from, e.State, where(e))
	case e.State == inbox.Withdrawn:
		return fmt.Sprintf("The questions from %s were withdrawn (%s).", from, prompt.Display(e.Reason))
	}
	return ""
}

// notSent says, as every view says it, what became of the person's
// answer or cancel that ended s (e) in this inbox when its transport did
// not get it to the asker's side (see inbox.Set.NotSent): "" when it did,
// and for every other end.
func notSent(s *inbox.Set, e inbox.End, from string) string {
	ns := s.NotSent()
	if ns == nil {
		return ""
	}
	what := "answer to"
	if e.State == inbox.Cancelled {
		what = "cancel of"
	}
	why := prompt.Display(ns.Err.Error())
	if ns.Pending {
		return fmt.Sprintf("Your %s the questions from %s is not sent yet (%s): it goes as soon as it can.", what, from, why)
	}
	return fmt.Sprintf("Your %s the questions from %s was not sent: %s.", what, from, why)
}

// isNotSent reports whether err, from Answer or Cancel, is an answer or
// cancel that ended its set here but did not reach its asker: the set's
// record says what became of it (notSent).
func isNotSent(err error) bool {
	_, ok := errors.AsType[*inbox.NotSentError](err)
	return ok
}

// where says where the person answered or cancelled a set, for outcome.
func where(e inbox.End) string {
	return cmp.Or(viaWords[e.Via], "elsewhere"+e.ByWhom())
}

// viaWords are the words of each view of this inbox, for where.
var viaWords = map[inbox.Via]string{
	inbox.ViaHere: "here", inbox.ViaPage: "on the web page",
	inbox.ViaNotification: "from the notification", inbox.ViaChat: "in the chat",
}

// answersShown reports whether the answers of a set that ended with e are
// recorded, rather than its outcome: those given here, on the page, from
// the notification or in the chat, which this inbox holds.
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

// WriteSummary writes answers on b as the views list them in text, as the
// terminal UI prints its summary, without colour: "PREFIX Header: answer",
// a line each, and each note on the next.
func WriteSummary(b *strings.Builder, prefix string, answers []prompt.Summary) {
	for _, a := range answers {
		fmt.Fprintf(b, "%s%s %s\n", prefix, prompt.Display(a.Asked), prompt.Display(a.Answer))
		if a.Note != "" {
			fmt.Fprintf(b, "  Note: %s\n", prompt.Display(a.Note))
		}
	}
}
