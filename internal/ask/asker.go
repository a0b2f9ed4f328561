package ask

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/askuser/askuser/internal/localhttp"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/line"
	"github.com/askuser/askuser/prompt/tui"
	"github.com/askuser/askuser/prompt/web"
)

// UI is how questions are asked.
type UI string

// The ways --ui names: auto chooses among them (SPEC §5 and §7), the
// others force one.
const (
	UIAuto UI = "auto"
	UITUI  UI = "tui"
	UILine UI = "line"
	// UIWeb is never picked by auto: it opens a port, which only the
	// caller can decide to do.
	UIWeb UI = "web"
)

// UIInbox asks in the inbox (askuser inbox). Auto picks it where no person
// could answer at stdin and an inbox answers.
const UIInbox UI = "inbox"

// UIElicit asks through the MCP client's own interface; only askuser mcp
// has one.
const UIElicit UI = "elicit"

// asker is the chosen way of asking, with where it draws and the streams
// it opened.
type asker struct {
	prompt.Asker
	out     io.Writer // where the prompts are drawn: for the bell
	closers []io.Closer
	// terminals are the sides of the Conversation that are terminals, to
	// tell a hang-up from other failures (see HungUp).
	terminals []*os.File
	inbox     bool           // it asks in the inbox, which rings its own bell
	nobody    *NoPersonError // set when nobody could answer: see routeInbox
}

func (a *asker) Close() {
	for _, c := range a.closers {
		// Opened only to ask on; nothing was written that a failed close
		// could lose.
		_ = c.Close()
	}
}

// side is one side of the Conversation: a stream, and its file when it is
// one (the terminal UI needs the descriptor).
type side struct {
	r   io.Reader
	w   io.Writer
	f   *os.File
	tty bool
}

// newAsker picks how to ask. With --ui web, on a page. Otherwise answers
// come from the controlling terminal with --tty, else from rest (what
// followed the questions on stdin) when there is one, else from stdin.
// Prompts go to the terminal with --tty, else to stderr; never to stdout.
// The terminal UI is used when both are terminals, unless line prompts are
// asked for (--ui line, ACCESSIBLE, TERM=dumb).
func newAsker(env *Env, o Options, rest io.Reader) (*asker, error) {
	if o.Mode == UIWeb {
		return newWebAsker(env, o)
	}
	rt, err := routeInbox(env, o, rest)
	if rt.asker != nil || err != nil {
		return rt.asker, err
	}
	a := &asker{}
	in := side{r: env.IO.In, f: env.IO.InFile, tty: env.IO.InTTY}
	out := side{w: env.IO.ErrOut, f: env.IO.ErrFile, tty: env.IO.ErrTTY}
	switch {
	case o.TTY || rt.terminal:
		tin, tout, err := openTTY()
		if err != nil {
			return nil, err
		}
		a.closers = append(a.closers, tin, tout)
		in = side{r: tin, f: tin, tty: true}
		out = side{w: tout, f: tout, tty: true}
	case rt.answers != nil:
		// Stdin was read to see whether it had ended: the answers are
		// read on from there.
		in = side{r: rt.answers}
	case rest != nil:
		// The questions came on stdin; the answers are what follows them,
		// already partly read into a buffer.
		in = side{r: rest}
	}
	terminals := in.tty && out.tty && in.f != nil && out.f != nil
	useTUI := false
	switch o.Mode {
	case UITUI:
		if !terminals {
			a.Close()
			// Not an error of the person's or of askuser's: exit 69, which no
			// script reads as an answer (confirm's 1 is a no).
			return nil, &prompt.UnavailableError{Err: errors.New("--ui tui needs a terminal, and stdin or stderr is not one: use --tty to ask on the controlling terminal, or --ui line")}
		}
		useTUI = true
	case UIAuto:
		useTUI = terminals && !o.Plain
	}
	a.out = out.w
	for _, s := range []side{in, out} {
		if s.tty && s.f != nil {
			a.terminals = append(a.terminals, s.f)
		}
	}
	if !useTUI {
		a.Asker = withFallback(env, o, a, in, func(r io.Reader) prompt.Asker { return line.New(r, out.w, !in.tty) })
		return a, nil
	}
	a.Asker = tui.New(tui.Options{In: in.f, Out: out.f, Color: tui.ColorEnabled(env.Getenv, true), Review: o.Review})
	return a, nil
}

// newWebAsker starts listening for the web page, so that a port that cannot
// be had is reported before anything is asked.
func newWebAsker(env *Env, o Options) (*asker, error) {
	w, closer, err := OpenWeb(env, o.Listen, o.Open)
	if err != nil {
		return nil, err
	}
	return &asker{Asker: w, out: env.IO.ErrOut, closers: []io.Closer{closer}}, nil
}

// OpenWeb starts listening for the web page on listen, so that a port that
// cannot be had is reported before anything is asked, and opens the page
// in the browser ($BROWSER, else the system's) when open is set. Closing
// the closer stops listening.
func OpenWeb(env *Env, listen localhttp.Addr, open bool) (*web.Asker, io.Closer, error) {
	ln, host, err := localhttp.Listen(listen, env.IO.ErrOut)
	if err != nil {
		return nil, nil, err
	}
	var opener func(string) error
	if open {
		browser := env.Getenv("BROWSER")
		opener = func(url string) error { return localhttp.OpenBrowser(browser, url) }
	}
	w, err := web.New(web.Options{Listener: ln, Host: host, Out: env.IO.ErrOut, Open: opener})
	if err != nil {
		_ = ln.Close()
		return nil, nil, err
	}
	return w, ln, nil
}

// openTTY opens the controlling terminal for reading and writing. Without
// one, the way of asking that --tty chose is unavailable.
func openTTY() (in, out *os.File, err error) {
	inName, outName := "/dev/tty", "/dev/tty"
	if runtime.GOOS == "windows" {
		inName, outName = "CONIN$", "CONOUT$"
	}
	in, err = os.OpenFile(inName, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, &prompt.UnavailableError{Err: fmt.Errorf("--tty: no controlling terminal to ask on: %w", err)}
	}
	out, err = os.OpenFile(outName, os.O_RDWR, 0)
	if err != nil {
		_ = in.Close()
		return nil, nil, &prompt.UnavailableError{Err: fmt.Errorf("--tty: no controlling terminal to ask on: %w", err)}
	}
	return in, out, nil
}
