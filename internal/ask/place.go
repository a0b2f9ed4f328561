package ask

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/line"
	"github.com/askuser/askuser/prompt/tui"
	"github.com/askuser/askuser/prompt/web"
	"github.com/askuser/askuser/prompt/web/localhttp"
	"github.com/askuser/askuser/schema"
)

// The names of the ways that a Place has.
const (
	wayHere     = "here"     // the terminal UI or line prompts, on stdin and stderr
	wayTerminal = "terminal" // the terminal that stdin is (/dev/tty)
	wayInbox    = "inbox"    // askuser inbox
	wayWeb      = "web"      // a web page
)

// Place is where a route runs: what it finds out there about the person,
// and the ways it has of reaching them. The probes are called only when
// the walk gets to the way that needs them.
type Place struct {
	// stdinTTY and stderrTTY say whether stdin and stderr are terminals.
	stdinTTY, stderrTTY bool
	// nobody says why nobody can answer at stdin, when it is not a
	// terminal: it is /dev/null, a silent socket, or it has already
	// ended (a *noPersonError). It returns nil when somebody may answer
	// there.
	nobody func() error
	// foreground reports whether askuser runs in the foreground of the
	// terminal that stdin is.
	foreground func() bool
	// here asks on stdin and stderr, terminal on the terminal that stdin
	// is, Inbox in the inbox (its Reaches probes it), Web on a web page.
	here, terminal, Inbox, Web Way
	// Browse opens the address of the page that Web opened in a browser;
	// nil when askuser is not to open one (no --open).
	Browse func(url string) error
}

// errNoTerminal is why the terminal that stdin is cannot be asked on.
var errNoTerminal = errors.New("stdin is not a terminal in whose foreground askuser runs")

// commandLine returns the route of askuser, askuser confirm and askuser input.
// --ui web asks only on the page, --ui inbox only in the inbox, --tty only
// on the terminal, --ui tui and line only here. In auto mode: here, when
// somebody may answer at stdin and see the prompts on stderr; else the
// inbox, when one answers; else the terminal that stdin is, when stderr is
// captured and askuser runs in that terminal's foreground; else nobody,
// whose answer is none, said with how to reach the person (see nobody).
func (p Place) commandLine(o Options) *Route {
	r := &Route{timeout: o.Timeout}
	switch {
	case o.Mode == UIWeb:
		r.Ways = []Way{p.Web}
	case o.Mode == UIInbox:
		r.Ways = []Way{p.Inbox}
		r.end = func(none *noWayError) error {
			return &prompt.UnavailableError{Err: inbox.WithHint(none.Errs[0])}
		}
	case o.TTY:
		r.Ways = []Way{p.terminal}
	case o.Mode != UIAuto:
		r.Ways = []Way{p.here}
	default:
		unseen := p.stdinTTY && !p.stderrTTY
		here, terminal := p.here, p.terminal
		here.Reaches = func(context.Context) error {
			if unseen {
				// Nobody would see the prompts. Should no inbox answer and
				// the terminal not be askuser's, nobody is asked.
				return &noPersonError{Stdin: "a terminal, in whose foreground askuser does not run", Silent: true}
			}
			if p.stdinTTY {
				return nil
			}
			// Only a stdin that is not a terminal is asked what it is.
			return p.nobody()
		}
		terminal.Reaches = func(context.Context) error {
			if unseen && p.foreground() {
				return nil
			}
			return errNoTerminal
		}
		r.Ways = []Way{here, p.Inbox, terminal}
		r.end = func(none *noWayError) error { return nobody(none, o.Inbox.Addr, p.stdinTTY) }
	}
	return r
}

// Client returns the route of a door that has no terminal, only a client that
// may have a way of its own to reach the person, own (askuser mcp: the
// MCP client's forms), nil when it has none now. In auto mode:
// own, else the inbox when one answers, else a web page that someone can
// see (see page); and when own asks BesideInbox, the questions wait in
// the inbox too, when one answers, while own asks them, so that the
// person away from the desk hears of them: the first answer wins. --ui
// elicit asks only through own, --ui inbox only in the inbox, --ui web
// only on the page.
func (p Place) Client(o Options, own *Way) *Route {
	r := &Route{timeout: o.Timeout}
	if own != nil && (o.Mode == UIAuto || o.Mode == UIElicit) {
		w := *own
		if o.Mode == UIAuto && w.BesideInbox {
			w.Beside = &p.Inbox
		}
		r.Ways = append(r.Ways, w)
	}
	switch o.Mode {
	case UIInbox:
		r.Ways = append(r.Ways, p.Inbox)
	case UIWeb:
		r.Ways = append(r.Ways, p.Web)
	case UIAuto:
		r.Ways = append(r.Ways, p.Inbox, p.page())
	}
	return r
}

// Ask walks the route: each way that reaches the person is opened and asks
// qs, and the first that asks somebody gives the answers or the outcome.
// A way that cannot reach the person, or that asked nobody (a
// *prompt.NobodyError) while ways follow it, hands the questions on to the
// next. A way that could reach the person and went while the questions
// waited there is an *endedError. When ctx ends, or the timeout passes,
// Ask returns why.
func (r *Route) Ask(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
	if r.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, r.timeout, &timeoutError{After: r.timeout})
		defer cancel()
	}
	none := &noWayError{}
	var after error
	for i, w := range r.Ways {
		if w.Reaches != nil {
			if err := w.Reaches(ctx); err != nil {
				if ctx.Err() != nil {
					return nil, context.Cause(ctx)
				}
				none.add(w, err)
				continue
			}
		}
		o, err := w.Open(ctx)
		if err != nil {
			if _, ok := errors.AsType[*prompt.UnavailableError](err); !ok {
				return nil, err
			}
			none.add(w, err)
			continue
		}
		answers, err := r.askOpened(ctx, w, o, after, qs)
		_, nobody := errors.AsType[*prompt.NobodyError](err)
		unavailable, gone := errors.AsType[*prompt.UnavailableError](err)
		switch {
		case err == nil:
			return answers, nil
		case ctx.Err() != nil:
			return nil, context.Cause(ctx)
		case nobody && i < len(r.Ways)-1:
			none.add(w, err)
			after = err
			continue
		case gone:
			// It could reach the person when it was opened: it went (an
			// inbox that quit) while the questions waited there.
			return nil, &endedError{Err: unavailable.Err}
		}
		return nil, err
	}
	if r.end != nil {
		return nil, r.end(none)
	}
	return nil, &prompt.UnavailableError{Err: none}
}

// askOpened asks qs in o, which w opened, and in the way beside w, when it
// has one that reaches the person (see askBeside); after is the error of
// the way before it that asked nobody, for OnOpen.
func (r *Route) askOpened(ctx context.Context, w Way, o *Opened, after error, qs []schema.Question) ([]prompt.Answer, error) {
	r.Close()
	r.asked = o
	if w.Beside != nil {
		r.beside = openBeside(ctx, *w.Beside)
	}
	if r.OnOpen != nil {
		if r.beside != nil {
			r.OnOpen(ctx, w.Beside.Name, r.beside, nil)
		}
		r.OnOpen(ctx, w.Name, o, after)
	}
	if r.beside != nil {
		return r.askBeside(ctx, w, o, r.beside, qs)
	}
	return o.Ask(ctx, qs)
}

// Close releases the way that asked last, and the one beside it.
func (r *Route) Close() {
	for _, o := range []*Opened{r.asked, r.beside} {
		if o != nil && o.close != nil {
			o.close()
		}
	}
	r.asked, r.beside = nil, nil
}

// openBeside opens w to ask beside another way, when it reaches the
// person now; nil when it does not, or cannot open: the other way asks
// alone then.
func openBeside(ctx context.Context, w Way) *Opened {
	if w.Reaches != nil && w.Reaches(ctx) != nil {
		return nil
	}
	o, _ := w.Open(ctx)
	return o
}

// errAnsweredBeside is why a copy of the questions ends when the other
// copy, asked beside it, ended first without answers.
var errAnsweredBeside = errors.New("the questions were answered another way")

// WayForm is the name of the way of askuser mcp's MCP client, which asks in
// its own forms.
const WayForm = "form"

// AnsweredElsewhere is why a copy of the questions ends when the other
// copy, asked beside it in the way named Way, was answered first. The inbox
// says so when Way is one it has words for (see WithdrawCode).
type AnsweredElsewhere struct {
	Way string
}

func (e *AnsweredElsewhere) Error() string {
	return "the questions were answered another way (" + e.Way + ")"
}

// WithdrawCode is the code of the inbox's Withdrawal for where the
// questions were answered (inbox.Withdrawer): the MCP client's form, or ""
// for a way the inbox has no words for.
func (e *AnsweredElsewhere) WithdrawCode() string {
	if e.Way == WayForm {
		return inbox.WithdrawForm
	}
	return ""
}

// askBeside asks qs in first, which w opened, and in beside, which
// w.Beside opened, at once. The first outcome wins, and the other copy ends
// (its ctx, with an *AnsweredElsewhere when the winner answered, else
// errAnsweredBeside), and is waited for, so that it has gone (withdrawn
// from the inbox, the form closed) before the answers go back. Two
// outcomes do not win, and leave the questions to the other copy alone:
// first's *prompt.NobodyError (the client could not show its form), as the
// route would have given them to beside, which is told to OnOpen as such;
// and beside's *prompt.UnavailableError (the inbox went).
func (r *Route) askBeside(ctx context.Context, w Way, first, beside *Opened, qs []schema.Question) ([]prompt.Answer, error) {
	type outcome struct {
		beside  bool
		answers []prompt.Answer
		err     error
	}
	askCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	outcomes := make(chan outcome, 2)
	for i, o := range []*Opened{first, beside} {
		go func() {
			answers, err := o.Ask(askCtx, qs)
			outcomes <- outcome{i == 1, answers, err}
		}()
	}
	got := <-outcomes
	_, nobody := errors.AsType[*prompt.NobodyError](got.err)
	_, gone := errors.AsType[*prompt.UnavailableError](got.err)
	if ctx.Err() == nil && (!got.beside && nobody || got.beside && gone) {
		if !got.beside && r.OnOpen != nil {
			r.OnOpen(ctx, w.Beside.Name, beside, got.err)
		}
		got = <-outcomes
		return got.answers, got.err
	}
	why := errAnsweredBeside
	if got.err == nil {
		why = &AnsweredElsewhere{Way: w.Name}
		if got.beside {
			why = &AnsweredElsewhere{Way: w.Beside.Name}
		}
	}
	stop(why)
	<-outcomes
	return got.answers, got.err
}

// unseen reports whether nobody sees the address of a page that mode asks
// on, written on stderr: in auto mode, stderr is not a terminal (an MCP
// client keeps it in a log). --ui web is the person's choice of the page,
// whose address they know where to find.
func (p Place) unseen(mode UI) bool { return mode == UIAuto && !p.stderrTTY }

// page returns the web way where nobody sees its address: it reaches the person
// only when a browser opens it, and never waits on a page nobody can see.
func (p Place) page() Way {
	if !p.unseen(UIAuto) {
		return p.Web
	}
	w := p.Web
	w.Open = func(ctx context.Context) (*Opened, error) {
		o, err := p.Web.Open(ctx)
		if err != nil {
			return nil, err
		}
		err = errNoBrowser
		if p.Browse != nil {
			err = p.Browse(o.url)
		}
		if err != nil {
			if o.close != nil {
				o.close()
			}
			return nil, &prompt.UnavailableError{Err: fmt.Errorf("no browser could show the page (%w), and its address is written where nobody sees it", err)}
		}
		return o, nil
	}
	return w
}

// errNoBrowser is why a page is not shown in a browser without --open.
var errNoBrowser = errors.New("askuser opens none without --open")

// NewPlace returns where askuser runs, on streams, asking as o says;
// rest is what followed the questions on stdin (the answers), nil when
// they came from elsewhere.
func NewPlace(streams *Streams, o Options, rest io.Reader) Place {
	// answers is where line prompts read the answers: rest, or stdin once
	// it was read to see whether it had ended, from where that read it.
	answers := rest
	p := Place{
		stdinTTY:  streams.IO.InTTY,
		stderrTTY: streams.IO.ErrTTY,
		nobody: func() error {
			read, why := noPerson(streams.IO, rest)
			if read != nil {
				answers = read
			}
			return why
		},
		foreground: func() bool { return inForeground(streams.IO.InFile) },
		here: Way{Name: wayHere, Open: func(context.Context) (*Opened, error) {
			s := *streams.IO
			if answers != nil {
				s.In, s.InFile, s.InTTY = answers, nil, false
			}
			return askOn(o, &s, nil)
		}},
		terminal: Way{Name: wayTerminal, Open: func(context.Context) (*Opened, error) {
			s, done, err := openTTY(*streams.IO)
			if err != nil {
				return nil, err
			}
			return askOn(o, s, done)
		}},
		Inbox: inboxWay(o.Inbox, streams.IO.ErrOut),
	}
	if o.Web.Open {
		p.Browse = func(url string) error { return localhttp.OpenBrowser(o.Web.Browser, url) }
	}
	// Where nobody sees the address, the route opens the browser first (see
	// page); elsewhere, the page does once it is served, and says so when
	// it cannot.
	opener := p.Browse
	if p.unseen(o.Mode) {
		opener = nil
	}
	p.Web = webWay(o.Web.Listen, opener, streams.IO.ErrOut)
	return p
}

// askOn asks on s's stdin and stderr: in the terminal UI when both are
// terminals, unless line prompts are asked for (--ui line, ACCESSIBLE,
// TERM=dumb), else with line prompts. Closing the opened way calls done,
// when set. It fails only where a terminal is missing, so never with done:
// the terminal that openTTY opened is both.
func askOn(o Options, s *iostreams.Streams, done func()) (*Opened, error) {
	screen, err := o.Mode.UseScreen(s, o.Plain, cmp.Or(o.ModeFrom, "--ui tui"), "use --tty to ask on the controlling terminal, or --ui line")
	if err != nil {
		return nil, err
	}
	opened := &Opened{out: s.ErrOut, close: done}
	if s.InTTY && s.InFile != nil {
		opened.terminals = append(opened.terminals, s.InFile)
	}
	if s.ErrTTY && s.ErrFile != nil {
		opened.terminals = append(opened.terminals, s.ErrFile)
	}
	if screen {
		opened.Prompter = tui.New(tui.Options{In: s.InFile, Out: s.ErrFile, Color: o.Color, Review: o.Review})
	} else {
		opened.Prompter = line.New(s.In, s.ErrOut, !s.InTTY)
	}
	return opened, nil
}

// OnStdinTerminal is s, or, where stdin is a terminal and stderr is not
// (askuser inbox 2>log) and askuser runs in that terminal's foreground (a
// person typed the command there), streams that read and draw on that
// terminal (/dev/tty), as an asker in the same place asks there: what is
// written into the captured stderr, nobody sees. stdout stays as it is.
func OnStdinTerminal(s *iostreams.Streams) *iostreams.Streams {
	if !s.InTTY || s.ErrTTY || !inForeground(s.InFile) {
		return s
	}
	t, _, err := openTTY(*s)
	if err != nil {
		return s
	}
	return t
}

// UseScreen reports whether to draw on the terminal screen (the terminal
// UI, the inbox's screen) rather than as line prompts, on s: tui does,
// and is unavailable unless stdin and stderr are terminals, an error that
// names where tui came from (named: "--ui tui") and what to use instead;
// auto does when they are, unless the person asked for plain line prompts
// (ACCESSIBLE, TERM=dumb); line does not.
func (ui UI) UseScreen(s *iostreams.Streams, plain bool, named, instead string) (bool, error) {
	// Both are terminals, with the files that the screen is drawn on.
	terminals := s.InTTY && s.ErrTTY && s.InFile != nil && s.ErrFile != nil
	switch ui {
	case UITUI:
		if !terminals {
			// Not an error of the person's or of askuser's: exit 69, which
			// no script reads as an answer (confirm's 1 is a no).
			return false, &prompt.UnavailableError{Err: fmt.Errorf("%s needs a terminal, and stdin or stderr is not one: %s", named, instead)}
		}
		return true, nil
	case UIAuto:
		return terminals && !plain, nil
	}
	return false, nil
}

// openTTY returns s with stdin and stderr on the controlling terminal,
// opened for reading and writing, and what closes it. Without one, the
// terminal cannot be asked on.
func openTTY(s iostreams.Streams) (_ *iostreams.Streams, done func(), err error) {
	inName, outName := "/dev/tty", "/dev/tty"
	if runtime.GOOS == "windows" {
		inName, outName = "CONIN$", "CONOUT$"
	}
	var out *os.File
	in, err := os.OpenFile(inName, os.O_RDWR, 0)
	if err == nil {
		if out, err = os.OpenFile(outName, os.O_RDWR, 0); err != nil {
			_ = in.Close()
		}
	}
	if err != nil {
		return nil, nil, &prompt.UnavailableError{Err: fmt.Errorf("--tty: no controlling terminal to ask on: %w", err)}
	}
	s.In, s.InFile, s.InTTY = in, in, true
	s.ErrOut, s.ErrFile, s.ErrTTY = out, out, true
	return &s, func() {
		// Opened only to ask on; nothing was written that a failed close
		// could lose.
		_ = in.Close()
		_ = out.Close()
	}, nil
}

// inboxWay asks in the inbox (askuser inbox) of o, when one answers at its
// address: its Reaches probes it. The asker says on log where the
// questions wait.
func inboxWay(o InboxOptions, log io.Writer) Way {
	return Way{
		Name: wayInbox,
		Hint: "Ask the person to run 'askuser inbox' in a terminal they keep in view, then ask again.",
		Reaches: func(ctx context.Context) error {
			_, err := o.Addr.Dial().Probe(ctx)
			return err
		},
		Open: func(context.Context) (*Opened, error) {
			cwd := o.Cwd
			if cwd == "" {
				cwd, _ = os.Getwd()
			}
			a := inbox.NewAsker(inbox.AskerOptions{Addr: o.Addr, From: o.From, Cwd: cwd, Limits: o.Limits, Out: log})
			return &Opened{Prompter: a, Where: fmt.Sprintf("Waiting for an answer in the inbox (askuser inbox) at %s.", o.Addr)}, nil
		},
	}
}

// webWay asks on a web page served on listen, and opened with opener when
// it is set. The port is taken when the way opens, so that one that cannot
// be had is reported before anything is asked. The page's address and its
// notices go to out.
func webWay(listen localhttp.Addr, opener func(url string) error, out io.Writer) Way {
	return Way{Name: wayWeb, Open: func(context.Context) (*Opened, error) {
		ln, host, err := localhttp.Listen(listen, "the page", out)
		if err != nil {
			return nil, &prompt.UnavailableError{Err: err}
		}
		w := web.New(web.Options{Listener: ln, Host: host, Out: out, Open: opener})
		// Opened only to ask on: nothing a failed close could lose.
		return &Opened{Prompter: w, Where: "Answer in your browser: " + w.URL(), url: w.URL(), out: out, close: func() { _ = ln.Close() }}, nil
	}}
}
