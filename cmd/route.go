package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"

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
	addr inbox.Addr
	// from names the asker in the inbox: --from, else ASKUSER_FROM; the
	// inbox shows the working directory when it is empty.
	from   string
	limits *schema.Limits
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
	a, err := inbox.AddrFromEnv(env.Getenv)
	if err != nil {
		return inboxOptions{}, inboxAddrError(err)
	}
	o := inboxOptions{addr: a, from: f.from, limits: limitsFromEnv(env.Getenv)}
	if !cmd.Flags().Changed("from") {
		o.from = env.Getenv("ASKUSER_FROM")
	}
	o.from = cutFrom(o.from)
	return o, nil
}

// inboxAddrError is the error of an ASKUSER_INBOX that is not an address:
// a usage error, except for an inbox on NATS, whose every failure makes it
// unavailable.
func inboxAddrError(err error) error {
	var natsErr *inbox.NATSAddrError
	if errors.As(err, &natsErr) {
		return &prompt.UnavailableError{Err: err}
	}
	return &usageError{msg: err.Error()}
}

// limitsFromEnv are the limits the questions were validated with, for the
// inbox to validate them alike; nil for the schema's own. The variables
// have been checked when the schema was compiled.
func limitsFromEnv(getenv func(string) string) *schema.Limits {
	l, err := schema.LimitsFromEnv(getenv)
	if err != nil || l == (schema.Limits{}) {
		return nil
	}
	return &l
}

// newInboxAsker returns the asker that asks in the inbox of o.
func newInboxAsker(env *Env, o sessionOptions) *inbox.Asker {
	cwd, _ := os.Getwd()
	return inbox.NewAsker(inbox.AskerOptions{
		Client: inbox.Dial(o.inbox.addr),
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
	_, err := inbox.Dial(o.inbox.addr).Probe(context.Background())
	return err
}

// routed is where auto mode sends the questions, decided before anything
// is drawn.
type routed struct {
	// asker asks in the inbox, or is nobody; nil to ask here.
	asker *asker
	// answers, when set, is where line prompts read the answers: stdin,
	// or what followed the questions on it, with what was read to see
	// whether it had ended.
	answers io.Reader
	// terminal has the questions asked on the terminal that stdin is
	// (/dev/tty), since stderr, where they would be drawn, is captured.
	terminal bool
}

// routeInbox decides, before anything is drawn, whether the questions go
// to the inbox, to nobody, or to the terminal that stdin is.
// With --ui inbox they go to the inbox, and an inbox that does not answer
// is exit 69. In auto mode (without --tty) they go there when an inbox
// answers and no person could answer at stdin: stdin gives nothing
// (/dev/null, which a closed stdin also is, or a socket that did not bring
// the questions: agent SDKs hand their children an open, silent one; or a
// file or pipe that has already ended), or stdin is a terminal but stderr
// is not, so that nobody would see the prompts. With no inbox, the first
// case has nobody to ask (exit 66, and the error says how to reach the
// person), without a prompt drawn for nobody; the second is asked on the
// terminal, when askuser runs in its foreground, and is otherwise the
// first. A stdin that ends later, before the first answer, is found out
// later: see fallbackAsker.
func routeInbox(env *Env, o sessionOptions, rest io.Reader) (routed, error) {
	switch {
	case o.mode == uiInbox:
		if err := probeInbox(o); err != nil {
			return routed{}, &prompt.UnavailableError{Err: inbox.WithHint(err)}
		}
		return routed{asker: &asker{fullAsker: newInboxAsker(env, o), out: env.IO.ErrOut, inbox: true}}, nil
	case o.mode != uiAuto || o.tty:
		return routed{}, nil
	}
	var rt routed
	why := noPerson(env, rest, &rt)
	unseen := env.IO.InTTY && !env.IO.ErrTTY
	if why == nil && !unseen {
		return rt, nil
	}
	probe := probeInbox(o)
	if probe == nil {
		return routed{asker: &asker{fullAsker: newInboxAsker(env, o), out: env.IO.ErrOut, inbox: true}}, nil
	}
	var server *inbox.ServerError
	if why != nil && errors.As(probe, &server) {
		// The person chose an inbox on NATS: what keeps it from being
		// used is theirs to fix, not a reason to give up on asking.
		return routed{}, &prompt.UnavailableError{Err: server}
	}
	if unseen {
		if inForeground(env.IO.InFile) {
			return routed{terminal: true}, nil
		}
		why = &noPersonError{stdin: "a terminal, in whose foreground askuser does not run", silent: true}
	}
	why.addr, why.probe = o.inbox.addr, probe
	a := &asker{fullAsker: nobody{}, out: env.IO.ErrOut, nobody: why}
	return routed{asker: a}, nil
}

// endGrace is how long a stdin that is not a terminal is given to show
// whether it has ended, before the line prompts are drawn: a file answers
// at once, and a pipe whose writer is done closes within it.
const endGrace = 100 * time.Millisecond

// noPerson says why nobody could answer on stdin, which is not a terminal,
// or returns nil when somebody may. It reads stdin (rest, when the
// questions came on it) to see whether it has already ended, and then sets
// rt.answers to read on from.
func noPerson(env *Env, rest io.Reader, rt *routed) *noPersonError {
	if env.IO.InTTY {
		return nil
	}
	kind := stdinKind(env.IO.InFile, false)
	if rest == nil && (kind == "/dev/null" || kind == "a socket") {
		return &noPersonError{stdin: kind, silent: kind == "a socket"}
	}
	r := rest
	if r == nil {
		r = env.IO.In
	}
	if r == nil {
		return nil
	}
	var ended bool
	if rt.answers, ended = endedAlready(r, endGrace); !ended {
		return nil
	}
	if rest == nil {
		return &noPersonError{stdin: "it was empty"}
	}
	// The questions were given where the answers should follow: a
	// person at a terminal can give them otherwise.
	return &noPersonError{stdin: "it held only the questions", terminal: terminalExists()}
}

// endedAlready reports whether r ends within grace without giving a byte,
// and returns the reader to read r on from: what was read to tell is not
// lost, and a read that is still waiting is waited for.
func endedAlready(r io.Reader, grace time.Duration) (io.Reader, bool) {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	// The peek's error is read once peeked is closed; a later read of br
	// returns it again, so afterPeek need not keep it.
	var err error
	peeked := make(chan struct{})
	go func() {
		_, err = br.Peek(1)
		close(peeked)
	}()
	select {
	case <-peeked:
		return br, errors.Is(err, io.EOF)
	case <-time.After(grace):
		return &afterPeek{peeked: peeked, r: br}, false
	}
}

// afterPeek reads r once the peek that is reading it has returned, so that
// two reads of one bufio.Reader never run at once.
type afterPeek struct {
	peeked <-chan struct{}
	r      io.Reader
}

func (a *afterPeek) Read(p []byte) (int, error) {
	if a.peeked != nil {
		<-a.peeked
		a.peeked = nil
	}
	return a.r.Read(p)
}

// terminalExists reports whether askuser has a controlling terminal, where
// --tty could ask.
func terminalExists() bool {
	in, out, err := openTTY()
	if err != nil {
		return false
	}
	_ = in.Close()
	_ = out.Close()
	return true
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
// before the first answer (a pipe that ended only after endGrace, as one
// whose writer was slow to close does), asks the same questions in
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
	if probe := probeInbox(f.o); probe != nil {
		f.owner.nobody = &noPersonError{stdin: "it ended before the first answer", addr: f.o.inbox.addr, probe: probe}
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
	// terminal: stdin held only the questions, and a terminal exists,
	// where a person could answer with the questions given otherwise.
	terminal bool
	addr     inbox.Addr
	probe    error // why no inbox answered
}

func (e *noPersonError) Error() string { return e.err.Error() }

func (e *noPersonError) Unwrap() error { return e.err }

// explain makes err, when it is no answer, a *noPersonError that says how
// to reach the person. e may be nil: err is then returned as it is.
func (e *noPersonError) explain(err error) error {
	if e == nil || !errors.Is(err, prompt.ErrNoAnswer) {
		return err
	}
	explained := *e
	explained.err = err
	return &explained
}

// report is the message of exit 66 for e.
func (e *noPersonError) report() string {
	where := fmt.Sprintf("no inbox answers at %s", e.addr)
	hint := "To reach the person, have them run 'askuser inbox' in a terminal and ask again, or use --ui web --open."
	var blocked *inbox.BlockedError
	if errors.As(e.probe, &blocked) {
		// An inbox may well be there: say what kept it out of reach.
		where, hint = blocked.Error(), blocked.Hint()
	}
	if e.terminal {
		hint = "To answer at this terminal, give the questions with -f FILE (or as the argument) so that stdin stays the terminal, or add --tty.\n" + hint
	}
	if e.silent {
		return fmt.Sprintf("Error: No answer: nobody can answer on stdin (%s), and %s\n%s\n", e.stdin, where, hint)
	}
	return fmt.Sprintf("Error: No answer: %s\nNobody can answer on stdin (%s), and %s.\n%s\n", e.err, e.stdin, where, hint)
}
