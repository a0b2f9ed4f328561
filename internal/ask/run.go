package ask

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web/localhttp"
	"github.com/askuser/askuser/schema"
)

// Options are how to ask, resolved once from the flags and the
// environment, before anything is read.
type Options struct {
	Mode UI
	// ModeFrom says where Mode came from, for errors: "--ui tui" or
	// "ASKUSER_UI=tui"; "--ui tui" when empty.
	ModeFrom string
	TTY      bool          // ask on the controlling terminal
	Timeout  time.Duration // 0 for none
	Bell     bool
	// Plain has auto mode use line prompts on a terminal too (ACCESSIBLE,
	// TERM=dumb).
	Plain bool
	// Review has the terminal UI show every answer after the last of
	// several questions, before they are submitted.
	Review bool
	// Color turns on colours in the terminal UI (NO_COLOR, CLICOLOR).
	Color bool
	// Notify (ASKUSER_NOTIFY_COMMAND) is run when the questions are asked
	// where the person has to be told (not in the inbox, which runs its
	// own).
	Notify notify.Command
	Web    WebOptions
	Inbox  InboxOptions
}

// WebOptions are how the web page is served: on Listen, and opened in the
// browser (Browser, $BROWSER; "" for the system's) when Open is set.
type WebOptions struct {
	Listen  localhttp.Addr
	Open    bool
	Browser string
}

// InboxOptions are what asking in the inbox needs, resolved with the other
// options of the run.
type InboxOptions struct {
	Addr inbox.Addr
	// From names the asker in the inbox: --from, else ASKUSER_FROM; the
	// inbox shows Cwd when it is empty.
	From string
	// Cwd is the directory the questions are about, "" for the working
	// directory: askuser approve's is the agent's.
	Cwd    string
	Limits *schema.Limits
}

// runAsking does one run, the same way for every command that asks: it
// asks c's pending questions along the command line's route (see
// Place.commandLine), the first named to ASKUSER_NOTIFY_COMMAND, calls the
// person's attention when a way that draws here opens (the bell,
// ASKUSER_NOTIFY_COMMAND), lets the way that asked finish with every
// answer (see finish), releases what was opened, and has noAnswer name the
// question at which the answer input ended. It fills c with the answers.
func runAsking(ctx context.Context, streams *Streams, o Options, c *Prepared, noAnswer func(error) error) error {
	// Signals are watched from here on, before the terminal is touched, and
	// only in runs that ask: see Streams.WatchSignals.
	if streams.WatchSignals != nil {
		var stop func()
		ctx, stop = streams.WatchSignals(ctx)
		defer stop()
	}
	qs := c.Questions()
	route := NewPlace(streams, o, c.Rest).commandLine(o)
	var notice *notify.Run
	route.OnOpen = func(_ context.Context, name string, opened *Opened, after error) {
		if after != nil {
			// Only line prompts ask nobody on the command line.
			_, _ = fmt.Fprintf(streams.IO.ErrOut, "The answer input ended before the first answer: asking in the %s instead.\n", name)
		}
		if opened.out == nil {
			return
		}
		if o.Bell {
			// The bell only calls; a failed write leaves the question to be
			// seen.
			_, _ = io.WriteString(opened.out, "\a")
		}
		if notice == nil {
			notice = o.Notify.Start(notify.Notice{Event: notify.Asked, Header: qs[0].Header, Question: qs[0].Question})
		}
	}
	got, err := route.Ask(ctx, qs)
	var summary []prompt.Summary
	if err == nil {
		// The summary shows every answer, those given in advance too.
		c.Fill(got)
		summary = prompt.Summarize(c.input.Questions, c.answers)
	}
	// Before Close, which closes the terminal opened for --tty.
	err = finish(ctx, route.asked, err, summary)
	route.Close()
	if notice != nil {
		// Now that the prompts are off the screen.
		notice.Warn(streams.IO.ErrOut)
	}
	// Nobody's error names the question too, and keeps saying how the
	// person could be reached; nil passes through both as nil.
	person, _ := errors.AsType[*noPersonError](err)
	return person.explain(noAnswer(err))
}

// WatchSignals ends ctx with a *SignalError when the process receives
// SIGINT, SIGTERM or SIGHUP, until stop is called. SIGHUP stays caught
// after stop, and is then without effect. The command line gives it to
// its runs as Streams.WatchSignals (and to the inbox and askuser mcp); it
// lives beside runAsking, which starts it, so that a run reads in one file.
func WatchSignals(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case s := <-sigs:
			cancel(&SignalError{Sig: s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		// A hang-up sends its SIGHUP when the kernel gets to it, maybe
		// after the run it ended has been reported as one (see Ended).
		// Were SIGHUP's default restored, or SIGHUP ignored, when the run
		// is over, that late signal could kill askuser before it exits
		// with the code that says so: the runtime kills the process with
		// a signal it no longer wants even while the change is being made.
		// So it is never given back: from now on, it fills a channel that
		// nobody reads, caught there before sigs lets it go.
		signal.Notify(make(chan os.Signal, 1), syscall.SIGHUP)
		signal.Stop(sigs)
		cancel(nil)
	}
}

// RunQuestions does a run that asks qs, questions that come from
// no input document (confirm, input, an agent tool's approval or its own
// questions), and returns their answers: the first question's header names
// its kind for ASKUSER_NOTIFY_COMMAND, and an ended input is named by the
// question it ended at.
func RunQuestions(ctx context.Context, streams *Streams, o Options, qs ...schema.Question) ([]prompt.Answer, error) {
	// Every question is left to ask, and none has a note given in advance.
	// Where the answer input ended, the question is named by its text.
	c := &Prepared{Request: Request{Key: schema.KeyQuestion}, input: &schema.Input{Questions: qs}, answers: make([]prompt.Answer, len(qs))}
	for i := range qs {
		c.Pending = append(c.Pending, i)
	}
	err := runAsking(ctx, streams, o, c, func(err error) error {
		if _, short := errors.AsType[*prompt.ShortError](err); !short && errors.Is(err, prompt.ErrNoAnswer) {
			// An input that ended without saying where ended at the first.
			err = &prompt.ShortError{}
		}
		return c.noAnswer(err)
	})
	if err != nil {
		return nil, err
	}
	return c.answers, nil
}

// finish lets opened, the way that asked (nil when none did), finish when
// it has something to do at the end (see prompt.Finisher), and says how
// the run ended (see Ended).
func finish(ctx context.Context, opened *Opened, err error, summary []prompt.Summary) error {
	if opened == nil {
		return err
	}
	if f, ok := opened.Prompter.(prompt.Finisher); ok {
		err = f.Finish(ctx, err, summary)
	}
	return Ended(ctx, err, opened.terminals)
}
