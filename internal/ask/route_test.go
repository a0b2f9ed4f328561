package ask

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// The rules of SPEC §5 and §7: where the command line asks in auto mode,
// from what it finds out about stdin, stderr, the terminal and the inbox.
func TestCommandLineRoute(t *testing.T) {
	const (
		tty    = "a terminal"
		pipe   = "a pipe that may answer"
		null   = "/dev/null"
		socket = "a socket"
		ended  = "it was empty"
	)
	for _, tc := range []struct {
		rule             string
		stdin            string
		stderrTTY        bool
		foreground       bool
		inbox            bool
		want             string
		wantInboxProbed  bool
		wantNobodyReason string // the first way's why, for nobody
	}{
		{rule: "a terminal at both ends is asked here, the inbox unprobed", stdin: tty, stderrTTY: true, inbox: true, want: WayHere},
		{rule: "piped answers are read here", stdin: pipe, want: WayHere},
		{rule: "piped answers are read here, stderr a terminal or not", stdin: pipe, stderrTTY: true, inbox: true, want: WayHere},
		{rule: "/dev/null: the inbox, when one answers", stdin: null, inbox: true, want: WayInbox, wantInboxProbed: true},
		{rule: "/dev/null and no inbox: nobody", stdin: null, want: WayNobody, wantInboxProbed: true, wantNobodyReason: null},
		{rule: "a silent socket: the inbox", stdin: socket, inbox: true, want: WayInbox, wantInboxProbed: true},
		{rule: "a silent socket and no inbox: nobody", stdin: socket, want: WayNobody, wantInboxProbed: true, wantNobodyReason: socket},
		{rule: "stdin that already ended: the inbox", stdin: ended, inbox: true, want: WayInbox, wantInboxProbed: true},
		{rule: "stdin that already ended and no inbox: nobody", stdin: ended, want: WayNobody, wantInboxProbed: true, wantNobodyReason: ended},
		{rule: "stderr captured: the inbox before the terminal", stdin: tty, foreground: true, inbox: true, want: WayInbox, wantInboxProbed: true},
		{rule: "stderr captured, no inbox, askuser in the foreground: /dev/tty", stdin: tty, foreground: true, want: WayTerminal, wantInboxProbed: true},
		{rule: "stderr captured, no inbox, the terminal someone else's: nobody", stdin: tty, want: WayNobody, wantInboxProbed: true,
			wantNobodyReason: "a terminal, in whose foreground askuser does not run"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			probed := false
			route := CommandLine(Place{
				StdinTTY:  tc.stdin == tty,
				StderrTTY: tc.stderrTTY,
				Nobody: func() *NoPersonError {
					switch tc.stdin {
					case null, socket, ended:
						return &NoPersonError{Stdin: tc.stdin}
					}
					return nil
				},
				Foreground: func() bool { return tc.foreground },
				Inbox: func() error {
					probed = true
					if tc.inbox {
						return nil
					}
					return errors.New("no inbox answers")
				},
			})
			i, why := route.First(context.Background(), 0)
			if route[i].Name != tc.want || probed != tc.wantInboxProbed {
				t.Errorf("asked by %q (inbox probed: %v), want %q (%v)", route[i].Name, probed, tc.want, tc.wantInboxProbed)
			}
			if tc.want != WayNobody {
				return
			}
			var person *NoPersonError
			if !errors.As(why[0], &person) || !strings.Contains(person.Stdin, tc.wantNobodyReason) {
				t.Errorf("nobody, because %v; want %q", why, tc.wantNobodyReason)
			}
		})
	}
}

// Line prompts whose input ends before the first answer asked nobody: the
// questions go on to the ways after here, the inbox else nobody, and never
// to the terminal, which stdin is not.
func TestCommandLineRouteAfterHere(t *testing.T) {
	for _, inbox := range []bool{true, false} {
		route := CommandLine(Place{
			Nobody:     func() *NoPersonError { return nil },
			Foreground: func() bool { return true },
			Inbox: func() error {
				if inbox {
					return nil
				}
				return errors.New("no inbox answers")
			},
		})
		want := map[bool]string{true: WayInbox, false: WayNobody}[inbox]
		if i, _ := route.First(context.Background(), 1); route[i].Name != want {
			t.Errorf("an inbox answers: %v; the questions went to %q, want %q", inbox, route[i].Name, want)
		}
	}
}
