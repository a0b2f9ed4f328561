package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	core "github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
	inboxask "github.com/askuser/askuser/prompt/inbox"
	"github.com/askuser/askuser/schema"
)

// uiInbox asks in the inbox (askuser inbox). Auto picks it where no person
// could answer at stdin and an inbox answers.
const uiInbox uiMode = "inbox"

// uiMode reads --ui when it was given, else ASKUSER_UI, else auto.
func (f *askFlags) uiMode(cmd *cobra.Command, env *Env) (uiMode, error) {
	if cmd.Flags().Changed("ui") {
		return parseUI(f.ui)
	}
	return envUI(env)
}

// envUI reads ASKUSER_UI, the default of --ui for every command: auto when
// it is not set.
func envUI(env *Env) (uiMode, error) {
	v := strings.TrimSpace(env.Getenv("ASKUSER_UI"))
	if v == "" {
		return uiAuto, nil
	}
	m, err := parseUI(v)
	if err != nil {
		return "", usageErrorf("invalid ASKUSER_UI %q: must be auto, tui, line, web or inbox", v)
	}
	return m, nil
}

// inboxOptions are what asking in the inbox needs, resolved with the other
// session options.
type inboxOptions struct {
	addr core.Addr
	// from names the asker in the inbox: --from, else ASKUSER_FROM; the
	// inbox shows the working directory when it is empty.
	from   string
	limits *core.Limits
}

// resolveInbox reads where the inbox is, for --ui inbox and auto, which may
// ask there. A bad ASKUSER_INBOX is a usage error, reported before
// anything is read.
func (f *askFlags) resolveInbox(cmd *cobra.Command, env *Env, mode uiMode) (inboxOptions, error) {
	if mode == uiInbox && f.tty {
		return inboxOptions{}, usageErrorf("--tty does not go with --ui inbox: the questions are answered in the inbox, not on this terminal")
	}
	if mode != uiInbox && mode != uiAuto {
		return inboxOptions{}, nil
	}
	a, err := core.AddrFromEnv(env.Getenv)
	if err != nil {
		return inboxOptions{}, inboxAddrError(err)
	}
	o := inboxOptions{addr: a, from: f.from, limits: limitsFromEnv(env.Getenv)}
	if !cmd.Flags().Changed("from") {
		o.from = env.Getenv("ASKUSER_FROM")
	}
	o.from = strings.TrimSpace(o.from)
	return o, nil
}

// inboxAddrError is the error of an ASKUSER_INBOX that is not an address:
// a usage error, except for an inbox on NATS, whose every failure makes it
// unavailable.
func inboxAddrError(err error) error {
	var natsErr *core.NATSAddrError
	if errors.As(err, &natsErr) {
		return &prompt.UnavailableError{Err: err}
	}
	return &usageError{msg: err.Error()}
}

// unavailableInbox is the error of an inbox that does not answer: a server
// of NATS says what is wrong and what to do; else, the person is to start
// one.
func unavailableInbox(err error) error {
	var server *core.ServerError
	if errors.As(err, &server) {
		return &prompt.UnavailableError{Err: server}
	}
	return &prompt.UnavailableError{Err: fmt.Errorf("%w: start one with 'askuser inbox' in a terminal the person sees", err)}
}

// limitsFromEnv are the limits the questions were validated with, for the
// inbox to validate them alike; nil for the schema's own. The variables
// have been checked when the schema was compiled.
func limitsFromEnv(getenv func(string) string) *core.Limits {
	n := func(name string) int {
		v, _ := strconv.Atoi(strings.TrimSpace(getenv(name)))
		return v
	}
	l := core.Limits{
		MaxQuestions:      n("ASK_MAX_QUESTIONS"),
		MaxOptions:        n("ASK_MAX_OPTIONS"),
		HeaderMaxLength:   n("ASK_HEADER_MAX_LENGTH"),
		QuestionMaxLength: n("ASK_QUESTION_MAX_LENGTH"),
	}
	if l == (core.Limits{}) {
		return nil
	}
	return &l
}

// newInboxAsker returns the asker that asks in the inbox of o.
func newInboxAsker(env *Env, o sessionOptions) *inboxask.Asker {
	cwd, _ := os.Getwd()
	return inboxask.New(inboxask.Options{
		Client: core.Dial(o.inbox.addr),
		From:   o.inbox.from,
		Cwd:    cwd,
		PID:    os.Getpid(),
		Limits: o.inbox.limits,
		Key:    o.key,
		Out:    env.IO.ErrOut,
	})
}

// probeInbox reports whether an inbox answers at o's address.
func probeInbox(o sessionOptions) error {
	_, err := core.Dial(o.inbox.addr).Probe(context.Background())
	return err
}

// routeInbox decides, before anything is drawn, whether the questions go
// to the inbox, and returns the asker when they do (nil when they do not).
// With --ui inbox they do, and an inbox that does not answer is exit 69.
// In auto mode (without --tty) they do when an inbox answers and no person
// could answer at stdin: stdin gives nothing (/dev/null, which a closed
// stdin also is, or a socket that did not bring the questions: agent SDKs
// hand their children an open, silent one), or stdin is a terminal but
// stderr is not, so that nobody would see the prompts. With no inbox, the
// first case has nobody to ask (exit 66, and the error says how to reach
// the person); the second is asked on the terminal, as ever. A stdin that
// ends before the first answer is found out later: see fallbackAsker.
func routeInbox(env *Env, o sessionOptions, rest io.Reader) (*asker, error) {
	switch {
	case o.mode == uiInbox:
		if err := probeInbox(o); err != nil {
			return nil, unavailableInbox(err)
		}
		return &asker{fullAsker: newInboxAsker(env, o), out: env.IO.ErrOut, inbox: true}, nil
	case o.mode != uiAuto || o.tty:
		return nil, nil
	}
	kind := stdinKind(env.IO.InFile, env.IO.InTTY)
	silent := rest == nil && (kind == "/dev/null" || kind == "a socket")
	unseen := env.IO.InTTY && !env.IO.ErrTTY
	if !silent && !unseen {
		return nil, nil
	}
	err := probeInbox(o)
	if err == nil {
		return &asker{fullAsker: newInboxAsker(env, o), out: env.IO.ErrOut, inbox: true}, nil
	}
	var server *core.ServerError
	if silent && errors.As(err, &server) {
		// The person chose an inbox on NATS: what keeps it from being
		// used is theirs to fix, not a reason to give up on asking.
		return nil, &prompt.UnavailableError{Err: server}
	}
	if !silent {
		return nil, nil
	}
	a := &asker{fullAsker: nobody{}, out: env.IO.ErrOut}
	a.nobody = &noPersonError{stdin: kind, silent: kind == "a socket", addr: o.inbox.addr}
	return a, nil
}

// stdinKind names what stdin is, where that tells that nobody can answer
// on it: "/dev/null", "a socket"; else "".
func stdinKind(f *os.File, tty bool) string {
	if f == nil || tty {
		return ""
	}
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	switch {
	case fi.Mode()&os.ModeSocket != 0:
		return "a socket"
	case fi.Mode()&os.ModeCharDevice != 0:
		if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(fi, null) {
			return "/dev/null"
		}
	}
	return ""
}

// nobody is the asker where nobody can answer: every question is left
// unanswered, as at the end of the answer input.
type nobody struct{}

func (nobody) Ask(context.Context, []schema.Question) ([]prompt.Answer, error) {
	return nil, &prompt.ShortError{Answered: 0}
}

func (nobody) Confirm(context.Context, string, bool) (bool, error) {
	return false, prompt.ErrNoAnswer
}

func (nobody) Input(context.Context, string, string, string) (string, error) {
	return "", prompt.ErrNoAnswer
}

// fallbackAsker asks with line prompts and, when the answer input ends
// before the first answer (a pipe or a file with nothing in it: an agent
// that piped the questions and nothing more), asks the same questions in
// the inbox, when one answers. When none does, the no-answer error says how
// the person could be reached.
type fallbackAsker struct {
	fullAsker
	read  *countingReader
	owner *asker
	env   *Env
	o     sessionOptions
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// inbox returns the inbox asker to ask again with, when err says that the
// answer input gave nothing at all and an inbox answers.
func (f *fallbackAsker) inbox(err error) (fullAsker, bool) {
	if !errors.Is(err, prompt.ErrNoAnswer) || f.read.n > 0 {
		return nil, false
	}
	if probeInbox(f.o) != nil {
		f.owner.nobody = &noPersonError{stdin: "it ended before the first answer", addr: f.o.inbox.addr}
		return nil, false
	}
	_, _ = fmt.Fprintln(f.env.IO.ErrOut, "The answer input ended before the first answer: asking in the inbox instead.")
	return newInboxAsker(f.env, f.o), true
}

func (f *fallbackAsker) Ask(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
	answers, err := f.fullAsker.Ask(ctx, qs)
	if in, ok := f.inbox(err); ok {
		return in.Ask(ctx, qs)
	}
	return answers, err
}

func (f *fallbackAsker) Confirm(ctx context.Context, message string, def bool) (bool, error) {
	yes, err := f.fullAsker.Confirm(ctx, message, def)
	if in, ok := f.inbox(err); ok {
		return in.Confirm(ctx, message, def)
	}
	return yes, err
}

func (f *fallbackAsker) Input(ctx context.Context, message, placeholder, def string) (string, error) {
	text, err := f.fullAsker.Input(ctx, message, placeholder, def)
	if in, ok := f.inbox(err); ok {
		return in.Input(ctx, message, placeholder, def)
	}
	return text, err
}

// withFallback returns the line asker that newLine makes on in, with the
// inbox to fall back on, in auto mode, when an input that is not a terminal
// gives nothing at all.
func withFallback(env *Env, o sessionOptions, a *asker, in side, newLine func(io.Reader) fullAsker) fullAsker {
	if o.mode != uiAuto || o.tty || in.tty {
		return newLine(in.r)
	}
	c := &countingReader{r: in.r}
	return &fallbackAsker{fullAsker: newLine(c), read: c, owner: a, env: env, o: o}
}

// noPersonError is no answer where nobody could give one: stdin gave
// nothing, and no inbox answers. Its report says how to reach the person.
type noPersonError struct {
	err    error  // the no-answer error, naming the question
	stdin  string // what stdin is, or what it did
	silent bool   // stdin never ended: it only never spoke
	addr   core.Addr
}

func (e *noPersonError) Error() string { return e.err.Error() }

func (e *noPersonError) Unwrap() error { return e.err }

// explain makes err, when it is no answer, a *noPersonError that says how
// to reach the person. e may be nil: err is then returned as it is.
func (e *noPersonError) explain(err error) error {
	if e == nil || !errors.Is(err, prompt.ErrNoAnswer) {
		return err
	}
	return &noPersonError{err: err, stdin: e.stdin, silent: e.silent, addr: e.addr}
}

// report is the message of exit 66 for e.
func (e *noPersonError) report() string {
	const hint = "To reach the person, have them run 'askuser inbox' in a terminal and ask again, or use --ui web --open.\n"
	if e.silent {
		return fmt.Sprintf("Error: No answer: nobody can answer on stdin (%s), and no inbox answers at %s\n%s", e.stdin, e.addr, hint)
	}
	return fmt.Sprintf("Error: No answer: %s\nNobody can answer on stdin (%s), and no inbox answers at %s.\n%s", e.err, e.stdin, e.addr, hint)
}
