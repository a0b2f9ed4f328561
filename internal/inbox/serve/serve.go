// Package serve runs askuser inbox: it makes the queue, serves it to the
// askers on each transport the options name, shows it in the view they
// choose until the person quits, the input ends or a signal comes, and
// then tells every asker still waiting. It is the one entry point of the
// inbox's serving side; the command line only turns its flags into
// Options.
package serve

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askuser/askuser/internal/history"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/chat"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/prompt/web/localhttp"
)

// Options are what an inbox needs, resolved from the command line and the
// environment.
type Options struct {
	// Addr is where askers reach the inbox: a Unix socket, a TCP address
	// or a NATS server.
	Addr inbox.Addr
	// Listen, when set, is where askers over TCP are also accepted.
	Listen *localhttp.Addr
	// Terminal shows the queue on the terminal screen rather than as
	// line prompts.
	Terminal bool
	// Web serves the queue on a web page too: on Listen when it is set,
	// else on this machine only, on a port the system picks. Open opens
	// the page in Browser ("" for the system's).
	Web, Open bool
	Browser   string
	// Headless is set for Web or Chat with stdin /dev/null or a socket (a
	// service, nohup, a container without a terminal, an agent's command):
	// the page and the chat are the only views, and the inbox serves until a signal, logging each
	// set that comes and goes.
	Headless bool
	// Schema is the embedded schema the questions are validated against.
	Schema []byte

	// IO are the inbox's standard streams: it reads stdin and draws on
	// stderr.
	IO    *iostreams.Streams
	Color bool
	// Notify is run when a set has waited NotifyAfter unanswered (0 for
	// at once: ASKUSER_NOTIFY_COMMAND), and again when it still waits
	// Remind after that (0 for never); NotifyEnd, when a set it ran for
	// ends (ASKUSER_NOTIFY_END_COMMAND).
	Notify, NotifyEnd   notify.Command
	NotifyAfter, Remind time.Duration
	// ReplyURL, when set, is the push service's reply topic
	// (ASKUSER_NOTIFY_REPLY_URL, an ntfy topic's address): the one-tap
	// buttons post their keys there, and the inbox reads it by connecting
	// out, so that a phone that cannot reach the inbox answers.
	ReplyURL string
	// Chat, when set, is the person's chat, where every set is posted
	// once it has waited NotifyAfter unanswered, as the notification
	// runs, and answered too.
	Chat *chat.Settings
	// History, when set, keeps the outcome of every set that ends, with
	// what HistoryKeep says.
	History     *history.File
	HistoryKeep history.Keep
	// Watch, when set, returns a ctx that ends with a signal, and is called
	// once the inbox serves.
	Watch func(ctx context.Context) (_ context.Context, stop func())
	// Ended, when set, makes err, the error the view ended with, the
	// inbox's, and says why it quit ("" when the person quit), for the
	// askers still waiting.
	Ended func(ctx context.Context, err error) (why string, _ error)
}

// Run serves the inbox and shows its queue until the person quits, the
// input ends or a signal comes; then every asker still waiting is told.
func Run(ctx context.Context, o Options) error {
	out := &lockedWriter{w: o.IO.ErrOut}
	home, _ := os.UserHomeDir()
	links := view.NewLinks()
	p := newPage(o, home, links)
	var after sync.WaitGroup
	n := newNotifier(o, out, p, links, &after)
	q, shown := newQueue(o, out, home, p, n)
	srv := inbox.NewServer(q, o.Schema)
	quit := "the person quit the inbox"
	defer func() {
		srv.Close(quit)
		// What follows the ends of the sets closed now: their history,
		// and the end command that takes back their notifications.
		settle(&after, afterGrace)
	}()

	var runChat func(context.Context) (stop func())
	if o.Chat != nil {
		var err error
		if runChat, err = openChat(o, q, n, links, home, out); err != nil {
			return err
		}
	}
	if err := listen(ctx, o, srv, p, out); err != nil {
		return err
	}
	if n.replies != nil {
		ctx, stop := context.WithCancel(ctx)
		defer stop()
		go n.replies.subscribe(ctx)
	}
	if o.Watch != nil {
		var stop func()
		ctx, stop = o.Watch(ctx)
		defer stop()
	}
	if runChat != nil {
		defer runChat(ctx)()
	}
	failed, err := showQueue(ctx, shown.Run, srv.Failed())
	if failed {
		quit = "the inbox failed"
	}
	if !failed && o.Ended != nil {
		var why string
		if why, err = o.Ended(ctx, err); why != "" {
			quit = why
		}
	}
	sayLeft(out, q.Len(), o.Addr.Durable())
	return err
}

// openChat opens the person's chat (o.Chat), to show q there once run: it
// is to be called before the queue takes sets. Each set is posted once n
// tells of it away from the desk, when it has waited o.NotifyAfter
// unanswered (at once for 0); a set that ends first never reaches the
// chat. run shows q until ctx ends or stop is called. A chat that fails
// is said, and the inbox goes on with its other views; a chat that
// cannot start, for its settings, fails the inbox before it listens.
func openChat(o Options, q *inbox.Queue, n *notifier, links *view.Links, home string, out io.Writer) (run func(context.Context) (stop func()), _ error) {
	var warned atomic.Bool
	warn := func(err error) {
		if !warned.Swap(true) {
			say(out, "Warning: the chat: %v. It is tried again; this is said once.\n", err)
		}
	}
	svc, room, people, err := o.Chat.Open(warn)
	if err != nil {
		return nil, err
	}
	c := chat.New(chat.Options{Queue: q, Service: svc, Room: room, People: people, Links: links,
		Private: o.Notify.Private, Home: home, Log: out})
	n.onAway(c.Away)
	return func(ctx context.Context) (stop func()) {
		ctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			if err := c.Run(ctx); ctx.Err() == nil {
				say(out, "Warning: the chat stopped: %v. The inbox goes on without it.\n", err)
			}
		}()
		return func() { cancel(); <-done }
	}, nil
}

// afterGrace is how long a quitting inbox waits for what follows the ends
// of its last sets: their history is written, and the end command started.
const afterGrace = 2 * time.Second

// settle waits for after, at most grace.
func settle(after *sync.WaitGroup, grace time.Duration) {
	done := make(chan struct{})
	go func() {
		after.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(grace):
	}
}

// newQueue makes the inbox's queue and the view that shows it: the log
// without a terminal, the terminal screen, or line prompts; p, the web
// page (nil for none), shows it too. Each set is told of by n, which with
// a reply topic is given the replies that answer from it, to read it; and
// kept in the history when it ends.
func newQueue(o Options, out *lockedWriter, home string, p *page, n *notifier) (*inbox.Queue, interface{ Run(context.Context) error }) {
	var log *view.Log
	q := inbox.NewQueue(inbox.QueueOptions{OnArrive: func(s *inbox.Set) {
		n.arrived(s)
		if log != nil {
			log.Arrived(s)
		}
	}})
	q.OnEnd(n.ended)
	if o.ReplyURL != "" {
		n.replies = newReplies(o.ReplyURL, q, n.links, out)
	}
	keepHistory(q, o, out, n.after)
	if p != nil {
		p.o.Queue = q
	}
	switch {
	case o.Headless:
		log = view.NewLog(q, out, home)
		return q, log
	case o.Terminal:
		term := view.NewTerminal(view.TerminalOptions{
			Queue: q, In: o.IO.InFile, Out: o.IO.ErrFile, Color: o.Color,
			Where: o.Addr.String(), Home: home,
		})
		// What else is said while the screen holds the terminal (a
		// notification command that failed) goes above the screen; what
		// is said before it runs (the addresses) goes to the terminal as
		// it is.
		out.w = term
		return q, term
	}
	return q, &view.Line{Queue: q, In: o.IO.In, Out: out, Terminal: o.IO.InTTY, Where: o.Addr.String(), Home: home}
}

// keepHistory appends each set that ends on q to o.History. A set closed
// with an inbox on NATS has not ended: it waits on the server for the next
// inbox, which keeps it. A history that cannot be written is said once,
// and the inbox goes on.
func keepHistory(q *inbox.Queue, o Options, out io.Writer, after *sync.WaitGroup) {
	if o.History == nil {
		return
	}
	var warned atomic.Bool
	q.OnEnd(func(s *inbox.Set) {
		if s.End().State == inbox.Closed && o.Addr.Durable() {
			return
		}
		r := recordOf(s, o.HistoryKeep)
		after.Go(func() {
			// An answer is kept once it is sent, or is known not to be:
			// one that waits to be stored has not reached its asker, and
			// may never.
			if ns := s.LastWord(); ns != nil {
				r.Reason = "not sent: " + ns.Err.Error()
			}
			if err := o.History.Append(r); err != nil && !warned.Swap(true) {
				say(out, "Warning: the history could not be written: %v. The inbox goes on; this is said once.\n", err)
			}
		})
	})
}

// recordOf makes the history's record of s, which has ended; its answers are
// in it only when keep is history.KeepAnswers.
func recordOf(s *inbox.Set, keep history.Keep) history.Record {
	e := s.End()
	r := history.Record{
		From: s.Source(), Asked: s.Arrived, Ended: e.At,
		Outcome: e.State.String(), Via: e.Via.String(), Reason: e.Reason,
		Waited: max(e.At.Sub(s.Arrived), 0).Round(time.Millisecond).Seconds(),
	}
	for i, q := range s.Questions {
		r.Questions = append(r.Questions, q.Header)
		if keep == history.KeepAnswers && i < len(e.Answers) {
			a := e.Answers[i]
			r.Answers = append(r.Answers, history.Answer{Header: q.Header, Question: q.Question, Answer: a.String(), Note: a.Note})
		}
	}
	return r
}

// showQueue runs a view of the inbox until it returns, or the inbox
// fails (failed is then set): the view is then stopped and waited for,
// so that the terminal is given back before the error is reported.
func showQueue(ctx context.Context, run func(context.Context) error, failures <-chan error) (failed bool, err error) {
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	var viewErr error
	shown := make(chan struct{})
	go func() {
		viewErr = run(ctx)
		close(shown)
	}()
	select {
	case <-shown:
		return false, viewErr
	case err = <-failures:
		// The view stops because it is told to: the failure is what to
		// report, not the view's own error.
		stop(err)
		<-shown
		return true, err
	}
}

// sayLeft tells the person, when the inbox quits, what becomes of the n
// sets still waiting: their askers are told, or, on NATS, they wait on
// the server for the next inbox.
func sayLeft(out io.Writer, n int, stored bool) {
	switch {
	case n == 0:
	case stored && n == 1:
		say(out, "The inbox quits: the set still waiting stays on the NATS server, for the next inbox.\n")
	case stored:
		say(out, "The inbox quits: the %d sets still waiting stay on the NATS server, for the next inbox.\n", n)
	case n == 1:
		say(out, "The inbox quits: the asker still waiting is told.\n")
	default:
		say(out, "The inbox quits: the %d askers still waiting are told.\n", n)
	}
}

// say tells the person at the inbox's terminal; a failed write there has
// nowhere else to go.
func say(out io.Writer, format string, args ...any) { _, _ = fmt.Fprintf(out, format, args...) }
