package ask

import (
	"context"
	"errors"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web/localhttp"
	"github.com/askuser/askuser/schema"
)

// askerFunc is a prompt.Prompter.
type askerFunc func(context.Context, []schema.Question) ([]prompt.Answer, error)

func (f askerFunc) Ask(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
	return f(ctx, qs)
}

// answering is a way that reaches the person and answers with its name,
// or asks nobody when nobody is set.
func answering(name string, nobody bool) Way {
	return Way{Name: name, Open: func(context.Context) (*Opened, error) {
		return &Opened{Prompter: askerFunc(func(context.Context, []schema.Question) ([]prompt.Answer, error) {
			if nobody {
				return nil, &prompt.NobodyError{Err: &prompt.ShortError{}}
			}
			return []prompt.Answer{{Labels: []string{name}}}, nil
		})}, nil
	}}
}

// The rules of the command line and of askuser mcp (whose client may have
// forms of its own): which way asks the person,
// walked by the one Route.Ask, from what the place finds out about stdin,
// stderr, the terminal, the inbox and the client.
func TestRouteOrder(t *testing.T) {
	const (
		tty    = "a terminal"
		pipe   = "a pipe that answers"
		late   = "a pipe that ends before the first answer"
		null   = "/dev/null"
		socket = "a socket"
		ended  = "it was empty"

		commandLine = "command line"
		client      = "client"

		nobodyAsked = "nobody: "    // exit 66, saying why nobody could answer at stdin
		unavailable = "unavailable" // exit 69, saying why no way could reach the person
	)
	for _, tc := range []struct {
		rule       string
		door       string
		mode       UI
		tty        bool
		stdin      string
		stderrTTY  bool
		foreground bool
		inbox      bool
		own        string // the client's forms: "" none, "forms", or "declined" at once
		browser    bool   // a browser opens the page
		want       string // the way that asked, or nobodyAsked and why, or unavailable
		wantProbed bool   // the inbox was probed
	}{
		{rule: "a terminal at both ends is asked here, the inbox unprobed", stdin: tty, stderrTTY: true, inbox: true, want: wayHere},
		{rule: "piped answers are read here", stdin: pipe, want: wayHere},
		{rule: "piped answers are read here, stderr a terminal or not", stdin: pipe, stderrTTY: true, inbox: true, want: wayHere},
		{rule: "/dev/null: the inbox, when one answers", stdin: null, inbox: true, want: wayInbox, wantProbed: true},
		{rule: "/dev/null and no inbox: nobody", stdin: null, want: nobodyAsked + null, wantProbed: true},
		{rule: "a silent socket: the inbox", stdin: socket, inbox: true, want: wayInbox, wantProbed: true},
		{rule: "a silent socket and no inbox: nobody", stdin: socket, want: nobodyAsked + socket, wantProbed: true},
		{rule: "stdin that already ended: the inbox", stdin: ended, inbox: true, want: wayInbox, wantProbed: true},
		{rule: "stdin that already ended and no inbox: nobody", stdin: ended, want: nobodyAsked + ended, wantProbed: true},
		{rule: "line prompts whose input ends before the first answer: the inbox", stdin: late, inbox: true, want: wayInbox, wantProbed: true},
		{rule: "line prompts whose input ends before the first answer, no inbox: nobody, never the terminal", stdin: late, foreground: true,
			want: nobodyAsked + "it ended before the first answer", wantProbed: true},
		{rule: "stderr captured: the inbox before the terminal", stdin: tty, foreground: true, inbox: true, want: wayInbox, wantProbed: true},
		{rule: "stderr captured, no inbox, askuser in the foreground: /dev/tty", stdin: tty, foreground: true, want: wayTerminal, wantProbed: true},
		{rule: "stderr captured, no inbox, the terminal someone else's: nobody", stdin: tty, want: nobodyAsked + "a terminal, in whose foreground askuser does not run", wantProbed: true},
		{rule: "--ui line asks here, whatever stdin is", mode: UILine, stdin: null, inbox: true, want: wayHere},
		{rule: "--ui inbox asks in the inbox", mode: UIInbox, stdin: tty, stderrTTY: true, inbox: true, want: wayInbox, wantProbed: true},
		{rule: "--ui inbox without an inbox: unavailable", mode: UIInbox, stdin: tty, stderrTTY: true, want: unavailable, wantProbed: true},
		{rule: "--ui web asks on the page", mode: UIWeb, stdin: null, inbox: true, want: wayWeb},
		{rule: "--tty asks on the terminal", tty: true, stdin: pipe, inbox: true, want: wayTerminal},

		{rule: "mcp: forms declared: the client asks, the inbox unprobed", door: client, own: "forms", inbox: true, want: "form"},
		{rule: "mcp: no forms, an inbox answers: the inbox", door: client, inbox: true, want: wayInbox, wantProbed: true},
		{rule: "mcp: no forms, no inbox: the web page, opened in a browser", door: client, browser: true, want: wayWeb, wantProbed: true},
		{rule: "mcp: no forms, no inbox, no browser: nobody can be reached", door: client, want: unavailable, wantProbed: true},
		{rule: "mcp: no inbox, no browser, stderr a terminal: the page, whose address it shows", door: client, stderrTTY: true, want: wayWeb, wantProbed: true},
		{rule: "mcp: forms declined at once: the inbox", door: client, own: "declined", inbox: true, want: wayInbox, wantProbed: true},
		{rule: "mcp: forms declined at once, no inbox: the web page, opened in a browser", door: client, own: "declined", browser: true, want: wayWeb, wantProbed: true},
		{rule: "mcp: forms declined at once, no inbox, no browser: nobody can be reached", door: client, own: "declined", want: unavailable, wantProbed: true},
		{rule: "mcp: --ui inbox: never the forms", door: client, mode: UIInbox, own: "forms", inbox: true, want: wayInbox, wantProbed: true},
		{rule: "mcp: --ui web: the page", door: client, mode: UIWeb, own: "forms", inbox: true, want: wayWeb},
		{rule: "mcp: --ui web, no browser: the page, whose address the person chose to find", door: client, mode: UIWeb, want: wayWeb},
		{rule: "mcp: --ui elicit: the forms", door: client, mode: UIElicit, own: "forms", inbox: true, want: "form"},
		{rule: "mcp: --ui elicit, forms declined at once: that is the outcome", door: client, mode: UIElicit, own: "declined", inbox: true, want: "the form asked nobody"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			probed := false
			box := answering(wayInbox, false)
			box.Reaches = func(context.Context) error {
				probed = true
				if tc.inbox {
					return nil
				}
				return errors.New("no inbox answers")
			}
			p := Place{
				stdinTTY:  tc.stdin == tty,
				stderrTTY: tc.stderrTTY,
				nobody: func() error {
					switch tc.stdin {
					case null, socket, ended:
						return &noPersonError{Stdin: tc.stdin}
					}
					return nil
				},
				foreground: func() bool { return tc.foreground },
				here:       answering(wayHere, tc.stdin == late),
				terminal:   answering(wayTerminal, false),
				Inbox:      box,
				Web:        answering(wayWeb, false),
				Browse: func(string) error {
					if tc.browser {
						return nil
					}
					return errors.New("no browser here")
				},
			}
			mode := tc.mode
			if mode == "" {
				mode = UIAuto
			}
			var route *Route
			if tc.door == client {
				var own *Way
				if tc.own != "" {
					w := answering("form", tc.own == "declined")
					own = &w
				}
				route = p.Client(Options{Mode: mode}, own)
			} else {
				route = p.commandLine(Options{Mode: mode, TTY: tc.tty})
			}
			answers, err := route.Ask(context.Background(), []schema.Question{{Header: "H"}})
			got := ""
			person, nobody := errors.AsType[*noPersonError](err)
			_, formNobody := errors.AsType[*prompt.NobodyError](err)
			_, isUnavailable := errors.AsType[*prompt.UnavailableError](err)
			switch {
			case err == nil:
				got = answers[0].Labels[0]
			case nobody:
				got = nobodyAsked + person.Stdin
			case formNobody:
				got = "the form asked nobody"
			case isUnavailable:
				got = unavailable
			default:
				got = err.Error()
			}
			if got != tc.want || probed != tc.wantProbed {
				t.Errorf("asked by %q (inbox probed: %v), want %q (%v)", got, probed, tc.want, tc.wantProbed)
			}
			if person != nil && !errors.Is(err, prompt.ErrNoAnswer) {
				t.Errorf("nobody's error %v is not one of no answer", err)
			}
		})
	}
}

// A way that cannot reach the person, or fails to open, is passed over
// for the next, and with none left the walk says why for each, with
// every hint.
func TestWalkPassesOver(t *testing.T) {
	var tried []string
	way := func(name, hint string, reaches, opens bool) Way {
		w := answering(name, false)
		w.Hint = hint
		w.Reaches = func(context.Context) error {
			tried = append(tried, name)
			if !reaches {
				return errors.New("no " + name + " here")
			}
			return nil
		}
		open := w.Open
		w.Open = func(ctx context.Context) (*Opened, error) {
			if !opens {
				return nil, &prompt.UnavailableError{Err: errors.New(name + " cannot open")}
			}
			return open(ctx)
		}
		return w
	}
	r := &Route{Ways: []Way{way("inbox", "Start the inbox.", false, true), way("web", "", true, false), way("other", "", true, true)}}
	answers, err := r.Ask(context.Background(), nil)
	if err != nil || answers[0].Labels[0] != "other" || strings.Join(tried, " ") != "inbox web other" {
		t.Errorf("asked %v (%v) after trying %v, want other after inbox and web", answers, err, tried)
	}
	r.Ways = r.Ways[:2]
	_, err = r.Ask(context.Background(), nil)
	want := "no way of asking can reach the person (inbox: no inbox here; web: web cannot open)"
	none, ok := errors.AsType[*noWayError](err)
	_, unavailable := errors.AsType[*prompt.UnavailableError](err)
	if !unavailable || !ok || err.Error() != want || strings.Join(none.Hints, " ") != "Start the inbox." {
		t.Errorf("no way: %v, want %q with the inbox's hint", err, want)
	}
}

// A way that asks and goes while the questions wait there (an inbox that
// quits) ends the walk: the person could have seen the questions.
func TestWalkEndsWithAWayThatWent(t *testing.T) {
	goes := Way{Name: "inbox", Open: func(context.Context) (*Opened, error) {
		return &Opened{Prompter: askerFunc(func(context.Context, []schema.Question) ([]prompt.Answer, error) {
			return nil, &prompt.UnavailableError{Err: errors.New("the inbox closed")}
		})}, nil
	}}
	r := &Route{Ways: []Way{goes, answering("web", false)}}
	_, err := r.Ask(context.Background(), nil)
	_, ok := errors.AsType[*endedError](err)
	if !ok || err.Error() != "the inbox closed" {
		t.Errorf("walk: %v, want the inbox's end", err)
	}
}

// Where no way can reach anybody (no inbox answers, and no browser shows
// the page), the walk fails at once, and what it says names askuser inbox,
// for the person to start.
func TestNoWayNamesTheInbox(t *testing.T) {
	addr, err := inbox.ParseAddr(filepath.Join(t.TempDir(), "none.sock"), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := Place{Inbox: inboxWay(InboxOptions{Addr: addr}, io.Discard), Web: answering(wayWeb, false),
		Browse: func(string) error { return errors.New("no browser here") }}
	start := time.Now()
	_, err = p.Client(Options{Mode: UIAuto}, nil).Ask(context.Background(), []schema.Question{{Header: "H"}})
	if took := time.Since(start); took > testutil.Slow {
		t.Errorf("the walk took %s to find that nobody can be reached", took)
	}
	_, unavailable := errors.AsType[*prompt.UnavailableError](err)
	if text := ToolErrorText(err); !unavailable || !strings.Contains(text, "'askuser inbox'") {
		t.Errorf("walk: %v; the model reads %q, want it to name askuser inbox", err, text)
	}
}

// TestWebUnavailable checks that an address that cannot be listened on
// is reported as a way of asking that cannot be used, saying why.
func TestWebUnavailable(t *testing.T) {
	held, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	for _, tc := range []struct{ addr, msg string }{
		{held.Addr().String(), "cannot serve the page on " + held.Addr().String() + ": address already in use"},
		// TEST-NET-1: an address no machine has.
		{"192.0.2.1:0", "cannot serve the page on 192.0.2.1:0: cannot assign requested address"},
	} {
		a, err := localhttp.ParseAddr(tc.addr)
		if err != nil {
			t.Fatal(err)
		}
		opened, err := webWay(a, nil, io.Discard).Open(t.Context())
		if err == nil {
			opened.close()
			t.Errorf("the page on %s opened", tc.addr)
			continue
		}
		if _, ok := errors.AsType[*prompt.UnavailableError](err); !ok || err.Error() != tc.msg {
			t.Errorf("the page on %s: %T %q, want a *prompt.UnavailableError %q", tc.addr, err, err, tc.msg)
		}
	}
}
