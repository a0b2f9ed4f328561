package ask

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/localhttp"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Options are how to ask, resolved once from the flags and the
// environment, before anything is read.
type Options struct {
	Mode    UI
	TTY     bool          // ask on the controlling terminal
	Timeout time.Duration // 0 for none
	Bell    bool
	// plain has auto mode use line prompts on a terminal too: see
	// accessible.
	Plain bool
	// review has the terminal UI show every answer after the last of
	// several questions, before they are submitted.
	Review bool
	// listen is where --ui web serves the page; open opens it.
	Listen localhttp.Addr
	Open   bool
	Inbox  InboxOptions
}

// InboxOptions are what asking in the inbox needs, resolved with the other
// session options.
type InboxOptions struct {
	Addr inbox.Addr
	// from names the asker in the inbox: --from, else ASKUSER_FROM; the
	// inbox shows the working directory when it is empty.
	From   string
	Limits *schema.Limits
}

// Conversation is what one command asks in a session.
type Conversation struct {
	// First is the first question asked, for ASKUSER_NOTIFY_COMMAND.
	First schema.Question
	// Rest is what followed the questions on stdin: the answers. It is
	// nil when the questions came from elsewhere.
	Rest io.Reader
	// Ask asks through a and returns what the summary shows.
	Ask func(ctx context.Context, a prompt.Asker) ([]prompt.Summary, error)
	// NoAnswer, when set, names the question at which the answer input
	// ended, from the error that says it did.
	NoAnswer func(error) error
}

// session is one Conversation with the person: the asker chosen, and the
// context that ends it.
type session struct {
	*asker
	ctx    context.Context
	cancel context.CancelFunc
	notify *notify.Run
}

// Converse runs one session, the same way for every command that asks: it
// opens the asker and arms the timeout (start), asks, lets the asker finish
// (finish), releases what was opened (end), and has the command name the
// question at which the answer input ended.
func Converse(ctx context.Context, env *Env, o Options, c Conversation) error {
	s, err := start(ctx, env, o, c)
	if err != nil {
		return err
	}
	summary, err := c.Ask(s.ctx, s.Asker)
	// Before end, which closes the terminal opened for --tty.
	err = s.finish(err, summary)
	s.end(env.IO.ErrOut)
	if err != nil && c.NoAnswer != nil {
		err = c.NoAnswer(err)
	}
	return s.nobody.Explain(err)
}

// ConverseOne runs a session that asks q, the one question of confirm or
// input, and returns its answer: q's header names its kind for
// ASKUSER_NOTIFY_COMMAND, and an ended input is named by its question.
func ConverseOne(ctx context.Context, env *Env, o Options, q schema.Question) (prompt.Answer, error) {
	var answer prompt.Answer
	err := Converse(ctx, env, o, Conversation{
		First: q,
		Ask: func(ctx context.Context, a prompt.Asker) ([]prompt.Summary, error) {
			got, err := a.Ask(ctx, []schema.Question{q})
			if err != nil {
				return nil, err
			}
			answer = got[0]
			return []prompt.Summary{{Asked: q.Question, Answer: answer.String()}}, nil
		},
		NoAnswer: func(err error) error {
			if errors.Is(err, prompt.ErrNoAnswer) {
				return &NoAnswerError{Index: 1, Total: 1, Key: q.Question}
			}
			return err
		},
	})
	return answer, err
}

// start opens the asker, arms the timeout, rings the bell and starts the
// notification command.
func start(ctx context.Context, env *Env, o Options, c Conversation) (*session, error) {
	// Signals are watched from here on, before the terminal is touched, and
	// only in runs that ask: see Env.WatchSignals.
	stop := func() {}
	if env.WatchSignals != nil {
		ctx, stop = env.WatchSignals(ctx)
	}
	a, err := newAsker(env, o, c.Rest)
	if err != nil {
		stop()
		return nil, err
	}
	s := &session{asker: a, ctx: ctx, cancel: stop}
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		s.ctx, cancel = context.WithTimeoutCause(ctx, o.Timeout, &TimeoutError{After: o.Timeout})
		s.cancel = func() { cancel(); stop() }
	}
	if o.Bell && !a.inbox {
		// The bell only calls; a failed write leaves the question to be
		// seen.
		_, _ = io.WriteString(a.out, "\a")
	}
	if cmd := env.Getenv("ASKUSER_NOTIFY_COMMAND"); cmd != "" && !a.inbox {
		s.notify = startNotification(cmd, c.First)
	}
	return s, nil
}

// finish lets an asker that has something to do at the end do it (see
// prompt.Finisher), and prefers the reason the session's context ended
// over the error the asker saw: a timeout or a signal, rather than the end
// of input that a hang-up also causes. A terminal that hung up is a
// hang-up, whether its signal has come yet or not (see HungUp).
func (s *session) finish(err error, summary []prompt.Summary) error {
	if f, ok := s.Asker.(prompt.Finisher); ok {
		err = f.Finish(s.ctx, err, summary)
	}
	if HungUp(s.ctx, err, s.terminals) {
		return Hangup
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
	s.Close()
	if s.notify != nil {
		s.notify.Warn(errOut)
	}
}

// startNotification runs ASKUSER_NOTIFY_COMMAND with the first question in
// its environment.
func startNotification(command string, q schema.Question) *notify.Run {
	return notify.Start(command, "ASKUSER_HEADER="+q.Header, "ASKUSER_QUESTION="+q.Question)
}

// MaxFrom is how long the name of where a set comes from may be, in
// characters, in the inbox.
const MaxFrom = 200

// CutFrom is --from or ASKUSER_FROM as the inbox takes it: a longer name is
// cut to MaxFrom characters, its end marked with "…". The inbox refuses a
// longer one, and a name too long is no reason to leave questions unasked.
func CutFrom(from string) string {
	from = strings.TrimSpace(from)
	if r := []rune(from); len(r) > MaxFrom {
		return strings.TrimRight(string(r[:MaxFrom-1]), " ") + "…"
	}
	return from
}
