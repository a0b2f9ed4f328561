//go:build unix

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/ptytest"
	"github.com/askuser/askuser/internal/testutil"
)

// These tests run askuser inbox in a pseudo-terminal, as a person runs it
// in a tmux pane, and askers against it with stdin from /dev/null, as
// agents run them: keys are typed on the inbox's terminal, its screen is
// read, and each asker's exit code and stdout are checked exactly.

// inboxTerm is askuser inbox running on a pseudo-terminal.
type inboxTerm struct {
	*process
	t      *testing.T
	tm     *ptytest.Term
	addr   inbox.SocketAddr
	dir    string // where the askers run, with q.json
	stdout bytes.Buffer
}

func startInboxTerm(t *testing.T, env ...string) *inboxTerm {
	t.Helper()
	r := &inboxTerm{t: t, tm: ptytest.New(t, 100, 30), addr: inbox.SocketAddr(filepath.Join(t.TempDir(), "inbox.sock")), dir: questionsDir(t)}
	cmd := exec.Command(askuserPath(t), "inbox")
	cmd.Env = append(append(cleanEnv(t), "NO_COLOR=1", "ASKUSER_INBOX="+string(r.addr)), env...)
	cmd.Stdout = &r.stdout
	r.process = startProcess(t, cmd, r.tm.Start)
	r.expect("[askuser inbox]\nWaiting for questions at")
	r.expect(string(r.addr) + ".")
	r.expect("q quit · Ctrl+C quit")
	return r
}

func (r *inboxTerm) send(keys string) { r.t.Helper(); r.tm.Send(keys) }
func (r *inboxTerm) expect(s string)  { r.t.Helper(); r.tm.ExpectScreen(s) }

// ready waits until the set on screen takes keys: one that came on screen
// without the person moving to it takes none for a moment, and says so.
func (r *inboxTerm) ready() {
	r.t.Helper()
	r.tm.ExpectScreenFunc("keys no longer paused", func(s string) bool { return !strings.Contains(s, "⏸") })
}

// expectMatch waits for the screen to match the regular expression re.
func (r *inboxTerm) expectMatch(re string) {
	r.t.Helper()
	m := regexp.MustCompile(re)
	r.tm.ExpectScreenFunc("screen matching "+re, m.MatchString)
}

// ask starts an asker named name with args (q.json by default) and waits
// until its questions are queued, behind those already waiting.
func (r *inboxTerm) ask(name string, args ...string) *asker {
	r.t.Helper()
	before := r.waiting()
	if len(args) == 0 {
		args = []string{"-f", "q.json"}
	}
	a := startAsker(r.t, string(r.addr), r.dir, name, args...)
	deadline := time.Now().Add(time.Minute)
	for r.waiting() != before+1 {
		if time.Now().After(deadline) {
			r.t.Fatalf("the questions of %s were not queued; the screen shows:\n%s\n%s stderr:\n%s", name, r.tm.Screen(), name, a.stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return a
}

// waiting is how many sets wait in the inbox.
func (r *inboxTerm) waiting() int {
	r.t.Helper()
	st, err := r.addr.Dial().Probe(r.t.Context())
	if err != nil {
		r.t.Fatalf("the inbox does not answer: %v\nscreen:\n%s", err, r.tm.Screen())
	}
	return st.Waiting
}

// exit waits for the inbox to exit with code, nothing on stdout, and the
// terminal as it was found: echo and line editing on, the cursor visible.
func (r *inboxTerm) exit(code int) {
	r.t.Helper()
	select {
	case <-r.done:
	case <-time.After(ptytest.Timeout):
		r.cmd.Process.Kill()
		<-r.done
		r.t.Fatalf("askuser inbox did not exit\nscreen:\n%s", r.tm.Screen())
	}
	if got := r.code(); got != code {
		r.t.Errorf("exit code %d, want %d", got, code)
	}
	if r.stdout.Len() > 0 {
		r.t.Errorf("stdout = %q, want nothing", r.stdout.String())
	}
	if echo, canonical := r.tm.LineMode(); !echo || !canonical {
		r.t.Errorf("terminal left with echo %v, line editing %v", echo, canonical)
	}
	r.tm.Drain()
	if !r.tm.CursorVisible() {
		r.t.Error("cursor left hidden")
	}
}

// The oldest set is shown at once, with where it came from, how long it
// has waited and how many more wait, which arrivals bring up to date; Tab
// moves to the next; each answer goes to its own asker, and stays above
// the screen.
func TestInboxTerminalQueue(t *testing.T) {
	t.Parallel()
	r := startInboxTerm(t)
	first := r.ask("first")
	r.expectMatch(`From first · waiting \d+s\n\[Database\]\nWhich database\?\n\n❯ 1\. PostgreSQL`)
	r.expect("Esc cancel · Ctrl+C quit")
	second := r.ask("second")
	r.expectMatch(`From first · waiting \d+s · 1 more waiting\n\[Database\]`)
	third := r.ask("third")
	r.expectMatch(`From first · waiting \d+s · 2 more waiting\n\[Database\]`)
	r.expect("Esc cancel · Tab next set · Ctrl+C quit")

	r.send(keyTab)
	r.expectMatch(`From second · waiting \d+s · 2 more waiting\n`)
	r.send("2")
	second.answered(t, 0, sqlite)
	r.expectMatch(`✔ second · Database: SQLite\nFrom third · waiting \d+s · 1 more waiting\n`)
	r.send(keyEnter)
	third.answered(t, 0, postgreSQL)
	r.expectMatch(`✔ second · Database: SQLite\n✔ third · Database: PostgreSQL\nFrom first · waiting \d+s\n`)
	r.send(keyDown + keyEnter)
	first.answered(t, 0, sqlite)
	r.expect("✔ second · Database: SQLite\n✔ third · Database: PostgreSQL\n✔ first · Database: SQLite\n[askuser inbox]")
	r.send("q")
	r.exit(0)
	if n := strings.Count(r.tm.Raw(), "\a"); n != 3 {
		t.Errorf("the bell rang %d times for 3 arrivals", n)
	}
}

// A notification command that fails says so above the screen, which is
// drawn again under the warning.
func TestInboxTerminalNotifyFailure(t *testing.T) {
	t.Parallel()
	r := startInboxTerm(t, "ASKUSER_NOTIFY_COMMAND=echo broken >&2; exit 3")
	a := r.ask("agent")
	r.expectMatch(`Warning: ASKUSER_NOTIFY_COMMAND failed: exit status 3: broken\n(.*\n)?From agent · waiting \d+s\n\[Database\]`)
	r.send("2")
	a.answered(t, 0, sqlite)
	r.send("q")
	r.exit(0)
}

// Esc cancels the set shown (its asker exits 130) and the next one shows.
func TestInboxTerminalEsc(t *testing.T) {
	t.Parallel()
	r := startInboxTerm(t)
	first := r.ask("first")
	second := r.ask("second", "confirm", "Deploy now?")
	r.expectMatch(`From first · waiting \d+s · 1 more waiting`)
	r.ready()
	r.send(keyEsc)
	first.answered(t, 130, "")
	r.expectMatch(`✖ Cancelled the questions from first\.\nFrom second · waiting \d+s\nDeploy now\?\n\n❯ Yes     No`)
	r.send(keyEsc)
	second.answered(t, 130, "")
	r.expect("✖ Cancelled the questions from first.\n✖ Cancelled the questions from second.\n[askuser inbox]")
	r.send(keyCtrlC)
	r.exit(0)
}

// A key typed along with the answer to one set is not taken as an answer
// to the next, which the person had not seen when they typed it.
func TestInboxTerminalTypedAhead(t *testing.T) {
	t.Parallel()
	r := startInboxTerm(t)
	first := r.ask("first")
	second := r.ask("second")
	r.expectMatch(`From first · waiting \d+s · 1 more waiting`)
	r.ready()
	r.send("1" + "2")
	first.answered(t, 0, postgreSQL)
	r.expectMatch(`✔ first · Database: PostgreSQL\nFrom second · waiting \d+s\n`)
	r.expect("❯ 1. PostgreSQL")
	if n := r.waiting(); n != 1 {
		t.Fatalf("%d sets wait, not the second one only", n)
	}
	r.send(keyEnter)
	second.answered(t, 0, postgreSQL)
	r.send("q")
	r.exit(0)
}

// An asker killed while its questions are being answered withdraws them:
// they leave the screen at once, a line says so, and the next set
// shows, which what was typed for the first does not answer. Nor does a
// key pressed 20, 100 or 400 ms after the kill, meant for the set that
// has gone: the next set takes no keys for a moment, and says so. Once
// the screen says keys are no longer paused, a key answers it.
func TestInboxTerminalWithdrawn(t *testing.T) {
	t.Parallel()
	r := startInboxTerm(t)
	victim := r.ask("victim")
	next := r.ask("next")
	r.expectMatch(`From victim · waiting \d+s · 1 more waiting`)
	r.ready()
	r.send("0")
	r.expect("Your answer:")
	r.send("half an answ")
	r.expect("Your answer: half an answ")
	// A key sent later than this may come after the pause (0.5 s from
	// when the next set was drawn, after the kill), and would rightly
	// answer: a busy machine that wakes the test that late sends none.
	const lastPaused = 450 * time.Millisecond
	start := time.Now()
	victim.cmd.Process.Kill()
	for _, at := range []time.Duration{20, 100, 400} {
		time.Sleep(time.Until(start.Add(at * time.Millisecond)))
		if late := time.Since(start); late > lastPaused {
			t.Logf("the key of %d ms would be sent after %s: not sent", at, late)
			continue
		}
		r.send("2")
	}
	r.expectMatch(`✖ The questions from victim were withdrawn \(the asker (went away|stopped waiting)\)\.\nFrom next · waiting \d+s\n`)
	if d := time.Since(start); d > testutil.Slow {
		t.Errorf("the withdrawn set left the screen after %s", d)
	}
	r.ready()
	r.expect("❯ 1. PostgreSQL")
	if n := r.waiting(); n != 1 {
		t.Fatalf("%d sets wait, not the next one: a key meant for the withdrawn set answered it\nscreen:\n%s", n, r.tm.Screen())
	}
	if raw := r.tm.Raw(); !strings.Contains(raw, "⏸ The questions before were withdrawn: keys are paused for a moment.") {
		t.Error("the screen never said that keys were paused")
	}
	r.send("2")
	next.answered(t, 0, sqlite)
	r.send(keyCtrlC)
	r.exit(0)
}

// 0 chooses Other and n writes a note, through the inbox: the asker's
// output carries the note in "annotations".
func TestInboxTerminalOtherAndNote(t *testing.T) {
	t.Parallel()
	r := startInboxTerm(t)
	a := r.ask("agent")
	r.expect("0 Other · n note")
	r.ready()
	r.send("n")
	r.expect("Note:")
	r.send("fast enough for tests" + keyEnter)
	r.expect("Note: fast enough for tests")
	r.send("0")
	r.expect("Your answer:")
	r.send("MariaDB" + keyEnter)
	a.answered(t, 0, `{"answers":{"Database":"MariaDB"},"annotations":{"Database":{"notes":"fast enough for tests"}}}`+"\n")
	r.expect("✔ agent · Database: MariaDB\n  Note: fast enough for tests\n[askuser inbox]")
	r.send("q")
	r.exit(0)
}

// Several questions end in the review, as in askuser; confirm and input
// sets have their own screens.
func TestInboxTerminalReviewConfirmInput(t *testing.T) {
	t.Parallel()
	r := startInboxTerm(t)
	two := r.ask("two", questions(qDatabase, qFeatures))
	deploy := r.ask("deploy", "confirm", "Deploy now?", "--default", "no")
	name := r.ask("name", "input", "Name of the component?", "--placeholder", "UserCard")
	r.expectMatch(`From two · waiting \d+s · 2 more waiting\n\[Database\]  Question 1 of 2`)
	r.send("2")
	r.expect("[Features]  Question 2 of 2")
	r.send("1" + "3" + keyEnter)
	r.expect("[Review]\nSubmit these answers?\n\n  Database  SQLite\n  Features  Auth, Search")
	r.send(keyEnter)
	two.answered(t, 0, `{"answers":{"Database":"SQLite","Features":"Auth, Search"}}`+"\n")
	r.expectMatch(`From deploy · waiting \d+s · 1 more waiting\nDeploy now\?\n\n  Yes   ❯ No`)
	r.send("y")
	deploy.answered(t, 0, "")
	r.expectMatch(`From name · waiting \d+s\nName of the component\?\n\nYour answer: e\.g\. UserCard`)
	r.send("OrderList" + keyEnter)
	name.answered(t, 0, "OrderList\n")
	r.expect("✔ two · Database: SQLite\n✔ two · Features: Auth, Search\n✔ deploy · Deploy now? Yes\n✔ name · Name of the component? OrderList\n[askuser inbox]")
	r.send("q")
	r.exit(0)
}

// However the inbox quits, the terminal is given back as it was found, and
// every asker still waiting ends at once, non-zero, with nothing on stdout.
func TestInboxTerminalQuit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		quit func(r *inboxTerm)
		code int
	}{
		{"Ctrl+C", func(r *inboxTerm) { r.send(keyCtrlC) }, 0},
		{"SIGINT", func(r *inboxTerm) { r.cmd.Process.Signal(os.Interrupt) }, 0},
		{"SIGTERM", func(r *inboxTerm) { r.cmd.Process.Signal(syscall.SIGTERM) }, 143},
		{"SIGHUP", func(r *inboxTerm) { r.cmd.Process.Signal(syscall.SIGHUP) }, 129},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := startInboxTerm(t)
			var askers []*asker
			for i, args := range [][]string{nil, {"confirm", "Deploy?"}, {"input", "Name?"}} {
				askers = append(askers, r.ask(fmt.Sprintf("asker-%d", i), args...))
			}
			r.expectMatch(`From asker-0 · waiting \d+s · 2 more waiting`)
			r.ready()
			r.send("0")
			r.expect("Your answer:")
			r.send("typed")
			r.expect("Your answer: typed")
			start := time.Now()
			c.quit(r)
			r.exit(c.code)
			for _, a := range askers {
				select {
				case <-a.done:
				case <-time.After(testutil.Slow - time.Since(start)):
					t.Fatalf("%s still waits %s after the inbox quit; stderr:\n%s", a.name, testutil.Slow, a.stderr)
				}
				if a.code() != 69 || a.stdout.String() != "" || !strings.Contains(a.stderr.String(), "Error: The inbox at "+string(r.addr)) {
					t.Errorf("%s: exit %d, stdout %q, stderr:\n%s", a.name, a.code(), a.stdout, a.stderr)
				}
			}
			if want := "The inbox quits: the 3 askers still waiting are told."; !strings.Contains(r.tm.Screen(), want) {
				t.Errorf("the screen lacks %q:\n%s", want, r.tm.Screen())
			}
		})
	}
	t.Run("q", func(t *testing.T) {
		t.Parallel()
		r := startInboxTerm(t)
		a := r.ask("agent")
		r.expect("From agent")
		r.ready()
		r.send("q") // not a quit while a set is shown
		r.expect("❯ 1. PostgreSQL")
		r.send(keyEnter)
		a.answered(t, 0, postgreSQL)
		r.expect("[askuser inbox]")
		r.send("q")
		r.exit(0)
		if got, want := r.tm.Screen(), "✔ agent · Database: PostgreSQL"; got != want {
			t.Errorf("screen after q:\n%s\nwant:\n%s", got, want)
		}
	})
}

// With ACCESSIBLE=1, or --ui line, the inbox keeps to line prompts at a
// terminal, for screen readers.
func TestInboxTerminalLineWhenAsked(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		env  []string
		args []string
	}{
		{"ACCESSIBLE", []string{"ACCESSIBLE=1"}, nil},
		{"--ui line", nil, []string{"--ui", "line"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tm := ptytest.New(t, 100, 30)
			sock := filepath.Join(t.TempDir(), "inbox.sock")
			cmd := exec.Command(askuserPath(t), append([]string{"inbox"}, c.args...)...)
			cmd.Env = append(append(cleanEnv(t), "NO_COLOR=1", "ASKUSER_INBOX="+sock), c.env...)
			p := startProcess(t, cmd, tm.Start)
			tm.ExpectScreen("Type /next to move to the next set")
			tm.Send("/quit\r")
			select {
			case <-p.done:
			case <-time.After(ptytest.Timeout):
				t.Fatalf("the inbox did not quit\nscreen:\n%s", tm.Screen())
			}
			if p.code() != 0 {
				t.Errorf("exit %d", p.code())
			}
		})
	}
}
