package cmd

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web"
	"github.com/askuser/askuser/schema"
)

// askFlags are the flags of every command that asks, as cobra sets them:
// how, where, for how long, and how to get the person's attention.
type askFlags struct {
	ui      string
	tty     bool
	timeout time.Duration
	bell    bool
	// listen and open serve --ui web.
	listen string
	open   bool
	from   string // names the asker in the inbox
}

func (f *askFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.ui, "ui", "", "how to ask: `auto`, tui (terminal UI), line (numbered prompts), web (a local web page) or inbox (askuser inbox) (default $ASKUSER_UI, else auto)")
	fs.BoolVar(&f.tty, "tty", false, "ask on the controlling terminal even when stdin is a pipe")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up after `DURATION` (e.g. 5m) without an answer: exit 124 (default $ASKUSER_TIMEOUT, else none)")
	fs.BoolVar(&f.bell, "bell", false, "ring the terminal bell when the first question appears")
	fs.StringVar(&f.listen, "listen", "", "with --ui web, serve the page on `ADDR` (HOST:PORT; default 127.0.0.1 on a random port)")
	fs.BoolVar(&f.open, "open", false, "with --ui web, open the page in the default browser ($BROWSER, else the system's)")
	fs.StringVar(&f.from, "from", "", "in the inbox, say the questions come from `NAME` (default $ASKUSER_FROM, else the working directory)")
	_ = cmd.RegisterFlagCompletionFunc("ui", fixedCompletions("auto", "tui", "line", "web", "inbox"))
	_ = cmd.RegisterFlagCompletionFunc("listen", fixedCompletions("127.0.0.1:0", "localhost:8080"))
}

// sessionOptions are how to ask, resolved once from the flags and the
// environment, before anything is read.
type sessionOptions struct {
	mode    uiMode
	tty     bool          // ask on the controlling terminal
	timeout time.Duration // 0 for none
	bell    bool
	// plain has auto mode use line prompts on a terminal too: see
	// accessible.
	plain bool
	// review has the terminal UI show every answer after the last of
	// several questions, before they are submitted.
	review bool
	// listen is where --ui web serves the page; open opens it.
	listen web.Addr
	open   bool
	inbox  inboxOptions
	key    schema.KeyBy // how the answers are keyed, for the inbox's checks
}

// resolve reads --ui and checks the flags that go with it, then the
// timeout.
func (f *askFlags) resolve(cmd *cobra.Command, env *Env) (sessionOptions, error) {
	mode, err := f.uiMode(cmd, env)
	if err != nil {
		return sessionOptions{}, err
	}
	o := sessionOptions{mode: mode, tty: f.tty, bell: f.bell, open: f.open}
	if o.listen, err = checkWebFlags(mode, f, cmd.Flags().Changed("listen")); err != nil {
		return sessionOptions{}, err
	}
	if o.plain, err = accessible(env.Getenv); err != nil {
		return sessionOptions{}, err
	}
	if o.inbox, err = f.resolveInbox(cmd, env, mode); err != nil {
		return sessionOptions{}, err
	}
	if o.timeout, err = timeoutOption(f.timeout, cmd.Flags().Changed("timeout"), env); err != nil {
		return sessionOptions{}, err
	}
	return o, nil
}

// timeoutOption is --timeout (flag) when it is given (set), else
// $ASKUSER_TIMEOUT, else none.
func timeoutOption(flag time.Duration, set bool, env *Env) (time.Duration, error) {
	if set {
		if flag < 0 {
			return 0, ask.UsageErrorf("invalid --timeout %s: must not be negative", flag)
		}
		return flag, nil
	}
	v := strings.TrimSpace(env.Getenv("ASKUSER_TIMEOUT"))
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, ask.UsageErrorf("invalid ASKUSER_TIMEOUT %q: must be a duration such as 30s or 5m", v)
	}
	return d, nil
}

// conversation is what one command asks in a session.
type conversation struct {
	// first is the first question asked, for ASKUSER_NOTIFY_COMMAND.
	first schema.Question
	// rest is what followed the questions on stdin: the answers. It is
	// nil when the questions came from elsewhere.
	rest io.Reader
	// ask asks through a and returns what the summary shows.
	ask func(ctx context.Context, a prompt.Asker) ([]prompt.Summary, error)
	// noAnswer, when set, names the question at which the answer input
	// ended, from the error that says it did.
	noAnswer func(error) error
}

// session is one conversation with the person: the asker chosen, and the
// context that ends it.
type session struct {
	*asker
	ctx    context.Context
	cancel context.CancelFunc
	notify *notify.Run
}

// converse runs one session, the same way for every command that asks: it
// opens the asker and arms the timeout (start), asks, lets the asker finish
// (finish), releases what was opened (end), and has the command name the
// question at which the answer input ended.
func converse(ctx context.Context, env *Env, o sessionOptions, c conversation) error {
	s, err := start(ctx, env, o, c)
	if err != nil {
		return err
	}
	summary, err := c.ask(s.ctx, s.Asker)
	// Before end, which closes the terminal opened for --tty.
	err = s.finish(err, summary)
	s.end(env.IO.ErrOut)
	if err != nil && c.noAnswer != nil {
		err = c.noAnswer(err)
	}
	return s.nobody.Explain(err)
}

// converseOne runs a session that asks q, the one question of confirm or
// input, and returns its answer: q's header names its kind for
// ASKUSER_NOTIFY_COMMAND, and an ended input is named by its question.
func converseOne(ctx context.Context, env *Env, o sessionOptions, q schema.Question) (prompt.Answer, error) {
	var answer prompt.Answer
	err := converse(ctx, env, o, conversation{
		first: q,
		ask: func(ctx context.Context, a prompt.Asker) ([]prompt.Summary, error) {
			got, err := a.Ask(ctx, []schema.Question{q})
			if err != nil {
				return nil, err
			}
			answer = got[0]
			return []prompt.Summary{{Asked: q.Question, Answer: answer.String()}}, nil
		},
		noAnswer: func(err error) error {
			if errors.Is(err, prompt.ErrNoAnswer) {
				return &ask.NoAnswerError{Index: 1, Total: 1, Key: q.Question}
			}
			return err
		},
	})
	return answer, err
}

// start opens the asker, arms the timeout, rings the bell and starts the
// notification command.
func start(ctx context.Context, env *Env, o sessionOptions, c conversation) (*session, error) {
	// Signals are watched from here on, before the terminal is touched, and
	// only in runs that ask: see Env.WatchSignals.
	stop := func() {}
	if env.WatchSignals != nil {
		ctx, stop = env.WatchSignals(ctx)
	}
	a, err := newAsker(env, o, c.rest)
	if err != nil {
		stop()
		return nil, err
	}
	s := &session{asker: a, ctx: ctx, cancel: stop}
	if o.timeout > 0 {
		var cancel context.CancelFunc
		s.ctx, cancel = context.WithTimeoutCause(ctx, o.timeout, &ask.TimeoutError{After: o.timeout})
		s.cancel = func() { cancel(); stop() }
	}
	if o.bell && !a.inbox {
		// The bell only calls; a failed write leaves the question to be
		// seen.
		_, _ = io.WriteString(a.out, "\a")
	}
	if cmd := env.Getenv("ASKUSER_NOTIFY_COMMAND"); cmd != "" && !a.inbox {
		s.notify = startNotification(cmd, c.first)
	}
	return s, nil
}

// finish lets an asker that has something to do at the end do it (see
// prompt.Finisher), and prefers the reason the session's context ended
// over the error the asker saw: a timeout or a signal, rather than the end
// of input that a hang-up also causes. A terminal that hung up is a
// hang-up, whether its signal has come yet or not (see ask.HungUp).
func (s *session) finish(err error, summary []prompt.Summary) error {
	if f, ok := s.Asker.(prompt.Finisher); ok {
		err = f.Finish(s.ctx, err, summary)
	}
	if ask.HungUp(s.ctx, err, s.terminals) {
		return ask.Hangup
	}
	if err != nil && s.ctx.Err() != nil {
		return context.Cause(s.ctx)
	}
	return err
}

// end releases what the session opened and reports a failed notification
// command, now that the prompts are off the screen.
func (s *session) end(errOut io.Writer) {
	s.cancel()
	s.close()
	if s.notify != nil {
		s.notify.Warn(errOut)
	}
}

// startNotification runs ASKUSER_NOTIFY_COMMAND with the first question in
// its environment.
func startNotification(command string, q schema.Question) *notify.Run {
	return notify.Start(command, "ASKUSER_HEADER="+q.Header, "ASKUSER_QUESTION="+q.Question)
}
