//go:build unix

// Package ptytest runs code that talks to a terminal inside a real
// pseudo-terminal, for tests: a go-expect console drives the terminal's
// input and reads its output, and a vt10x virtual screen behind it shows
// what a person would see. This is how survey tests itself.
//
// A test either hands Tty to the code under test (running in its own
// goroutine) or starts a command on it with Start, then alternates Send
// with Expect or ExpectScreen, and finally calls Drain (after the code has
// returned) to read the rest of the output before looking at Screen or Raw.
package ptytest

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	expect "github.com/Netflix/go-expect"
	"github.com/creack/pty"
	"github.com/hinshun/vt10x"
	"golang.org/x/sys/unix"

	"github.com/askuser/askuser/internal/testutil"
)

// Timeout is how long an expectation waits for the output it wants. It is
// generous because tests run with -race on small machines, and the
// expectations return as soon as the output is there.
const Timeout = 10 * time.Second

// Term is a pseudo-terminal with a virtual screen.
type Term struct {
	t       testing.TB
	console *expect.Console
	screen  vt10x.Terminal
	raw     testutil.Buffer
	replies replyWriter
	drained bool
}

// New opens a pseudo-terminal of the given size. It is closed when the
// test ends.
func New(t testing.TB, cols, rows int) *Term {
	t.Helper()
	tm := &Term{t: t}
	// The virtual screen answers queries such as the cursor position
	// report (survey's prompts ask for it) by typing the answer back.
	tm.screen = vt10x.New(vt10x.WithSize(cols, rows), vt10x.WithWriter(&tm.replies))
	c, err := expect.NewConsole(
		expect.WithStdout(tm.screen, &tm.raw),
		expect.WithDefaultTimeout(Timeout),
	)
	if err != nil {
		t.Fatalf("open pseudo-terminal: %v", err)
	}
	tm.console = c
	tm.replies.set(c)
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("close pseudo-terminal: %v", err)
		}
	})
	if err := pty.Setsize(c.Tty(), &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		t.Fatalf("set terminal size: %v", err)
	}
	return tm
}

// Tty is the terminal side of the pseudo-terminal, to read keys from and
// draw on.
func (tm *Term) Tty() *os.File { return tm.console.Tty() }

// Send types s on the terminal.
func (tm *Term) Send(s string) {
	tm.t.Helper()
	if _, err := tm.console.Send(s); err != nil {
		tm.t.Fatalf("send %q: %v", s, err)
	}
}

// Expect reads output until it has seen s (escape sequences included)
// since the last expectation, and fails the test after Timeout.
func (tm *Term) Expect(s string) {
	tm.t.Helper()
	if _, err := tm.console.ExpectString(s); err != nil {
		tm.t.Fatalf("expect %q: %v\nscreen:\n%s", s, err, tm.Screen())
	}
}

// ExpectScreen reads output until the screen shows s, which may span
// lines ("a\nb" is "a" at the end of a line and "b" at the start of the
// next; lines are compared without trailing spaces), and fails the test
// after Timeout.
func (tm *Term) ExpectScreen(s string) {
	tm.t.Helper()
	tm.ExpectScreenFunc(fmt.Sprintf("screen showing %q", s), func(screen string) bool {
		return strings.Contains(screen, s)
	})
}

// ExpectScreenFunc reads output until ok says yes to the screen, and fails
// the test, naming what, after Timeout.
func (tm *Term) ExpectScreenFunc(what string, ok func(screen string) bool) {
	tm.t.Helper()
	deadline := time.Now().Add(Timeout)
	for !ok(tm.Screen()) {
		if time.Now().After(deadline) {
			tm.t.Fatalf("expect %s: timed out\nscreen:\n%s", what, tm.Screen())
		}
		// Rendering the screen for every character read would be slow,
		// so read until the output pauses and look at the screen then.
		_, err := tm.console.Expect(expect.String("\x00never"), expect.WithTimeout(pause))
		if err != nil && !os.IsTimeout(err) {
			tm.t.Fatalf("expect %s: %v\nscreen:\n%s", what, err, tm.Screen())
		}
	}
}

// pause is how long the output must stop for ExpectScreen to look at the
// screen again. Programs write a whole frame at once, so the screen is
// looked at about once a frame.
const pause = 20 * time.Millisecond

// Drain closes the terminal side and reads the output that is left, so
// that Screen and Raw show everything that was written. Call it only once
// nothing uses Tty any more.
func (tm *Term) Drain() {
	tm.t.Helper()
	if tm.drained {
		return
	}
	tm.drained = true
	if err := tm.Tty().Close(); err != nil {
		tm.t.Fatalf("close terminal: %v", err)
	}
	if _, err := tm.console.ExpectEOF(); err != nil {
		tm.t.Fatalf("read the rest of the output: %v", err)
	}
}

// Screen is what the screen shows, one line per row without trailing
// spaces, without the empty rows at the bottom.
func (tm *Term) Screen() string {
	lines := strings.Split(tm.screen.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// CursorVisible says whether the screen shows the cursor.
func (tm *Term) CursorVisible() bool { return tm.screen.CursorVisible() }

// LineMode reports whether the terminal echoes what is typed and edits it
// a line at a time, as a shell leaves it; a program in raw mode turns both
// off and must turn them back on.
func (tm *Term) LineMode() (echo, canonical bool) {
	tm.t.Helper()
	tio, err := unix.IoctlGetTermios(int(tm.Tty().Fd()), ioctlGetTermios)
	if err != nil {
		tm.t.Fatalf("read terminal mode: %v", err)
	}
	return tio.Lflag&unix.ECHO != 0, tio.Lflag&unix.ICANON != 0
}

// Raw is every byte written to the terminal so far.
func (tm *Term) Raw() string { return tm.raw.String() }

// Start starts cmd on the terminal as its controlling terminal, in a new
// session, so that it can also open /dev/tty. Stdin, Stdout and Stderr
// that are nil are connected to the terminal; set Stdout to a buffer to
// keep a program's result apart from its prompts.
func (tm *Term) Start(cmd *exec.Cmd) error {
	tty := tm.Tty()
	if cmd.Stdin == nil {
		cmd.Stdin = tty
	}
	if cmd.Stdout == nil {
		cmd.Stdout = tty
	}
	if cmd.Stderr == nil {
		cmd.Stderr = tty
	}
	ctty := 0
	if cmd.Stdin != tty {
		cmd.ExtraFiles = append(cmd.ExtraFiles, tty)
		ctty = 2 + len(cmd.ExtraFiles)
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true
	cmd.SysProcAttr.Setctty = true
	cmd.SysProcAttr.Ctty = ctty
	return cmd.Start()
}

// replyWriter forwards what the screen answers to the console, once there
// is one.
type replyWriter struct {
	mu sync.Mutex
	c  *expect.Console
}

func (w *replyWriter) set(c *expect.Console) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.c = c
}

func (w *replyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	c := w.c
	w.mu.Unlock()
	if c == nil {
		return len(p), nil
	}
	return c.Write(p)
}
