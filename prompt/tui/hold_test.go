//go:build unix

package tui_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/ptytest"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/tui"
	"github.com/askuser/askuser/schema"
)

// The options and calls that askuser inbox builds its terminal screen on:
// a banner and hints of the caller's, keys it takes, redraws it asks for,
// and a terminal held across several calls.

const tab = "\t"

// chrome is what a test caller shows around the prompts, changed while
// they run.
type chrome struct {
	mu     sync.Mutex
	banner []string
	hints  []string
	takes  map[tui.Key]bool
	redraw chan struct{}
}

func newChrome(banner ...string) *chrome {
	return &chrome{banner: banner, takes: map[tui.Key]bool{}, redraw: make(chan struct{}, 1)}
}

func (c *chrome) set(f func(c *chrome)) {
	c.mu.Lock()
	f(c)
	c.mu.Unlock()
	c.redraw <- struct{}{}
}

func (c *chrome) options(tm *ptytest.Term) tui.Options {
	return tui.Options{
		In: tm.Tty(), Out: tm.Tty(), Review: true,
		Banner: func() []string { c.mu.Lock(); defer c.mu.Unlock(); return c.banner },
		Hints:  func() []string { c.mu.Lock(); defer c.mu.Unlock(); return c.hints },
		Take:   func(k tui.Key) bool { c.mu.Lock(); defer c.mu.Unlock(); return c.takes[k] },
		Redraw: c.redraw,
	}
}

// call runs f, a call of the terminal UI, in its own goroutine.
type call struct {
	done chan struct{}
	v    any
	err  error
}

func start(t *testing.T, f func() (any, error)) *call {
	c := &call{done: make(chan struct{})}
	go func() {
		defer close(c.done)
		c.v, c.err = f()
	}()
	return c
}

func (c *call) wait(t *testing.T) (any, error) {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(ptytest.Timeout):
		t.Fatal("the call did not return")
	}
	return c.v, c.err
}

// The banner is drawn above every frame; a redraw brings it and the hints
// up to date while an answer is being typed, and nothing typed is lost.
func TestBannerAndRedraw(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	c := newChrome("From ~/src/api", "waiting 3s")
	ui := tui.New(c.options(tm))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ask := start(t, func() (any, error) { return ui.Ask(ctx, []schema.Question{database}) })
	tm.ExpectScreen("From ~/src/api · waiting 3s\n[Database]\nWhich database should we use?")
	tm.Send("0")
	tm.ExpectScreen("From ~/src/api · waiting 3s\n[Database]")
	tm.ExpectScreen("Your answer:")
	tm.Send("Mar")
	tm.ExpectScreen("Your answer: Mar")
	c.set(func(c *chrome) {
		c.banner = []string{"From ~/src/api", "waiting 4s", "2 more waiting"}
		c.hints = []string{"Tab next set"}
	})
	tm.ExpectScreen("From ~/src/api · waiting 4s · 2 more waiting\n[Database]")
	tm.ExpectScreen("Your answer: Mar\n\nEnter submit · Esc back · Ctrl+C cancel · Tab next set")
	tm.Send("ia" + enter)
	got, err := ask.wait(t)
	if err != nil || !reflect.DeepEqual(got, []prompt.Answer{{Other: "Maria"}}) {
		t.Errorf("Ask = %v, %v; want Maria", got, err)
	}
	checkRestored(t, tm)
}

// A banner too wide for the terminal keeps its first parts, cut short.
func TestBannerNarrow(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 30, 20)
	c := newChrome("From ~/src/a-rather-long-project-name", "waiting 3s")
	ui := tui.New(c.options(tm))
	ctx, cancel := context.WithCancel(context.Background())
	ask := start(t, func() (any, error) { return ui.Ask(ctx, []schema.Question{schema.ConfirmQuestion("Deploy?", true)}) })
	tm.ExpectScreen("From ~/src/a-rather-long-pro…\nDeploy?")
	c.set(func(c *chrome) { c.banner = []string{"From agent", "waiting 3s", "12 more waiting"} })
	tm.ExpectScreen("From agent · waiting 3s · 12…\nDeploy?")
	cancel()
	ask.wait(t)
	checkRestored(t, tm)
}

// Keys the caller takes end the call with a *KeyError, on every screen;
// the others do what they always do. Esc still cancels.
func TestTakenKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		takes []tui.Key
		steps []string // keys, then what the screen shows, in turn
		key   tui.Key  // the KeyError wanted, or ""
		err   error    // else this error
	}{
		{"Tab in the list", []tui.Key{tui.KeyTab}, []string{tab}, tui.KeyTab, nil},
		{"Tab in the Other prompt", []tui.Key{tui.KeyTab}, []string{"0", "Your answer:", "x" + tab}, tui.KeyTab, nil},
		{"Ctrl+C in the note", []tui.Key{tui.KeyInterrupt}, []string{"n", "Enter no note · Esc back · Tab next · Ctrl+C quit", ctrlC}, tui.KeyInterrupt, nil},
		{"Ctrl+C not taken", []tui.Key{tui.KeyTab}, []string{ctrlC}, "", prompt.ErrCancelled},
		{"Esc with Ctrl+C taken", []tui.Key{tui.KeyInterrupt}, []string{esc}, "", prompt.ErrCancelled},
		{"Esc in the note goes back", []tui.Key{tui.KeyInterrupt}, []string{"n", "Note:", "x" + esc, "❯ 1. PostgreSQL", esc}, "", prompt.ErrCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tm := ptytest.New(t, 80, 30)
			c := newChrome()
			c.hints = []string{"Tab next", "Ctrl+C quit"}
			for _, k := range tc.takes {
				c.takes[k] = true
			}
			ui := tui.New(c.options(tm))
			ask := start(t, func() (any, error) { return ui.Ask(context.Background(), []schema.Question{database}) })
			tm.ExpectScreen("❯ 1. PostgreSQL")
			for i, s := range tc.steps {
				if i%2 == 0 {
					tm.Send(s)
				} else {
					tm.ExpectScreen(s)
				}
			}
			_, err := ask.wait(t)
			key, ok := errors.AsType[*tui.KeyError](err)
			switch {
			case tc.key != "" && (!ok || key.Key != tc.key):
				t.Errorf("Ask error = %v, want the KeyError of %v", err, tc.key)
			case tc.key == "" && !errors.Is(err, tc.err):
				t.Errorf("Ask error = %v, want %v", err, tc.err)
			}
			checkRestored(t, tm)
		})
	}
}

// Where Tab is not taken, it does what it does for askuser: in a yes/no
// question, it moves between Yes and No.
func TestTabNotTaken(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	c := newChrome("From agent")
	ui := tui.New(c.options(tm))
	ask := start(t, func() (any, error) {
		return ui.Ask(context.Background(), []schema.Question{schema.ConfirmQuestion("Deploy?", true)})
	})
	tm.ExpectScreen("❯ Yes     No")
	tm.Send(tab)
	tm.ExpectScreen("  Yes   ❯ No")
	c.set(func(c *chrome) { c.takes[tui.KeyTab] = true })
	tm.ExpectScreen("  Yes   ❯ No")
	tm.Send(tab)
	_, err := ask.wait(t)
	if key, ok := errors.AsType[*tui.KeyError](err); !ok || key.Key != tui.KeyTab {
		t.Errorf("Confirm error = %v, want Tab's KeyError", err)
	}
	checkRestored(t, tm)
}

// A held terminal stays in raw mode between calls, and a key typed ahead
// waits for the next call; Release gives the terminal back.
func TestHoldKeepsTheTerminal(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	ui := tui.New(tui.Options{In: tm.Tty(), Out: tm.Tty()})
	if err := ui.Hold(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first := start(t, func() (any, error) { return ui.Ask(ctx, []schema.Question{database}) })
	tm.ExpectScreen("❯ 1. PostgreSQL")
	tm.Send("1" + "2") // the answer, and one typed ahead for the next set
	if got, err := first.wait(t); err != nil || !reflect.DeepEqual(got, []prompt.Answer{labels("PostgreSQL (Recommended)")}) {
		t.Fatalf("first Ask = %v, %v", got, err)
	}
	if echo, canonical := tm.LineMode(); echo || canonical {
		t.Errorf("between calls: echo %v, line editing %v; want raw mode", echo, canonical)
	}
	if err := ui.Print("✔ first"); err != nil {
		t.Fatal(err)
	}
	second := start(t, func() (any, error) { return ui.Ask(ctx, []schema.Question{database}) })
	if got, err := second.wait(t); err != nil || !reflect.DeepEqual(got, []prompt.Answer{labels("SQLite")}) {
		t.Errorf("second Ask = %v, %v; want the key typed ahead, 2", got, err)
	}
	if err := ui.Release(); err != nil {
		t.Fatal(err)
	}
	checkReleased(t, tm, "✔ first")
}

// checkReleased checks that the terminal is back in line mode with the
// cursor shown, and that only the lines printed are left on the screen.
func checkReleased(t *testing.T, tm *ptytest.Term, screen string) {
	t.Helper()
	if echo, canonical := tm.LineMode(); !echo || !canonical {
		t.Errorf("terminal left with echo %v, line editing %v", echo, canonical)
	}
	tm.Drain()
	if !tm.CursorVisible() {
		t.Error("cursor left hidden")
	}
	if s := tm.Screen(); s != screen {
		t.Errorf("screen:\n%s\nwant:\n%s", s, screen)
	}
}

// After Forget, what was typed before the next frame is dropped, but
// Ctrl+C.
func TestForget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		ahead string
		then  string
		want  []prompt.Answer
		err   error
	}{
		{"a digit", "2", enter, []prompt.Answer{labels("PostgreSQL (Recommended)")}, nil},
		{"Esc", esc, "2", []prompt.Answer{labels("SQLite")}, nil},
		{"Ctrl+C is kept", "2" + ctrlC, "", nil, prompt.ErrCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tm := ptytest.New(t, 60, 30)
			ui := tui.New(tui.Options{In: tm.Tty(), Out: tm.Tty()})
			if err := ui.Hold(); err != nil {
				t.Fatal(err)
			}
			defer ui.Release()
			ctx := context.Background()
			first := start(t, func() (any, error) { return ui.Ask(ctx, []schema.Question{features}) })
			tm.ExpectScreen("❯ [ ] 1. Auth")
			tm.Send("1" + enter + tc.ahead)
			if _, err := first.wait(t); err != nil {
				t.Fatal(err)
			}
			ui.Forget()
			second := start(t, func() (any, error) { return ui.Ask(ctx, []schema.Question{database}) })
			if tc.then != "" {
				tm.ExpectScreen("❯ 1. PostgreSQL")
				tm.Send(tc.then)
			}
			got, err := second.wait(t)
			if !errors.Is(err, tc.err) || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("second Ask = %v, %v; want %v, %v", got, err, tc.want, tc.err)
			}
		})
	}
}

// After Pause, the next frame takes no keys for the time given, and says
// so above it: keys pressed meanwhile, Esc too, are dropped, not kept;
// once it is over, a line says a key was ignored until the next key, and
// keys work. Ctrl+C still cancels.
func TestPause(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		keys  []string // sent at 20, 100 and 400 ms after the frame shows
		after string   // sent once the pause is over
		want  []prompt.Answer
		err   error
	}{
		{"digits and Esc are dropped", []string{"2", esc, enter}, "2", []prompt.Answer{labels("SQLite")}, nil},
		{"nothing pressed", nil, enter, []prompt.Answer{labels("PostgreSQL (Recommended)")}, nil},
		{"Ctrl+C is kept", []string{"2", ctrlC}, "", nil, prompt.ErrCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tm := ptytest.New(t, 80, 30)
			ui := tui.New(tui.Options{In: tm.Tty(), Out: tm.Tty()})
			if err := ui.Hold(); err != nil {
				t.Fatal(err)
			}
			defer ui.Release()
			const pause = time.Second
			ui.Pause(pause, "New questions: keys are paused for a moment.")
			// The pause runs from the frame's drawing, which comes after
			// begun and before the test sees it (late, on a busy machine).
			begun := time.Now()
			ask := start(t, func() (any, error) { return ui.Ask(context.Background(), []schema.Question{database}) })
			tm.ExpectScreen("⏸ New questions: keys are paused for a moment.\n[Database]")
			shown := time.Now()
			for i, at := range []time.Duration{20, 100, 400}[:len(tc.keys)] {
				time.Sleep(time.Until(shown.Add(at * time.Millisecond)))
				tm.Send(tc.keys[i])
			}
			if tc.after != "" {
				if len(tc.keys) > 0 {
					tm.ExpectScreen("✖ A key pressed as these questions appeared was ignored: press it again.\n[Database]")
				} else {
					tm.ExpectScreenFunc("the frame without the mark", func(s string) bool {
						return strings.HasPrefix(s, "[Database]")
					})
				}
				if d := time.Since(begun); d < pause {
					t.Errorf("the pause ended after %s, not %s", d, pause)
				}
				tm.Send(tc.after)
			}
			got, err := ask.wait(t)
			if !errors.Is(err, tc.err) || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Ask = %v, %v; want %v, %v", got, err, tc.want, tc.err)
			}
		})
	}
}

// Idle shows its screen until q, Ctrl+C or the end of its context; other
// keys do nothing.
func TestIdle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		keys string
		take bool
		err  error
		key  tui.Key
	}{
		{"q", "xq", false, tui.ErrQuit, ""},
		{"Ctrl+C taken", "x" + tab + ctrlC, true, nil, tui.KeyInterrupt},
		{"Ctrl+C", esc + ctrlC, false, prompt.ErrCancelled, ""},
		{"context", "", false, context.Canceled, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tm := ptytest.New(t, 40, 20)
			c := newChrome()
			if tc.take {
				c.takes[tui.KeyInterrupt] = true
				c.hints = []string{"Ctrl+C quit"}
			}
			ui := tui.New(c.options(tm))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			idle := start(t, func() (any, error) {
				return nil, ui.Idle(ctx, "askuser inbox", "Waiting for questions at /run/user/1000/askuser/inbox.sock.\nThey arrive here.")
			})
			want := "[askuser inbox]\nWaiting for questions at\n/run/user/1000/askuser/inbox.sock.\nThey arrive here.\n\nq quit"
			if tc.take {
				want += " · Ctrl+C quit"
			}
			tm.ExpectScreen(want)
			if echo, canonical := tm.LineMode(); echo || canonical {
				t.Errorf("idle: echo %v, line editing %v; want raw mode", echo, canonical)
			}
			if tc.keys == "" {
				cancel()
			} else {
				tm.Send(tc.keys)
			}
			_, err := idle.wait(t)
			key, ok := errors.AsType[*tui.KeyError](err)
			switch {
			case tc.key != "" && (!ok || key.Key != tc.key):
				t.Errorf("Idle error = %v, want the KeyError of %v", err, tc.key)
			case tc.key == "" && !errors.Is(err, tc.err):
				t.Errorf("Idle error = %v, want %v", err, tc.err)
			}
			checkRestored(t, tm)
		})
	}
}

// Print, PrintSummary and PrintNotice leave lines above the frame, which
// is drawn again under them, from any goroutine.
func TestPrintAboveTheFrame(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 80, 30)
	ui := tui.New(tui.Options{In: tm.Tty(), Out: tm.Tty()})
	if err := ui.Hold(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ask := start(t, func() (any, error) { return ui.Ask(ctx, []schema.Question{database}) })
	tm.ExpectScreen("❯ 1. PostgreSQL")
	tm.Send(down)
	tm.ExpectScreen("❯ 2. SQLite")
	printed := make(chan error, 1)
	go func() {
		printed <- errors.Join(
			ui.Print("Warning: ASKUSER_NOTIFY_COMMAND failed"),
			ui.PrintNotice(false, "The questions from \x1b[2Japi were withdrawn (the asker went away)."),
		)
	}()
	if err := <-printed; err != nil {
		t.Fatal(err)
	}
	tm.ExpectScreen("Warning: ASKUSER_NOTIFY_COMMAND failed\n✖ The questions from \\x1b[2Japi were withdrawn (the asker went away).\n[Database]\nWhich database should we use?\n\n  1. PostgreSQL (Recommended)")
	tm.ExpectScreen("❯ 2. SQLite")
	tm.Send(enter)
	got, err := ask.wait(t)
	if err != nil {
		t.Fatal(err)
	}
	if err := ui.PrintSummary("~/src/api · ", prompt.Summarize([]schema.Question{database}, got.([]prompt.Answer))); err != nil {
		t.Fatal(err)
	}
	if err := ui.PrintNotice(true, "The questions from agent were answered elsewhere."); err != nil {
		t.Fatal(err)
	}
	if err := ui.Release(); err != nil {
		t.Fatal(err)
	}
	if err := ui.Print("After release"); err != nil {
		t.Fatal(err)
	}
	checkReleased(t, tm, strings.Join([]string{
		"Warning: ASKUSER_NOTIFY_COMMAND failed",
		"✖ The questions from \\x1b[2Japi were withdrawn (the asker went away).",
		"✔ ~/src/api · Database: SQLite",
		"✔ The questions from agent were answered elsewhere.",
		"After release",
	}, "\n"))
}
