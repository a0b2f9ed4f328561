// Package chat is the inbox's view in the person's chat app: it posts
// each set that waits to a chat service (Telegram, Matrix), by connecting
// out to it, and takes the person's answers there, from buttons and
// replies, through the same checks as every view. The view is chat.go;
// each service is one file behind Service, and the view never knows which.
package chat

import (
	"context"
	"crypto/hmac"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Service is one chat service, as the view uses it: a room (a chat) it
// posts to and edits in, and what people do there. An implementation is
// one file (telegram.go, matrix.go); it connects out and never listens.
type Service interface {
	// Listen connects to the service and sends what people do in the
	// room (and wherever else the service lets them reach the bot or
	// account) on events, until ctx ends or the service fails for good.
	Listen(ctx context.Context, events chan<- Event) error
	// Post posts m to the room and returns its ID.
	Post(ctx context.Context, m Message) (MessageID, error)
	// Edit makes the message id read as m, with m's buttons only (none
	// takes them all away).
	Edit(ctx context.Context, id MessageID, m Message) error
	// Tell tells whoever did e one line: the answer to a tap (a line the
	// chat app shows briefly), else a reply to their message.
	Tell(ctx context.Context, e Event, line string) error
}

// MessageID names a message in the service's room.
type MessageID string

// Message is what the view posts: text, and rows of buttons under it. A
// service that has no buttons (Matrix) lists them in the text, numbered,
// and takes a reply with a button's number as a tap on it.
type Message struct {
	Text    string
	Buttons [][]Button
}

// Button is one button of a message: what it says, and the data that a
// tap on it gives back (Event.Data), which the view made.
type Button struct {
	Label, Data string
}

// Event is something a person did in the chat: tapped a button (Data), or
// wrote a message (Text), in reply to one of the view's (To) or not.
type Event struct {
	// Sender and Room are the service's IDs of who did it, and where:
	// the view checks them against Options.People and Options.Room.
	Sender, Room string
	// Data is the data of the button tapped; Text is what was written.
	Data, Text string
	// To is the view's message that was tapped, or replied to; "" for a
	// message that replies to none.
	To MessageID
	// Ref is the service's own handle of the event, for Tell.
	Ref string
}

// Options are what the chat view needs.
type Options struct {
	Queue   *inbox.Queue
	Service Service
	// Room is the service's ID of the one room the view posts to, and
	// People those of the people who may answer there: anything done
	// elsewhere, or by anyone else, is refused and changes nothing.
	Room   string
	People []string
	// Links make the keys of the buttons (view.Links.ButtonKey), so that
	// nobody else can make a button's data.
	Links *view.Links
	// Private keeps the questions' text out of the chat: it is told only
	// that questions wait, and from whom (ASKUSER_NOTIFY_PRIVATE).
	Private bool
	// Home is the person's home directory, shown as ~.
	Home string
	// Log is where the view says what went wrong with the service (never
	// its token or password, which the services keep to themselves).
	Log io.Writer
	// Held holds each set back from the chat until Away is given it: the
	// inbox gives it once the set has waited unanswered as long as the
	// notification waits (--notify-after), so that the person away from
	// the desk is told, and the desk answers first. Without it, every set
	// that waits is posted at once.
	Held bool
}

// callTimeout bounds each call to the service, so that a service that
// hangs delays the chat only, and only for so long.
const callTimeout = 20 * time.Second

// keepEnded is how many ended sets the view remembers, to tell a late tap
// or reply how its set ended.
const keepEnded = 200

// Chat is the chat view of an inbox's queue.
type Chat struct {
	o Options

	posts  map[uint64]*post // the sets posted, by set ID
	ended  []*post          // the last keepEnded sets that ended, oldest first
	warned sync.Map         // the problems said once

	mu   sync.Mutex
	away map[uint64]*inbox.Set // with Options.Held, the sets given to Away, by ID
	wake chan struct{}         // Away's word to Run
}

// post is one set as the chat shows it.
type post struct {
	set *inbox.Set
	msg MessageID
	// ver counts the versions of the message: the buttons of each have
	// keys of their own, so that a key serves one tap.
	ver uint64
	// at is the question shown; len(questions) for the review of the
	// answers before they go.
	at      int
	answers []prompt.Answer
	// line is what the message says last, after the question: why the
	// last answer was not taken, or a note taken.
	line  string
	acts  []action // what each button of the current version does
	end   string   // how the set ended, once it has
	shown bool     // the message was posted
}

// New returns the chat view of o.Queue.
func New(o Options) *Chat {
	return &Chat{o: o, posts: map[uint64]*post{}, away: map[uint64]*inbox.Set{}, wake: make(chan struct{}, 1)}
}

// Away lets s, which waits, be posted, with Options.Held. It returns at
// once, whenever it is called: the chat posts s apart, in Run.
func (c *Chat) Away(s *inbox.Set) {
	c.mu.Lock()
	c.away[s.ID] = s
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// due reports whether s may be posted: without Options.Held, any set;
// with it, a set given to Away.
func (c *Chat) due(s *inbox.Set) bool {
	if !c.o.Held {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.away[s.ID] != nil
}

// forget forgets the sets given to Away that have ended.
func (c *Chat) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, s := range c.away {
		if s.End().State != inbox.Waiting {
			delete(c.away, id)
		}
	}
}

// Run posts the sets of the queue as they come and takes the person's
// answers until ctx ends; a service that fails for good ends it with its
// error. It runs apart from the queue: the queue never waits for it, nor
// for the service.
func (c *Chat) Run(ctx context.Context) error {
	events := make(chan Event, 64)
	failed := make(chan error, 1)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { failed <- c.o.Service.Listen(ctx, events) }()
	for {
		snap := c.o.Queue.Snapshot()
		var retry <-chan time.Time
		if !c.sync(ctx, snap) {
			retry = time.After(retryAfter)
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case err := <-failed:
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			return fmt.Errorf("the chat: %w", err)
		case e := <-events:
			c.handle(ctx, e)
		case <-snap.Changed:
		case <-c.wake:
		case <-retry:
		}
	}
}

// retryAfter is how long the view waits to post again the sets that it
// could not post, when nothing else happens before.
const retryAfter = 5 * time.Second

// sync posts the sets of snap not posted yet that are due, oldest first,
// and shows as ended those posted that no longer wait. It reports whether
// every set due is posted: after a post that fails, the rest wait for the
// next time, so that a service that is down costs one call at a time.
func (c *Chat) sync(ctx context.Context, snap inbox.Snapshot) bool {
	defer c.forget()
	waiting := make(map[uint64]bool, len(snap.Sets))
	for _, s := range snap.Sets {
		waiting[s.ID] = true
	}
	for id, p := range c.posts {
		if !waiting[id] && p.set.End().State != inbox.Waiting {
			c.finish(ctx, p)
		}
	}
	for _, s := range snap.Sets {
		p := c.posts[s.ID]
		if p == nil {
			p = &post{set: s, answers: make([]prompt.Answer, len(s.Questions))}
			c.posts[s.ID] = p
		}
		if !p.shown && s.End().State == inbox.Waiting && c.due(s) {
			if c.post(ctx, p); !p.shown {
				return false
			}
		}
	}
	return true
}

// post posts p's first version.
func (c *Chat) post(ctx context.Context, p *post) {
	m := c.render(p)
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	id, err := c.o.Service.Post(ctx, m)
	if err != nil {
		c.warn("post", err)
		return
	}
	p.msg, p.shown = id, true
}

// update shows p's current version in place of the last.
func (c *Chat) update(ctx context.Context, p *post) {
	if !p.shown {
		c.post(ctx, p)
		return
	}
	m := c.render(p)
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	if err := c.o.Service.Edit(ctx, p.msg, m); err != nil {
		c.warn("edit", err)
	}
}

// finish shows p as ended, buttons gone, and remembers it for a while.
func (c *Chat) finish(ctx context.Context, p *post) {
	delete(c.posts, p.set.ID)
	p.end = c.endText(p.set)
	p.acts = nil
	c.ended = append(c.ended, p)
	if len(c.ended) > keepEnded {
		c.ended = slices.Delete(c.ended, 0, len(c.ended)-keepEnded)
	}
	if p.shown {
		c.update(ctx, p)
	}
}

// warn says on the inbox's log what failed with the service, once for
// each kind of call: the chat is not the inbox's only view, and a service
// that is down would fill the log.
func (c *Chat) warn(what string, err error) {
	if _, told := c.warned.LoadOrStore(what, true); told || c.o.Log == nil {
		return
	}
	_, _ = fmt.Fprintf(c.o.Log, "Warning: the chat could not %s a message: %v. The inbox goes on.\n", what, err)
}

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

// action is what one button of a message does.
type action struct {
	kind   actionKind
	option int
}

// render is p's current message, and the actions of its buttons.
func (c *Chat) render(p *post) Message {
	s := p.set
	from := s.From
	if from == "" {
		from = prompt.ShortHome(s.Source(), c.o.Home)
	}
	from = prompt.Display(from)
	var b strings.Builder
	switch {
	case p.end != "":
		fmt.Fprintf(&b, "Questions from %s: %s", from, p.end)
		return Message{Text: b.String()}
	case c.o.Private:
		fmt.Fprintf(&b, "Questions from %s wait. Answer them at the inbox or on its page.", from)
		return Message{Text: b.String()}
	}
	p.ver++
	p.acts = nil
	fmt.Fprintf(&b, "Questions from %s", from)
	if len(s.Questions) > 1 && p.at < len(s.Questions) {
		fmt.Fprintf(&b, " (%d of %d)", p.at+1, len(s.Questions))
	}
	b.WriteString("\n\n")
	var rows [][]Button
	if p.at == len(s.Questions) {
		rows = c.renderReview(&b, p)
	} else {
		rows = c.renderQuestion(&b, p)
	}
	if p.line != "" {
		fmt.Fprintf(&b, "\n\n%s", p.line)
	}
	rows = append(rows, c.button(p, "Cancel", action{kind: cancel}))
	return Message{Text: b.String(), Buttons: rows}
}

// button is a row of one button of p's current version that does a: its
// data names the set, the version and the button, with their key.
func (c *Chat) button(p *post, label string, a action) []Button {
	p.acts = append(p.acts, a)
	n := len(p.acts)
	id := p.set.ID
	data := fmt.Sprintf("%d.%d.%d.%s", id, p.ver, n, c.o.Links.ButtonKey(id, p.ver, n))
	return []Button{{Label: label, Data: data}}
}

// renderReview writes the answers of p, to be sent or given again.
func (c *Chat) renderReview(b *strings.Builder, p *post) [][]Button {
	b.WriteString("Your answers, not sent yet:\n")
	for _, a := range prompt.Summarize(p.set.Questions, p.answers) {
		fmt.Fprintf(b, "%s %s\n", prompt.Display(a.Asked), prompt.Display(a.Answer))
		if a.Note != "" {
			fmt.Fprintf(b, "  Note: %s\n", prompt.Display(a.Note))
		}
	}
	return [][]Button{c.button(p, "Send", action{kind: send}), c.button(p, "Answer again", action{kind: redo})}
}

// renderQuestion writes the question p shows, its options with their
// descriptions and previews, and how to answer; a button per option, a
// toggle for several choices.
func (c *Chat) renderQuestion(b *strings.Builder, p *post) [][]Button {
	q := p.set.Questions[p.at]
	a := p.answers[p.at]
	var rows [][]Button
	if !q.Kind.Alone() {
		fmt.Fprintf(b, "[%s] ", prompt.Display(q.Header))
	}
	b.WriteString(prompt.DisplayMultiline(q.Question))
	b.WriteString("\n")
	for i, o := range q.Options {
		fmt.Fprintf(b, "\n%d. %s", i+1, prompt.Display(o.Label))
		if o.Description != "" {
			fmt.Fprintf(b, " — %s", prompt.DisplayMultiline(o.Description))
		}
		if o.Preview != "" {
			fmt.Fprintf(b, "\n   Preview:\n   %s", strings.ReplaceAll(prompt.DisplayMultiline(o.Preview), "\n", "\n   "))
		}
		label := fmt.Sprintf("%d. %s", i+1, prompt.Display(o.Label))
		switch {
		case q.MultiSelect && slices.Contains(a.Labels, o.Label):
			rows = append(rows, c.button(p, "☑ "+label, action{kind: toggle, option: i}))
		case q.MultiSelect:
			rows = append(rows, c.button(p, "☐ "+label, action{kind: toggle, option: i}))
		default:
			rows = append(rows, c.button(p, label, action{kind: choose, option: i}))
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
		rows = append(rows, c.button(p, "Done", action{kind: done}))
	}
	return rows
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
	case inbox.Answered:
		text := "answered " + where + "."
		if e.Via == inbox.ViaChat && !c.o.Private {
			for _, a := range prompt.Summarize(s.Questions, e.Answers) {
				text += fmt.Sprintf("\n%s %s", prompt.Display(a.Asked), prompt.Display(a.Answer))
			}
		}
		return text
	case inbox.Cancelled:
		return "cancelled " + where + "."
	case inbox.Withdrawn:
		return fmt.Sprintf("withdrawn (%s).", prompt.Display(e.Reason))
	}
	return "the inbox quit."
}

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
	if e.Room != c.o.Room || !slices.Contains(c.o.People, e.Sender) {
		c.tell(ctx, e, lineNotYours)
		return
	}
	if c.o.Private {
		c.tell(ctx, e, "Not taken: the questions are kept out of the chat; answer them at the inbox or on its page.")
		return
	}
	if e.Data != "" {
		c.tap(ctx, e)
		return
	}
	if e.Text == "" {
		return
	}
	p := c.replied(e)
	if p == nil {
		c.tell(ctx, e, lineWhichText)
		return
	}
	if p.end != "" {
		c.tell(ctx, e, "Not taken: these questions have already ended: "+p.end)
		return
	}
	c.text(ctx, e, p)
}

// replied is the set that e's text answers: the one of the message it
// replies to, else the only one waiting that is posted, else nil.
func (c *Chat) replied(e Event) *post {
	if e.To != "" {
		for _, p := range c.posts {
			if p.shown && p.msg == e.To {
				return p
			}
		}
		for _, p := range c.ended {
			if p.msg == e.To {
				return p
			}
		}
		return nil
	}
	if len(c.posts) == 1 {
		for _, p := range c.posts {
			return p
		}
	}
	return nil
}

// tap does what the button of e does, when its data is a key that the
// view made for the current version of a set's message.
func (c *Chat) tap(ctx context.Context, e Event) {
	id, ver, n, ok := c.parse(e.Data)
	if !ok {
		c.tell(ctx, e, lineUnknown)
		return
	}
	p := c.posts[id]
	if p == nil {
		i := slices.IndexFunc(c.ended, func(p *post) bool { return p.set.ID == id })
		if i < 0 {
			c.tell(ctx, e, "Not answered: these questions have already ended.")
			return
		}
		c.tell(ctx, e, "Not answered: these questions have already ended: "+c.ended[i].end)
		return
	}
	if ver != p.ver || n < 1 || n > len(p.acts) {
		c.tell(ctx, e, lineStale)
		return
	}
	c.do(ctx, e, p, p.acts[n-1])
}

// parse reads a button's data, "SET.VERSION.BUTTON.KEY", and reports
// whether its key is the one the view made for it.
func (c *Chat) parse(data string) (id, ver uint64, n int, ok bool) {
	parts := strings.Split(data, ".")
	if len(parts) != 4 {
		return 0, 0, 0, false
	}
	id, err1 := strconv.ParseUint(parts[0], 10, 64)
	ver, err2 := strconv.ParseUint(parts[1], 10, 64)
	n, err3 := strconv.Atoi(parts[2])
	if err := errors.Join(err1, err2, err3); err != nil || n < 1 {
		return 0, 0, 0, false
	}
	want := c.o.Links.ButtonKey(id, ver, n)
	return id, ver, n, hmac.Equal([]byte(parts[3]), []byte(want))
}

// do does a, a button of p's message that the person tapped.
func (c *Chat) do(ctx context.Context, e Event, p *post, a action) {
	s := p.set
	p.line = ""
	switch a.kind {
	case cancel:
		err := c.o.Queue.Cancel(s, inbox.ViaChat)
		c.ended1(ctx, e, p, err, "Cancelled.")
		return
	case send:
		c.answer(ctx, e, p)
		return
	case redo:
		p.at = 0
		p.answers = make([]prompt.Answer, len(s.Questions))
	case choose:
		q := s.Questions[p.at]
		p.answers[p.at].Labels = []string{q.Options[a.option].Label}
		p.answers[p.at].Other = ""
		if !c.next(ctx, e, p) {
			return
		}
	case toggle:
		q := s.Questions[p.at]
		label := q.Options[a.option].Label
		ans := &p.answers[p.at]
		if i := slices.Index(ans.Labels, label); i >= 0 {
			ans.Labels = slices.Delete(ans.Labels, i, i+1)
		} else {
			ans.Labels = append(ans.Labels, label)
		}
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
	c.answer(ctx, e, p)
	return false
}

// answer sends p's answers, checked by the queue as every view's are.
func (c *Chat) answer(ctx context.Context, e Event, p *post) {
	err := c.o.Queue.Answer(p.set, inbox.ViaChat, p.answers)
	c.ended1(ctx, e, p, err, "Answered.")
}

// ended1 tells e's sender how the answer or cancel of p went, and shows
// p ended when it did: the queue wakes the view too, but the person
// should not wait for it.
func (c *Chat) ended1(ctx context.Context, e Event, p *post, err error, line string) {
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
		c.tell(ctx, e, "")
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

// Settings are the chat that the inbox is answered in, as askuser's
// settings give them: which service, and the service's own.
type Settings struct {
	// Service is one of Services.
	Service  string
	Telegram TelegramOptions
	Matrix   MatrixOptions
	// People are the service's IDs of those who may answer: Telegram
	// user IDs, Matrix user IDs. None, for Telegram, is the person whose
	// own chat with the bot Telegram.Chat is.
	People []string
}

// Services are the chat services, by the names the settings give them.
var Services = []string{"telegram", "matrix"}

// Open returns the service that s names, the ID of its room, and those
// who may answer there; warn is told of what goes wrong while it runs,
// which it tries again.
func (s Settings) Open(warn func(error)) (Service, string, []string, error) {
	switch s.Service {
	case "telegram":
		o := s.Telegram
		o.Warn = warn
		t, err := NewTelegram(o)
		if err != nil {
			return nil, "", nil, err
		}
		people := s.People
		if len(people) == 0 {
			people = []string{t.Room()}
		}
		return t, t.Room(), people, nil
	case "matrix":
		o := s.Matrix
		o.Warn = warn
		m, err := NewMatrix(o)
		if err != nil {
			return nil, "", nil, err
		}
		return m, o.Room, s.People, nil
	}
	return nil, "", nil, fmt.Errorf("unknown chat service %q: use one of %s", s.Service, strings.Join(Services, ", "))
}
