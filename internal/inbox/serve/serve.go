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

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/localhttp"
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
	// Headless is set for Web with stdin /dev/null or a socket (a service,
	// nohup, a container without a terminal, an agent's command): the page
	// is the only view, and the inbox serves until a signal, logging each
	// set that comes and goes.
	Headless bool
	// Schema is the embedded schema the questions are validated against.
	Schema []byte

	// IO are the inbox's standard streams: it reads stdin and draws on
	// stderr.
	IO            *iostreams.Streams
	Color         bool
	NotifyCommand string // ASKUSER_NOTIFY_COMMAND
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
	p := newPage(o, home)
	q, shown := newQueue(o, out, home, p)
	srv := inbox.NewServer(q, o.Schema)
	quit := "the person quit the inbox"
	defer func() { srv.Close(quit) }()

	if err := listen(ctx, o, srv, p, out); err != nil {
		return err
	}
	if o.Watch != nil {
		var stop func()
		ctx, stop = o.Watch(ctx)
		defer stop()
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

// newQueue makes the inbox's queue and the view that shows it: the log
// without a terminal, the terminal screen, or line prompts; p, the web
// page (nil for none), shows it too.
func newQueue(o Options, out *lockedWriter, home string, p *page) (*inbox.Queue, interface{ Run(context.Context) error }) {
	var log *view.Log
	arrived := arrival(o, out, p)
	q := inbox.NewQueue(inbox.QueueOptions{OnArrive: func(s *inbox.Set) {
		arrived(s)
		if log != nil {
			log.Arrived(s)
		}
	}})
	if p != nil {
		p.queue = q
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

// showQueue runs a view of the inbox until it returns, or the inbox
// fails (failed is then set): the view is then stopped and waited for,
// so that the terminal is given back before the error is reported.
func showQueue(ctx context.Context, run func(context.Context) error, failures <-chan error) (failed bool, err error) {
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	var shownErr error
	shown := make(chan struct{})
	go func() {
		defer close(shown)
		shownErr = run(ctx)
	}()
	select {
	case <-shown:
		return false, shownErr
	case err = <-failures:
		// The view stops because it is told to: the failure is what to
		// report.
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
