package ask

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// newInboxAsker returns the asker that asks in the inbox of o.
func newInboxAsker(env *Env, o Options) *inbox.Asker {
	cwd, _ := os.Getwd()
	return inbox.NewAsker(inbox.AskerOptions{
		Client: inbox.Dial(o.Inbox.Addr),
		From:   o.Inbox.From,
		Cwd:    cwd,
		PID:    os.Getpid(),
		Limits: o.Inbox.Limits,
		Out:    env.IO.ErrOut,
	})
}

// probeInbox reports whether an inbox answers at o's address.
func probeInbox(o Options) error {
	_, err := inbox.Dial(o.Inbox.Addr).Probe(context.Background())
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
// to the inbox, to nobody, or to the terminal that stdin is. With --ui
// inbox they go to the inbox, and an inbox that does not answer is exit
// 69. In auto mode (without --tty), the command line's route decides (see
// CommandLine, whose test states its rules). A stdin that ends later,
// before the first answer, is found out later: see fallbackAsker.
func routeInbox(env *Env, o Options, rest io.Reader) (routed, error) {
	switch {
	case o.Mode == UIInbox:
		if err := probeInbox(o); err != nil {
			return routed{}, &prompt.UnavailableError{Err: inbox.WithHint(err)}
		}
		return routed{asker: &asker{Asker: newInboxAsker(env, o), out: env.IO.ErrOut, inbox: true}}, nil
	case o.Mode != UIAuto || o.TTY:
		return routed{}, nil
	}
	var rt routed
	route, probe := commandLineRoute(env, o, rest, &rt)
	i, why := route.First(context.Background(), 0)
	switch route[i].Name {
	case WayHere:
		return rt, nil
	case WayInbox:
		return routed{asker: &asker{Asker: newInboxAsker(env, o), out: env.IO.ErrOut, inbox: true}}, nil
	case WayTerminal:
		return routed{terminal: true}, nil
	}
	var server *inbox.ServerError
	if !env.IO.InTTY && errors.As(*probe, &server) {
		// Nobody can answer at stdin, and the person chose an inbox on
		// NATS: what keeps it from being used is theirs to fix, not a
		// reason to give up on asking.
		return routed{}, &prompt.UnavailableError{Err: server}
	}
	// Nobody: the first way's why is why nobody can answer at stdin.
	var person *NoPersonError
	errors.As(why[0], &person)
	nobodyWhy := *person
	nobodyWhy.Addr, nobodyWhy.Probe = o.Inbox.Addr, *probe
	return routed{asker: &asker{Asker: nobody{}, out: env.IO.ErrOut, nobody: &nobodyWhy}}, nil
}

// commandLineRoute is the route of auto mode (see CommandLine), with
// its probes: stdin is read to see whether it has ended (and rt.answers
// set to read on from), and *probe says why the inbox did not answer,
// once it has been probed.
func commandLineRoute(env *Env, o Options, rest io.Reader, rt *routed) (Route, *error) {
	probe := new(error)
	return CommandLine(Place{
		StdinTTY:   env.IO.InTTY,
		StderrTTY:  env.IO.ErrTTY,
		Nobody:     func() *NoPersonError { return noPerson(env, rest, rt) },
		Foreground: func() bool { return inForeground(env.IO.InFile) },
		Inbox: func() error {
			*probe = probeInbox(o)
			return *probe
		},
	}), probe
}

// endGrace is how long a stdin that is not a terminal is given to show
// whether it has ended, before the line prompts are drawn: a file answers
// at once, and a pipe whose writer is done closes within it.
const endGrace = 100 * time.Millisecond

// noPerson says why nobody could answer on stdin, which is not a terminal,
// or returns nil when somebody may. It reads stdin (rest, when the
// questions came on it) to see whether it has already ended, and then sets
// rt.answers to read on from.
func noPerson(env *Env, rest io.Reader, rt *routed) *NoPersonError {
	if env.IO.InTTY {
		return nil
	}
	kind := StdinKind(env.IO.InFile, false)
	if rest == nil && (kind == "/dev/null" || kind == "a socket") {
		return &NoPersonError{Stdin: kind, Silent: kind == "a socket"}
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
		return &NoPersonError{Stdin: "it was empty"}
	}
	// The questions were given where the answers should follow: a
	// person at a terminal can give them otherwise.
	return &NoPersonError{Stdin: "it held only the questions", Terminal: terminalExists()}
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

// StdinKind names what stdin is, where that tells that nobody can answer
// on it: "/dev/null", "a socket"; else "".
func StdinKind(f *os.File, tty bool) string {
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

// fallbackAsker asks with line prompts and, when they asked nobody (the
// answer input ended before the first answer: a pipe that ended only after
// endGrace, as one whose writer was slow to close does), hands the same
// questions on to the ways after them in the route: the inbox, when one
// answers, else nobody, whose no-answer error says how the person could
// be reached.
type fallbackAsker struct {
	prompt.Asker
	owner *asker
	env   *Env
	o     Options
}

// next returns the asker of the way after here to ask again with, when
// err says that the answer input gave nothing at all and the inbox answers.
func (f *fallbackAsker) next(err error) (prompt.Asker, bool) {
	if !errors.As(err, new(*prompt.NobodyError)) {
		return nil, false
	}
	route, probe := commandLineRoute(f.env, f.o, nil, &routed{})
	if i, _ := route.First(context.Background(), 1); route[i].Name != WayInbox {
		f.owner.nobody = &NoPersonError{Stdin: "it ended before the first answer", Addr: f.o.Inbox.Addr, Probe: *probe}
		return nil, false
	}
	_, _ = fmt.Fprintln(f.env.IO.ErrOut, "The answer input ended before the first answer: asking in the inbox instead.")
	return newInboxAsker(f.env, f.o), true
}

func (f *fallbackAsker) Ask(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
	answers, err := f.Asker.Ask(ctx, qs)
	if next, ok := f.next(err); ok {
		return next.Ask(ctx, qs)
	}
	return answers, err
}

// withFallback returns the line asker that newLine makes on in, with the
// ways after here to hand the questions on to, in auto mode, when an input
// that is not a terminal gives nothing at all.
func withFallback(env *Env, o Options, a *asker, in side, newLine func(io.Reader) prompt.Asker) prompt.Asker {
	if o.Mode != UIAuto || o.TTY || in.tty {
		return newLine(in.r)
	}
	return &fallbackAsker{Asker: newLine(in.r), owner: a, env: env, o: o}
}
