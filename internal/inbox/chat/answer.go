package chat

import (
	"context"
	"crypto/hmac"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Lines told to those who tap or reply when nothing changes.
const (
	lineNotYours  = "Not answered: only the inbox's person answers here."
	lineStale     = "Not answered: this button is not the question's as it stands now; use the message's buttons."
	lineUnknown   = "Not answered: this button was not made for a set of this inbox."
	lineNoText    = "Not taken: this question takes no answer of your own; tap a button."
	lineWhichText = "Not taken: reply to the message of the question you answer."
)

// handle does what e asks, when the person asked it in the room.
func (c *Chat) handle(ctx context.Context, e Event) {
	p := c.replied(e)
	switch {
	case e.Room != c.o.Room || !slices.Contains(c.o.People, e.Sender):
		c.tell(ctx, e, lineNotYours)
	case c.o.Private:
		c.tell(ctx, e, "Not taken: the questions are kept out of the chat; answer them at the inbox or on its page.")
	case e.Data != "":
		c.tap(ctx, e)
	case p == nil:
		c.tell(ctx, e, lineWhichText)
	case p.end != "":
		c.tell(ctx, e, "Not taken: these questions have already ended: "+p.end)
	case e.Number >= 1 && e.Number <= len(p.acts):
		c.do(ctx, e, p, p.acts[e.Number-1])
	default:
		c.text(ctx, e, p)
	}
}

// replied is the set that e's text answers: the one of the message it
// replies to, else the only one waiting that is posted, else nil.
func (c *Chat) replied(e Event) *post {
	posts := slices.Collect(maps.Values(c.posts))
	if e.To == "" && len(posts) == 1 {
		return posts[0]
	}
	// Every post has its message's ID: "" meets none.
	for _, p := range slices.Concat(posts, c.ended) {
		if p.msg == e.To {
			return p
		}
	}
	return nil
}

// tap does what the button of e does, when its data,
// "SET.VERSION.BUTTON.KEY", is whole what the view made for the button of
// the current version of a set's message.
func (c *Chat) tap(ctx context.Context, e Event) {
	var id, ver uint64
	var n int
	_, err := fmt.Sscanf(e.Data, "%d.%d.%d.", &id, &ver, &n)
	p := c.posts[id]
	switch {
	case err != nil || n < 1 || !hmac.Equal([]byte(e.Data), []byte(c.buttonData(id, ver, n))):
		c.tell(ctx, e, lineUnknown)
	case p == nil:
		line := "Not answered: these questions have already ended."
		if i := slices.IndexFunc(c.ended, func(p *post) bool { return p.set.ID == id }); i >= 0 {
			line = "Not answered: these questions have already ended: " + c.ended[i].end
		}
		c.tell(ctx, e, line)
	case ver != p.ver || n > len(p.acts):
		c.tell(ctx, e, lineStale)
	default:
		c.do(ctx, e, p, p.acts[n-1])
	}
}

// do does a, a button of p's message that the person tapped.
func (c *Chat) do(ctx context.Context, e Event, p *post, a action) {
	s := p.set
	p.line = ""
	switch a.kind {
	case cancel:
		c.settle(ctx, e, p, c.o.Queue.Cancel(s, inbox.ViaChat), "Cancelled.")
		return
	case send:
		c.settle(ctx, e, p, c.o.Queue.Answer(p.set, inbox.ViaChat, p.answers), "Answered.")
		return
	case redo:
		p.at = 0
		p.answers = make([]prompt.Answer, len(s.Questions))
	case toggle:
		label := s.Questions[p.at].Options[a.option].Label
		ans := &p.answers[p.at]
		if i := slices.Index(ans.Labels, label); i >= 0 {
			ans.Labels = slices.Delete(ans.Labels, i, i+1)
		} else {
			ans.Labels = append(ans.Labels, label)
		}
	case choose:
		p.answers[p.at].Labels = []string{s.Questions[p.at].Options[a.option].Label}
		p.answers[p.at].Other = ""
		fallthrough // the question is answered: on to the next
	case done:
		if !c.next(ctx, e, p) {
			return
		}
	}
	c.tell(ctx, e, "")
	c.update(ctx, p)
}

// next checks the answer to the question shown, and moves on: to the
// next question, to the review of several, or, for one, sends it. It
// reports whether p is still to be shown.
func (c *Chat) next(ctx context.Context, e Event, p *post) bool {
	s := p.set
	ans, err := s.Questions[p.at].Check(p.answers[p.at])
	if err != nil {
		p.line = "Not taken: " + prompt.Display(err.Error()) + "."
		return true
	}
	p.answers[p.at] = ans
	p.at++
	if p.at < len(s.Questions) || len(s.Questions) > 1 {
		return true
	}
	c.settle(ctx, e, p, c.o.Queue.Answer(p.set, inbox.ViaChat, p.answers), "Answered.")
	return false
}

// settle tells e's sender how the answer or cancel of p went (err is the
// queue's, which checks the answers as every view's), and shows p ended
// when it did: the queue wakes the view too, but the person should not
// wait for it.
func (c *Chat) settle(ctx context.Context, e Event, p *post, err error, line string) {
	ns, notSent := errors.AsType[*inbox.NotSentError](err)
	switch {
	case errors.Is(err, inbox.ErrEnded):
		line = "Not answered: these questions had already ended."
	case notSent:
		line = "Not sent: " + prompt.Display(ns.Err.Error()) + "."
	case err != nil:
		// The queue's own check refused it: show why, and keep the set.
		p.line = "Not taken: " + prompt.Display(err.Error()) + "."
		c.tell(ctx, e, p.line)
		c.update(ctx, p)
		return
	}
	c.tell(ctx, e, line)
	if c.posts[p.set.ID] == p && p.set.End().State != inbox.Waiting {
		c.finish(ctx, p)
	}
}

// notePrefix starts a reply that is a note on the question shown.
const notePrefix = "note:"

// text takes e's text as the answer of the person's own to the question
// that p shows, or as a note on it.
func (c *Chat) text(ctx context.Context, e Event, p *post) {
	s := p.set
	if p.at == len(s.Questions) {
		c.tell(ctx, e, "Not taken: tap Send, or Answer again.")
		return
	}
	q := s.Questions[p.at]
	ans := &p.answers[p.at]
	p.line = ""
	text := strings.TrimSpace(e.Text)
	if low := strings.ToLower(text); strings.HasPrefix(low, notePrefix) && !q.Kind.Alone() {
		note, err := schema.CheckOther(strings.TrimSpace(text[len(notePrefix):]))
		if err != nil {
			c.tell(ctx, e, "Not taken: the note "+err.Error()+".")
			return
		}
		ans.Note = note
		c.tell(ctx, e, "Note taken.")
		c.update(ctx, p)
		return
	}
	if !q.Kind.Typed() && !q.Kind.OffersOther() {
		c.tell(ctx, e, lineNoText)
		return
	}
	other, err := schema.CheckOther(text)
	if err != nil {
		c.tell(ctx, e, "Not taken: your answer "+err.Error()+".")
		return
	}
	ans.Other = other
	if q.MultiSelect {
		c.tell(ctx, e, "Taken; tap Done when your choices are made.")
		c.update(ctx, p)
		return
	}
	ans.Labels = nil
	if c.next(ctx, e, p) {
		c.update(ctx, p)
	}
}

// tell tells e's sender line, when there is one to tell or e was a tap
// (which the service must answer).
func (c *Chat) tell(ctx context.Context, e Event, line string) {
	if line == "" && e.Data == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	if err := c.o.Service.Tell(ctx, e, line); err != nil {
		c.warn("answer", err)
	}
}
