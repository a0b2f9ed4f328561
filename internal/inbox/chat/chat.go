// Package chat is the inbox's view in the person's chat app: it posts
// each set that waits to a chat service (Telegram, Matrix), by connecting
// out to it, and takes the person's answers there, from buttons and
// replies, through the same checks as every view. The view is chat.go,
// the messages it posts message.go, the answers it takes from them
// answer.go, and the service the settings open settings.go; each service
// is one file behind Service, and the view never knows which.
package chat

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/prompt"
)

// Service is one chat service, as the view uses it: a room (a chat) it
// posts to and edits in, and what people do there. An implementation is
// one file (telegram.go, matrix.go); it connects out and never listens.
type Service interface {
	// Listen connects to the service and tells got what people do in the
	// room (and wherever else the service lets them reach the bot or
	// account), in order, until ctx ends or the service fails for good.
	Listen(ctx context.Context, got func(Event)) error
	// Post posts m to the room and returns its ID.
	Post(ctx context.Context, m Message) (MessageID, error)
	// Edit makes the message id read as m, with m's buttons only (none
	// takes them all away).
	Edit(ctx context.Context, id MessageID, m Message) error
	// Tell tells whoever did e one line: the answer to a tap (a line the
	// chat app shows briefly, "" for none), else a reply to their message
	// (never "").
	Tell(ctx context.Context, e Event, line string) error
}

// MessageID names a message in the service's room.
type MessageID string

// Message is what the view posts: text, and buttons under it, a row each. A
// service that has no buttons (Matrix) lists them in the text, numbered,
// and gives the number a reply names (Event.Number), which the view takes
// as a tap on that button.
type Message struct {
	Text    string
	Buttons []Button
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
	// Data is the data of the button tapped; Text is what was written:
	// one of them is never "".
	Data, Text string
	// To is the view's message that was replied to; "" for a
	// message that replies to none.
	To MessageID
	// Ref is the service's own handle of the event, for Tell.
	Ref string
	// Number is the number that Text is, from a service without
	// buttons: it taps that button of the message replied to, when that
	// has one.
	Number int
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
	away   sync.Map         // the sets given to Away, by ID
	wake   chan struct{}    // Away's word to Run
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
	line string
	acts []action // what each button of the current version does
	end  string   // how the set ended, once it has
}

// New returns the chat view of o.Queue.
func New(o Options) *Chat {
	return &Chat{o: o, posts: map[uint64]*post{}, wake: make(chan struct{}, 1)}
}

// Away lets s, which waits, be posted: the inbox gives it once the set
// has waited unanswered as long as the notification waits
// (--notify-after), so that the person away from the desk is told, and
// the desk answers first. It returns at once, whenever it is called: the
// chat posts s apart, in Run.
func (c *Chat) Away(s *inbox.Set) {
	c.away.Store(s.ID, s)
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// forget forgets the sets given to Away that have ended.
func (c *Chat) forget() {
	for id, s := range c.away.Range {
		if s.(*inbox.Set).End().State != inbox.Waiting {
			c.away.Delete(id)
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
	go func() {
		failed <- c.o.Service.Listen(ctx, func(e Event) {
			select {
			case events <- e:
			case <-ctx.Done():
			}
		})
	}()
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

// sync posts the sets of snap not posted yet that are due (given to
// Away), oldest first,
// and shows as ended those posted that no longer wait. It reports whether
// every set due is posted: after a post that fails, the rest wait for the
// next time, so that a service that is down costs one call at a time.
func (c *Chat) sync(ctx context.Context, snap inbox.Snapshot) bool {
	defer c.forget()
	for _, p := range c.posts {
		if p.set.End().State != inbox.Waiting {
			c.finish(ctx, p)
		}
	}
	for _, s := range snap.Sets {
		// A set that ended since the snapshot is not posted.
		_, due := c.away.Load(s.ID)
		if c.posts[s.ID] != nil || s.End().State != inbox.Waiting || !due {
			continue
		}
		p := &post{set: s, answers: make([]prompt.Answer, len(s.Questions))}
		if c.update(ctx, p); p.msg == "" {
			return false
		}
		c.posts[s.ID] = p
	}
	return true
}

// update shows p's current version in place of the last, or posts it
// when it was not posted yet (it has no message ID then).
func (c *Chat) update(ctx context.Context, p *post) {
	m := c.render(p)
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	if p.msg != "" {
		if err := c.o.Service.Edit(ctx, p.msg, m); err != nil {
			c.warn("edit", err)
		}
		return
	}
	id, err := c.o.Service.Post(ctx, m)
	if err != nil {
		c.warn("post", err)
		return
	}
	p.msg = id
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
	c.update(ctx, p)
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
