package chat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// actionKind is what a button does.
type actionKind int

const (
	choose actionKind = iota // answer the question with the option
	toggle                   // choose or unchoose the option
	done                     // the choices of the question are made
	send                     // send the answers reviewed
	redo                     // answer the questions again
	cancel                   // cancel the set (its asker exits 130)
)

// action is one button of a message: what it says, and what it does.
type action struct {
	label  string
	kind   actionKind
	option int
}

// render is p's current message, and the actions of its buttons.
func (c *Chat) render(p *post) Message {
	s := p.set
	from := prompt.Display(view.Source(s, c.o.Home))
	switch {
	case p.end != "":
		return Message{Text: fmt.Sprintf("Questions from %s: %s", from, p.end)}
	case c.o.Private:
		return Message{Text: fmt.Sprintf("Questions from %s wait. Answer them at the inbox or on its page.", from)}
	}
	p.ver++
	p.acts = nil
	var b strings.Builder
	fmt.Fprintf(&b, "Questions from %s", from)
	if len(s.Questions) > 1 && p.at < len(s.Questions) {
		fmt.Fprintf(&b, " (%d of %d)", p.at+1, len(s.Questions))
	}
	b.WriteString("\n\n")
	if p.at == len(s.Questions) {
		// The answers, to be sent or given again.
		b.WriteString("Your answers, not sent yet:\n")
		view.WriteSummary(&b, "", prompt.Summarize(s.Questions, p.answers))
		p.acts = append(p.acts, action{label: "Send", kind: send}, action{label: "Answer again", kind: redo})
	} else {
		c.renderQuestion(&b, p)
	}
	if p.line != "" {
		fmt.Fprintf(&b, "\n\n%s", p.line)
	}
	p.acts = append(p.acts, action{label: "Cancel", kind: cancel})
	buttons := make([]Button, len(p.acts))
	for i, a := range p.acts {
		buttons[i] = Button{Label: a.label, Data: c.buttonData(p.set.ID, p.ver, i+1)}
	}
	return Message{Text: b.String(), Buttons: buttons}
}

// buttonData is the data of button n (from 1) of version ver of the
// message of the set with id: it names them, with their key.
func (c *Chat) buttonData(id, ver uint64, n int) string {
	return fmt.Sprintf("%d.%d.%d.%s", id, ver, n, c.o.Links.ButtonKey(id, ver, n))
}

// renderQuestion writes the question p shows, its options with their
// descriptions and previews, and how to answer; a button per option, a
// toggle for several choices.
func (c *Chat) renderQuestion(b *strings.Builder, p *post) {
	q := p.set.Questions[p.at]
	a := p.answers[p.at]
	if !q.Kind.Alone() {
		fmt.Fprintf(b, "[%s] ", prompt.Display(q.Header))
	}
	b.WriteString(prompt.DisplayMultiline(q.Question))
	b.WriteString("\n")
	for i, o := range q.Options {
		label := fmt.Sprintf("%d. %s", i+1, prompt.Display(o.Label))
		b.WriteString("\n" + label)
		if o.Description != "" {
			fmt.Fprintf(b, " — %s", prompt.DisplayMultiline(o.Description))
		}
		if o.Preview != "" {
			fmt.Fprintf(b, "\n   Preview:\n   %s", strings.ReplaceAll(prompt.DisplayMultiline(o.Preview), "\n", "\n   "))
		}
		switch {
		case q.MultiSelect && slices.Contains(a.Labels, o.Label):
			p.acts = append(p.acts, action{"☑ " + label, toggle, i})
		case q.MultiSelect:
			p.acts = append(p.acts, action{"☐ " + label, toggle, i})
		default:
			p.acts = append(p.acts, action{label, choose, i})
		}
	}
	if len(q.Options) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(howToAnswer(q))
	if a.Other != "" && q.MultiSelect {
		fmt.Fprintf(b, "\nYour own answer: %s", prompt.Display(a.Other))
	}
	if a.Note != "" {
		fmt.Fprintf(b, "\nNote: %s", prompt.Display(a.Note))
	}
	if q.MultiSelect {
		p.acts = append(p.acts, action{label: "Done", kind: done})
	}
}

// howToAnswer says how q is answered in the chat, beside its buttons.
func howToAnswer(q schema.Question) string {
	var how string
	switch {
	case q.Kind.Typed():
		how = "\nReply to this message with your answer."
	case q.Kind.OffersOther() && q.MultiSelect:
		how = "\nTap to choose, then Done. Or reply with an answer of your own."
	case q.Kind.OffersOther():
		how = "\nTap one, or reply to this message with an answer of your own."
	}
	if !q.Kind.Alone() {
		how += " To add a note, reply \"note: \" and the note."
	}
	return how
}

// endText says how s ended, for its message in the chat; with the
// answers, when they were given in the chat and are not private.
func (c *Chat) endText(s *inbox.Set) string {
	e := s.End()
	where := map[inbox.Via]string{
		inbox.ViaHere: "at the inbox", inbox.ViaPage: "on the web page",
		inbox.ViaNotification: "from the notification", inbox.ViaChat: "in the chat",
		inbox.ViaElsewhere: "in another inbox" + e.ByWhom(),
	}[e.Via]
	switch e.State {
	case inbox.Withdrawn:
		return fmt.Sprintf("withdrawn (%s).", prompt.Display(e.Reason))
	case inbox.Closed:
		return "the inbox quit."
	}
	text := fmt.Sprintf("%s %s.", e.State, where)
	if e.State == inbox.Answered && e.Via == inbox.ViaChat && !c.o.Private {
		for _, a := range prompt.Summarize(s.Questions, e.Answers) {
			text += fmt.Sprintf("\n%s %s", prompt.Display(a.Asked), prompt.Display(a.Answer))
		}
	}
	return text
}
