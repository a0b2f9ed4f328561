//go:build unix

package view

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/ptytest"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// The terminal screen runs here over a queue of the test's, in a real
// pseudo-terminal: keys are typed on it, its screen is read, and the sets
// are checked for how they ended. The built program is tested the same
// way, with real askers, in e2e.

const (
	keyEnter = "\r"
	keyEsc   = "\x1b"
	keyTab   = "\t"
	keyCtrlC = "\x03"
	keyDown  = "\x1b[B"
)

// clock is a clock the test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// terminalRun is a Terminal screen running on a test terminal.
type terminalRun struct {
	tm     *ptytest.Term
	q      *inbox.Queue
	s      *Terminal
	clock  *clock
	cancel context.CancelCauseFunc
	done   chan error
}

func startTerminal(t *testing.T, cols, rows int) *terminalRun {
	t.Helper()
	return startTerminalGuard(t, cols, rows, 0)
}

// startTerminalGuard is startTerminal with keys paused for guard (0 for
// keyPause) when a set comes on screen on its own.
func startTerminalGuard(t *testing.T, cols, rows int, guard time.Duration) *terminalRun {
	t.Helper()
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	r := &terminalRun{tm: ptytest.New(t, cols, rows), clock: c, done: make(chan error, 1)}
	r.q = inbox.NewQueue(inbox.QueueOptions{Now: c.Now})
	r.s = NewTerminal(TerminalOptions{Queue: r.q, In: r.tm.Tty(), Out: r.tm.Tty(), Where: "/run/user/1000/askuser/inbox.sock", Home: "/home/me", keyGuard: guard})
	ctx, cancel := context.WithCancelCause(context.Background())
	r.cancel = cancel
	go func() { r.done <- r.s.Run(ctx) }()
	t.Cleanup(func() {
		cancel(errors.New("test over"))
		select {
		case <-r.done:
		case <-time.After(ptytest.Timeout):
			t.Error("Run did not return after its context ended")
		}
	})
	return r
}

func (r *terminalRun) send(keys string) { r.tm.Send(keys) }
func (r *terminalRun) expect(s string)  { r.tm.ExpectScreen(s) }

// ready waits until the set on screen takes keys: one that came on screen
// without the person moving to it takes none for keyPause, and says so.
func (r *terminalRun) ready() {
	r.tm.ExpectScreenFunc("keys no longer paused", func(s string) bool { return !strings.Contains(s, "⏸") })
}

// exit waits for Run to return, checks its error, and that the terminal
// is as it was found with lines left above the screen.
func (r *terminalRun) exit(t *testing.T, want error, lines ...string) {
	t.Helper()
	select {
	case err := <-r.done:
		if !errors.Is(err, want) && err != want {
			t.Errorf("Run = %v, want %v", err, want)
		}
	case <-time.After(ptytest.Timeout):
		t.Fatalf("Run did not return\nscreen:\n%s", r.tm.Screen())
	}
	r.done <- nil // for the cleanup
	if echo, canonical := r.tm.LineMode(); !echo || !canonical {
		t.Errorf("terminal left with echo %v, line editing %v", echo, canonical)
	}
	r.tm.Drain()
	if !r.tm.CursorVisible() {
		t.Error("cursor left hidden")
	}
	if got, want := r.tm.Screen(), strings.Join(lines, "\n"); got != want {
		t.Errorf("screen:\n%s\nwant:\n%s", got, want)
	}
}

func askSet(from string, qs ...schema.Question) *inbox.Set {
	return &inbox.Set{From: from, Questions: qs}
}

var (
	database = question("Database", "PostgreSQL", "SQLite")
	cache    = question("Cache", "Redis", "None")
)

// Idle, the screen says where the inbox waits and which keys work; a set
// that arrives is shown at once, under a banner, and answered with the
// keys of the terminal UI; its answer stays above the screen; q quits.
func TestTerminalIdleThenASet(t *testing.T) {
	r := startTerminal(t, 60, 20)
	r.expect(strings.Join([]string{
		"[askuser inbox]",
		"Waiting for questions at /run/user/1000/askuser/inbox.sock.",
		"The questions that agents ask with askuser arrive here,",
		"oldest first.",
		"",
		"q quit · Ctrl+C quit",
	}, "\n"))
	set := add(t, r.q, &inbox.Set{Cwd: "/home/me/src/api", Questions: []schema.Question{database}})
	r.expect(strings.Join([]string{
		"From ~/src/api · waiting 0s",
		"[Database]",
		"Database?",
		"",
		"❯ 1. PostgreSQL",
	}, "\n"))
	r.expect("Esc cancel · Ctrl+C quit")
	r.ready()
	r.send(keyDown + keyEnter)
	answered(t, set, labels("SQLite"))
	r.expect("✔ ~/src/api · Database: SQLite\n[askuser inbox]\nWaiting for questions at")
	r.send("q")
	r.exit(t, nil, "✔ ~/src/api · Database: SQLite")
}

// Where a set came from is shown as every text from an asker is: a
// character that draws nothing is shown by its code point, in the banner
// and in the line left above the screen.
func TestTerminalShowsInvisibleCharacters(t *testing.T) {
	r := startTerminal(t, 60, 20)
	r.expect("[askuser inbox]")
	set := add(t, r.q, askSet("claude\u200bcode", question("Data\u2060base", "Postgre\ufeffSQL", "SQLite")))
	r.expect("From claude⟨U+200B⟩code · waiting 0s\n[Data⟨U+2060⟩base]\nData⟨U+2060⟩base?\n\n❯ 1. Postgre⟨U+FEFF⟩SQL")
	r.send(keyEnter)
	answered(t, set, labels("Postgre\ufeffSQL"))
	r.expect("✔ claude⟨U+200B⟩code · Data⟨U+2060⟩base: Postgre⟨U+FEFF⟩SQL\n[askuser inbox]")
	r.send("q")
	r.exit(t, nil, "✔ claude⟨U+200B⟩code · Data⟨U+2060⟩base: Postgre⟨U+FEFF⟩SQL")
}

// Sets are shown oldest first, with how many more wait; Tab moves to the
// next, and round again; each answer goes to its own set.
func TestTerminalQueueOrderAndTab(t *testing.T) {
	r := startTerminal(t, 80, 24)
	a := add(t, r.q, askSet("alpha", database))
	b := add(t, r.q, askSet("beta", cache))
	c := add(t, r.q, &inbox.Set{From: "gamma", Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", true)}})
	r.expect("From alpha · waiting 0s · 2 more waiting\n[Database]")
	r.expect("Esc cancel · Tab next set\nCtrl+C quit")
	r.send(keyTab)
	r.expect("From beta · waiting 0s · 2 more waiting\n[Cache]")
	r.send(keyTab)
	r.expect("From gamma · waiting 0s · 2 more waiting\nDeploy?")
	r.send(keyTab)
	r.expect("From alpha · waiting 0s · 2 more waiting\n[Database]")
	if v := r.q.Snapshot(); !reflect.DeepEqual(v.Sets, []*inbox.Set{a, b, c}) {
		t.Errorf("the queue after going round: %v", v.Sets)
	}
	r.send("2")
	answered(t, a, labels("SQLite"))
	r.expect("From beta · waiting 0s · 1 more waiting\n[Cache]")
	r.send("1")
	answered(t, b, labels("Redis"))
	// Alone, the set has no next one: Tab is not listed, and does what
	// it does in askuser (here, No rather than Yes).
	r.expect("From gamma · waiting 0s\nDeploy?")
	r.expect("Esc cancel · Ctrl+C quit")
	r.send(keyTab)
	r.expect("❯ No")
	r.send(keyEnter)
	if e := ended(t, c); e.State != inbox.Answered || schema.IsYes(e.Answers[0]) {
		t.Errorf("the confirm set ended %+v, want answered no", e)
	}
	r.expect("✔ alpha · Database: SQLite\n✔ beta · Cache: Redis\n✔ gamma · Deploy? No\n[askuser inbox]")
}

// A set that arrives while another is shown, half answered, updates the
// count at once, and what is being typed is kept. The time waited ticks.
func TestTerminalArrivalWhileTyping(t *testing.T) {
	r := startTerminal(t, 80, 24)
	a := add(t, r.q, askSet("alpha", database))
	r.expect("From alpha · waiting 0s\n[Database]")
	r.send("0")
	r.expect("Your answer:")
	r.send("Mar")
	r.expect("Your answer: Mar")
	add(t, r.q, askSet("beta", cache))
	r.expect("From alpha · waiting 0s · 1 more waiting\n[Database]")
	r.expect("Your answer: Mar")
	r.clock.add(2*time.Minute + 5*time.Second)
	r.expect("From alpha · waiting 2m · 1 more waiting\n")
	r.send("ia" + keyEnter)
	answered(t, a, prompt.Answer{Other: "Maria"})
	r.expect("✔ alpha · Database: Maria\nFrom beta · waiting 2m\n[Cache]")
}

// Esc in the answer of one's own goes back to the options, as in the
// terminal UI, rather than cancel the set; what is chosen then answers it.
func TestTerminalBackFromOther(t *testing.T) {
	r := startTerminal(t, 80, 24)
	a := add(t, r.q, askSet("alpha", database))
	r.expect("From alpha · waiting 0s")
	r.ready()
	r.send("0")
	r.expect("Your answer:")
	r.send(keyEsc)
	r.expect("❯ 0. Other")
	stillWaits(t, a)
	r.send("2")
	answered(t, a, labels("SQLite"))
}

// Esc cancels the set shown, and the next one shows; a key typed with the
// answer of one set does not answer the next, which the person had not
// seen.
func TestTerminalEscAndTypedAhead(t *testing.T) {
	r := startTerminal(t, 80, 24)
	a := add(t, r.q, askSet("alpha", database))
	b := add(t, r.q, askSet("beta", database))
	c := add(t, r.q, askSet("gamma", database))
	r.expect("From alpha · waiting 0s · 2 more waiting")
	r.ready()
	r.send(keyEsc)
	if e := ended(t, a); e.State != inbox.Cancelled {
		t.Errorf("Esc: the set ended %v, want cancelled", e.State)
	}
	r.expect("✖ Cancelled the questions from alpha.\nFrom beta · waiting 0s · 1 more waiting")
	r.send("1" + "2") // 2 is typed ahead, before gamma's questions are shown
	answered(t, b, labels("PostgreSQL"))
	r.expect("From gamma · waiting 0s\n[Database]")
	r.expect("❯ 1. PostgreSQL")
	r.send(keyEnter)
	answered(t, c, labels("PostgreSQL"))
}

// A set that ends elsewhere while it is shown (its asker went, or another
// view answered it) leaves the screen at once, and a line says so.
func TestTerminalEndedElsewhere(t *testing.T) {
	r := startTerminal(t, 80, 24)
	a := add(t, r.q, askSet("alpha", database))
	b := add(t, r.q, askSet("beta", database))
	add(t, r.q, askSet("gamma", database))
	r.expect("From alpha · waiting 0s · 2 more waiting")
	r.ready()
	r.send("n")
	r.expect("Note:")
	r.send("half a no")
	r.expect("Note: half a no")
	start := time.Now()
	r.q.Withdraw(a, "the asker went away")
	r.expect("✖ The questions from alpha were withdrawn (the asker went away).\nFrom beta · waiting 0s · 1 more waiting")
	if d := time.Since(start); d > testutil.Slow {
		t.Errorf("the withdrawn set left the screen after %s", d)
	}
	r.expect("❯ 1. PostgreSQL")
	// Answered on the web page: its answers are recorded as those given
	// here are, saying where.
	if err := r.q.Answer(b, inbox.ViaPage, []prompt.Answer{labels("SQLite")}); err != nil {
		t.Fatal(err)
	}
	r.expect("✔ beta, on the web page · Database: SQLite\nFrom gamma · waiting 0s\n")
}

// Every set that ends leaves a line above the screen, whichever view
// ended it and whether it was shown or waited behind: the answers given
// on the web page as those given here, a cancel there, a withdrawal, and
// the end that another inbox on the queue gave.
func TestTerminalRecordsEveryOutcome(t *testing.T) {
	r := startTerminal(t, 80, 30)
	a := add(t, r.q, askSet("alpha", database, cache))
	b := add(t, r.q, askSet("beta", database))
	c := add(t, r.q, askSet("gamma", database))
	d := add(t, r.q, askSet("delta", database))
	e := add(t, r.q, askSet("epsilon", database))
	r.expect("From alpha · waiting 0s · 4 more waiting")
	r.ready()
	if err := r.q.Answer(b, inbox.ViaPage, []prompt.Answer{{Labels: []string{"SQLite"}, Note: "small"}}); err != nil {
		t.Fatal(err)
	}
	if err := r.q.Cancel(c, inbox.ViaPage); err != nil {
		t.Fatal(err)
	}
	r.q.Withdraw(d, "the asker went away")
	r.q.EndElsewhere(e, inbox.End{State: inbox.Answered, Reason: "by bob@laptop"})
	r.expect("From alpha · waiting 0s\n")
	r.send("2")
	r.expect("[Cache]")
	r.send("1")
	r.expect("Submit")
	r.send(keyEnter)
	answered(t, a, labels("SQLite"), labels("Redis"))
	r.expect("askuser inbox")
	r.send("q")
	r.exit(t, nil,
		"✔ beta, on the web page · Database: SQLite",
		"  Note: small",
		"✖ The questions from gamma were cancelled on the web page.",
		"✖ The questions from delta were withdrawn (the asker went away).",
		"✔ The questions from epsilon were answered elsewhere (by bob@laptop).",
		"✔ alpha · Database: SQLite",
		"✔ alpha · Cache: Redis")
}

// A set that comes on screen without the person moving to it (the one
// shown was withdrawn or answered elsewhere, which it names, or it is the
// first to arrive) takes no keys for a while (keyPause; longer here, for a
// busy machine), and says so: a key pressed 20, 100 or 400 ms after the
// set before was withdrawn, meant for that one, does not answer it. Once
// the guard is over, keys answer it. (A set the person moved to, by
// answering the one before or Tab, takes keys at once: see
// TestTerminalQueueOrderAndTab.)
func TestTerminalKeyGuard(t *testing.T) {
	for _, why := range []string{"withdrawn", "answered on the web page"} {
		t.Run(why, func(t *testing.T) {
			r := startTerminalGuard(t, 100, 24, 1500*time.Millisecond)
			a := add(t, r.q, askSet("alpha", database))
			b := add(t, r.q, askSet("beta", database))
			r.expect("From alpha · waiting 0s · 1 more waiting")
			r.ready()
			gone := time.Now()
			if why == "withdrawn" {
				r.q.Withdraw(a, "the asker went away")
			} else if err := r.q.Answer(a, inbox.ViaPage, []prompt.Answer{labels("SQLite")}); err != nil {
				t.Fatal(err)
			}
			for _, at := range []time.Duration{20, 100, 400} {
				time.Sleep(time.Until(gone.Add(at * time.Millisecond)))
				r.send("2")
			}
			r.expect("From beta · waiting 0s")
			r.ready()
			stillWaits(t, b)
			for _, want := range []string{
				"⏸ New questions: keys are paused for a moment.",
				"⏸ The questions before were " + why + ": keys are paused for a moment.",
				"✖ A key pressed as these questions appeared was ignored: press it again.",
			} {
				if !strings.Contains(r.tm.Raw(), want) {
					t.Errorf("the screen never said %q", want)
				}
			}
			r.send("1")
			answered(t, b, labels("PostgreSQL"))
		})
	}
}

// 0 chooses Other and n writes a note, as in askuser; several questions
// end in the review; confirm and input sets have their own screens.
func TestTerminalScreensOfTheTerminalUI(t *testing.T) {
	r := startTerminal(t, 80, 30)
	a := add(t, r.q, askSet("alpha", database, cache))
	c := add(t, r.q, &inbox.Set{From: "beta", Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", false)}})
	i := add(t, r.q, &inbox.Set{From: "gamma", Questions: []schema.Question{schema.InputQuestion("Branch?", "", "main")}})
	r.expect("From alpha · waiting 0s · 2 more waiting\n[Database]  Question 1 of 2")
	r.send("n")
	r.expect("Note:")
	r.send("fits" + keyEnter)
	r.expect("Note: fits")
	r.send("0")
	r.expect("Your answer:")
	r.send("MariaDB" + keyEnter)
	r.expect("[Cache]  Question 2 of 2")
	r.send("2")
	r.expect("From alpha · waiting 0s · 2 more waiting\n[Review]\nSubmit these answers?")
	r.send(keyEnter)
	answered(t, a, prompt.Answer{Other: "MariaDB", Note: "fits"}, labels("None"))
	r.expect("✔ alpha · Database: MariaDB\n  Note: fits\n✔ alpha · Cache: None\nFrom beta")
	r.expect("Deploy?\n\n  Yes   ❯ No")
	r.send("y")
	if e := ended(t, c); e.State != inbox.Answered || !schema.IsYes(e.Answers[0]) {
		t.Errorf("confirm ended %+v", e)
	}
	r.expect("From gamma · waiting 0s\nBranch?\n\nYour answer:")
	r.expect(`Enter for "main"`)
	r.send(keyEnter)
	if e := ended(t, i); e.State != inbox.Answered || e.Answers[0].Other != "main" {
		t.Errorf("input ended %+v", e)
	}
	r.expect("✔ gamma · Branch? main\n[askuser inbox]")
}

// Ctrl+C quits from any screen, and q from the idle one only; the sets
// still waiting are left to the caller, which tells their askers. Every
// way out gives the terminal back as it was found.
func TestTerminalQuit(t *testing.T) {
	t.Run("Ctrl+C", func(t *testing.T) {
		r := startTerminal(t, 60, 20)
		a := add(t, r.q, askSet("alpha", database))
		r.expect("From alpha")
		r.ready()
		r.send("0")
		r.expect("Your answer:")
		r.send("q" + keyCtrlC)
		r.exit(t, nil, "")
		if e := a.End(); e.State != inbox.Waiting {
			t.Errorf("the set shown ended %v", e.State)
		}
	})
	t.Run("Ctrl+C idle", func(t *testing.T) {
		r := startTerminal(t, 60, 20)
		r.expect("q quit")
		r.send(keyCtrlC)
		r.exit(t, nil, "")
	})
	t.Run("signal", func(t *testing.T) {
		r := startTerminal(t, 60, 20)
		add(t, r.q, askSet("alpha", database))
		r.expect("From alpha")
		stop := errors.New("terminated")
		r.cancel(stop)
		r.exit(t, stop, "")
	})
	t.Run("signal idle", func(t *testing.T) {
		r := startTerminal(t, 60, 20)
		r.expect("q quit")
		stop := errors.New("terminated")
		r.cancel(stop)
		r.exit(t, stop, "")
	})
	t.Run("queue closed", func(t *testing.T) {
		r := startTerminal(t, 60, 20)
		add(t, r.q, askSet("alpha", database))
		r.expect("From alpha")
		r.q.Close("the inbox is quitting")
		r.exit(t, nil, "")
	})
}

// What else the inbox says while the screen runs goes above it, and a
// bell goes through as it is.
func TestTerminalWrite(t *testing.T) {
	r := startTerminal(t, 80, 20)
	add(t, r.q, askSet("alpha", database))
	r.expect("From alpha")
	if _, err := r.s.Write([]byte("\a")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.s.Write([]byte("Warning: ASKUSER_NOTIFY_COMMAND failed: exit status 3: \x1b[2Jbroken\n")); err != nil {
		t.Fatal(err)
	}
	r.expect("Warning: ASKUSER_NOTIFY_COMMAND failed: exit status 3: \\x1b[2Jbroken\nFrom alpha · waiting 0s\n[Database]")
	r.send(keyCtrlC)
	r.exit(t, nil, "Warning: ASKUSER_NOTIFY_COMMAND failed: exit status 3: \\x1b[2Jbroken")
	if !strings.Contains(r.tm.Raw(), "\a") {
		t.Error("the bell did not reach the terminal")
	}
}

func TestUntilChange(t *testing.T) {
	for _, c := range []struct{ d, want time.Duration }{
		{0, time.Second},
		{1500 * time.Millisecond, 500 * time.Millisecond},
		{59 * time.Second, time.Second},
		{61*time.Second + 250*time.Millisecond, 750 * time.Millisecond},
		{2*time.Hour + 30*time.Second, time.Second},
		{-time.Second, time.Second},
		{-300 * time.Millisecond, time.Second},
	} {
		if got := untilChange(c.d); got != c.want {
			t.Errorf("untilChange(%s) = %s, want %s", c.d, got, c.want)
		}
	}
}
