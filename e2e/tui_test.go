//go:build unix

package e2e

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/ptytest"
)

// The terminal UI is tested here end to end, as a person meets it: the
// askuser program runs in a real pseudo-terminal that is its controlling
// terminal, keys are typed on it, and the screen behind it is read. The
// answers are read from stdout, a pipe of its own, and checked exactly.

const (
	keyUp    = "\x1b[A"
	keyDown  = "\x1b[B"
	keyRight = "\x1b[C"
	keyLeft  = "\x1b[D"
	keyEnter = "\r"
	keyEsc   = "\x1b"
	keyCtrlC = "\x03"
	keyTab   = "\t"
)

const (
	qDatabase = `{"question":"Which database should we use?","header":"Database","multiSelect":false,"options":[
		{"label":"PostgreSQL (Recommended)","description":"Relational, rich features"},
		{"label":"SQLite","description":"Embedded, zero configuration"}]}`
	qFeatures = `{"question":"Which features should we enable?","header":"Features","multiSelect":true,"options":[
		{"label":"Auth","description":"Login and sessions"},
		{"label":"Billing","description":"Stripe integration"},
		{"label":"Search","description":"Full-text search"}]}`
	qName = `{"question":"What should the new component be called?","header":"Name","type":"text","placeholder":"UserCard"}`
)

func questions(qs ...string) string {
	return `{"questions":[` + strings.Join(qs, ",") + `]}`
}

// sgr matches a colour or text style sequence.
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// tuiRun is askuser running on a pseudo-terminal.
type tuiRun struct {
	*process
	t      *testing.T
	tm     *ptytest.Term
	stdout bytes.Buffer
}

// runOpts says how to start askuser. The zero value is a 60×30 terminal
// for stdin and stderr, with colour on.
type runOpts struct {
	cols, rows int
	env        []string  // added to a clean environment
	stdin      io.Reader // instead of the terminal
	stderr     io.Writer // instead of the terminal
}

func startTUI(t *testing.T, o runOpts, args ...string) *tuiRun {
	t.Helper()
	if o.cols == 0 {
		o.cols, o.rows = 60, 30
	}
	r := &tuiRun{t: t, tm: ptytest.New(t, o.cols, o.rows)}
	cmd := exec.Command(askuserPath(t), args...)
	cmd.Env = append(cleanEnv(t), o.env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = o.stdin, &r.stdout, o.stderr
	r.process = startProcess(t, cmd, r.tm.Start)
	return r
}

// cleanEnv is an environment without anything of the test run's that
// changes how askuser asks: no NO_COLOR, ACCESSIBLE or ASKUSER_* unless a
// test sets it.
func cleanEnv(t *testing.T) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + t.TempDir(),
		"TERM=xterm-256color",
		// Under -race, askuser is a race-enabled binary, which by default
		// waits a second before it exits.
		"GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"),
	}
}

// send types keys, and expect waits for the screen to show s.
func (r *tuiRun) send(keys string) { r.t.Helper(); r.tm.Send(keys) }
func (r *tuiRun) expect(s string)  { r.t.Helper(); r.tm.ExpectScreen(s) }

// signal sends sig to askuser.
func (r *tuiRun) signal(sig syscall.Signal) {
	r.t.Helper()
	if err := r.cmd.Process.Signal(sig); err != nil {
		r.t.Fatalf("signal: %v", err)
	}
}

// exit waits for askuser to exit and checks its exit code and stdout, then
// that the terminal was left as it was found: echo and line editing on,
// the cursor visible. After exit, the screen shows everything written.
func (r *tuiRun) exit(code int, stdout string) {
	r.t.Helper()
	select {
	case <-r.done:
	case <-time.After(ptytest.Timeout):
		r.cmd.Process.Kill()
		<-r.done
		r.t.Fatalf("askuser did not exit\nscreen:\n%s", r.tm.Screen())
	}
	if got := r.code(); got != code {
		r.t.Errorf("exit code %d, want %d", got, code)
	}
	if got := r.stdout.String(); got != stdout {
		r.t.Errorf("stdout = %q, want %q", got, stdout)
	}
	if echo, canonical := r.tm.LineMode(); !echo || !canonical {
		r.t.Errorf("terminal left with echo %v, line editing %v", echo, canonical)
	}
	r.tm.Drain()
	if !r.tm.CursorVisible() {
		r.t.Error("cursor left hidden")
	}
}

// screen checks the whole screen.
func (r *tuiRun) screen(want ...string) {
	r.t.Helper()
	if got, want := r.tm.Screen(), strings.Join(want, "\n"); got != want {
		r.t.Errorf("screen:\n%s\nwant:\n%s", got, want)
	}
}

func TestTUIEnterChoosesTheFirstOption(t *testing.T) {
	t.Parallel()
	r := startTUI(t, runOpts{}, questions(qDatabase))
	r.expect(strings.Join([]string{
		" Database",
		"Which database should we use?",
		"",
		"❯ 1. PostgreSQL (Recommended)",
		"     Relational, rich features",
		"  2. SQLite",
		"     Embedded, zero configuration",
		"  0. Other",
		"     Type your own answer",
		"",
		"↑/↓ move · Enter or 1-2 choose · 0 Other · n note",
		"Esc cancel",
	}, "\n"))
	r.send(keyEnter)
	r.exit(0, `{"answers":{"Database":"PostgreSQL (Recommended)"}}`+"\n")
	r.screen("✔ Database: PostgreSQL (Recommended)")
}

func TestTUIChoosing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps []string // keys, then what the screen shows next, in turn
		want  string
	}{
		{"down then Enter", []string{keyDown, "❯ 2. SQLite", keyEnter}, "SQLite"},
		{"digit", []string{"2"}, "SQLite"},
		{"j and k", []string{"j", "❯ 2. SQLite", "j", "❯ 0. Other", "k", "❯ 2. SQLite", keyEnter}, "SQLite"},
		{"Other and text", []string{"0", "Your answer:", "Maria" + keyLeft + keyLeft + "X", "Your answer: MarXia", keyEnter}, "MarXia"},
		// Other can be left: Esc, or Enter with nothing typed, goes back
		// to the options, and a digit then chooses an option.
		{"Other, Esc back, then a digit", []string{"0", "Your answer:", "half" + keyEsc, "❯ 0. Other", "2"}, "SQLite"},
		{"Other, empty Enter back, then Other again", []string{"0", "Your answer:", keyEnter, "❯ 0. Other", "0", "Your answer:", "Maria" + keyEnter}, "Maria"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := startTUI(t, runOpts{}, questions(qDatabase))
			r.expect("❯ 1. PostgreSQL")
			for i, s := range tt.steps {
				if i%2 == 0 {
					r.send(s)
				} else {
					r.expect(s)
				}
			}
			r.exit(0, `{"answers":{"Database":"`+tt.want+`"}}`+"\n")
			r.screen("✔ Database: " + tt.want)
		})
	}
}

func TestTUIMultiSelect(t *testing.T) {
	t.Parallel()
	r := startTUI(t, runOpts{}, questions(qFeatures))
	r.expect("❯ [ ] 1. Auth\n         Login and sessions")
	r.send(keyEnter) // nothing chosen: says so and stays
	r.expect("✖ Choose at least one: Space or a number, then Enter")
	r.expect("❯ [ ] 1. Auth")
	r.send("3")
	r.expect("❯ [x] 3. Search")
	r.send(keyUp + keyUp + " ")
	r.expect("❯ [x] 1. Auth")
	r.send("2")
	r.expect("❯ [x] 2. Billing")
	r.send("2") // digits toggle off again
	r.expect("❯ [ ] 2. Billing")
	r.send(keyEnter)
	r.exit(0, `{"answers":{"Features":"Auth, Search"}}`+"\n")
	r.screen("✔ Features: Auth, Search")
}

func TestTUIMultiSelectWithOther(t *testing.T) {
	t.Parallel()
	r := startTUI(t, runOpts{}, questions(qFeatures))
	r.expect("❯ [ ] 1. Auth")
	r.send("0")
	r.expect("❯ [x] 0. Other")
	r.send("1" + keyEnter)
	r.expect("Chosen: Auth\nYour answer:")
	r.send("Audit log" + keyEnter)
	r.exit(0, `{"answers":{"Features":"Auth, Audit log"}}`+"\n")
}

func TestTUITwoQuestionsShowProgress(t *testing.T) {
	t.Parallel()
	r := startTUI(t, runOpts{}, "--no-review", questions(qDatabase, qFeatures))
	r.expect(" Database   Question 1 of 2\nWhich database should we use?")
	r.send("2")
	r.expect(" Features   Question 2 of 2\nWhich features should we enable?")
	if s := r.tm.Screen(); strings.Contains(s, "Database") {
		t.Errorf("the first question is still on screen:\n%s", s)
	}
	r.send(" " + keyEnter)
	r.exit(0, `{"answers":{"Database":"SQLite","Features":"Auth"}}`+"\n")
	r.screen("✔ Database: SQLite", "✔ Features: Auth")
}

func TestTUIKeyByQuestion(t *testing.T) {
	t.Parallel()
	r := startTUI(t, runOpts{}, "--key", "question", questions(qDatabase))
	r.expect("❯ 1. PostgreSQL")
	r.send("2")
	r.exit(0, `{"answers":{"Which database should we use?":"SQLite"}}`+"\n")
	r.screen("✔ Database: SQLite")
}

func TestTUICancel(t *testing.T) {
	t.Parallel()
	for _, where := range []string{"list", "Other prompt"} {
		for _, k := range []struct{ name, key string }{{"Esc", keyEsc}, {"Ctrl+C", keyCtrlC}} {
			t.Run(k.name+" in "+where, func(t *testing.T) {
				t.Parallel()
				r := startTUI(t, runOpts{}, questions(qDatabase))
				r.expect("❯ 1. PostgreSQL")
				if where == "Other prompt" {
					r.send("0")
					r.expect("Your answer:")
					r.send("half")
					r.expect("Your answer: half")
				}
				if where == "Other prompt" && k.key == keyEsc {
					// Esc there goes back to the options, where it cancels.
					r.send(keyEsc)
					r.expect("❯ 0. Other")
				}
				r.send(k.key)
				r.exit(130, "")
				r.screen("Error: Cancelled by the user")
			})
		}
	}
}

func TestTUISignalRestoresTheTerminal(t *testing.T) {
	t.Parallel()
	for _, s := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{
		{syscall.SIGTERM, 143, "SIGTERM"},
		{syscall.SIGINT, 130, "SIGINT"},
		{syscall.SIGHUP, 129, "SIGHUP"},
	} {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			r := startTUI(t, runOpts{}, questions(qDatabase))
			r.expect("❯ 1. PostgreSQL")
			r.send("0")
			r.expect("Your answer:")
			if echo, canonical := r.tm.LineMode(); echo || canonical {
				t.Errorf("while asking: echo %v, line editing %v; want raw mode", echo, canonical)
			}
			r.signal(s.sig)
			r.exit(s.code, "")
			r.screen("Error: Stopped by " + s.name)
		})
	}
}

func TestTUITimeoutRestoresTheTerminal(t *testing.T) {
	t.Parallel()
	r := startTUI(t, runOpts{}, "--timeout", "1s", questions(qDatabase))
	r.expect("❯ 1. PostgreSQL")
	r.exit(124, "")
	r.screen("Error: Timed out after 1s waiting for an answer")
}

// With --tty the questions come on stdin, a pipe, and the answers are typed
// on the controlling terminal, where the questions are drawn too.
func TestTUIOnTheControllingTerminal(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	r := startTUI(t, runOpts{stdin: strings.NewReader(questions(qDatabase)), stderr: &stderr}, "--tty")
	r.expect("❯ 1. PostgreSQL")
	r.send(keyDown + keyEnter)
	r.exit(0, `{"answers":{"Database":"SQLite"}}`+"\n")
	r.screen("✔ Database: SQLite")
	if stderr.Len() > 0 {
		t.Errorf("stderr = %q, want nothing", stderr.String())
	}
}

// askuser approve reads the hook's input on stdin; with --tty it asks on
// the controlling terminal rather than in the inbox.
func TestApproveOnTheControllingTerminal(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	hook := `{"hook_event_name":"PermissionRequest","cwd":"/src/api","tool_name":"Bash","tool_input":{"command":"make"}}`
	r := startTUI(t, runOpts{stdin: strings.NewReader(hook), stderr: &stderr}, "approve", "--tty")
	r.expect("An agent in /src/api asks to use Bash:")
	r.expect("❯ 1. Allow")
	r.send(keyEnter)
	r.exit(0, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`+"\n")
	if stderr.Len() > 0 {
		t.Errorf("stderr = %q, want nothing", stderr.String())
	}
}

func TestTUIColour(t *testing.T) {
	t.Parallel()
	for _, color := range []bool{true, false} {
		name, env := "on", []string(nil)
		if !color {
			name, env = "NO_COLOR", []string{"NO_COLOR=1"}
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := startTUI(t, runOpts{env: env}, "--no-review", questions(qDatabase, qFeatures))
			r.expect("❯ 1. PostgreSQL")
			r.send("0")
			r.expect("Your answer:")
			r.send("x" + keyEnter)
			r.expect("❯ [ ] 1. Auth")
			r.send(keyEnter)
			r.expect("Choose at least one")
			r.send("1" + keyEnter)
			r.exit(0, `{"answers":{"Database":"x","Features":"Auth"}}`+"\n")
			found := sgr.FindAllString(r.tm.Raw(), -1)
			switch {
			case color && !strings.Contains(r.tm.Raw(), "\x1b[1;7m Database \x1b[0m"):
				t.Errorf("colour on, yet the header is not a chip; styles used: %q", found)
			case !color && len(found) > 0:
				t.Errorf("NO_COLOR, yet the output has %q", found)
			}
		})
	}
}

func TestTUIAskWhereThereIsNoTerminal(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(askuserPath(t), "--ui", "tui", questions(qDatabase))
	cmd.Env = cleanEnv(t)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader("1\n"), &stdout, &stderr
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 69 {
		t.Errorf("exit code %d, want 69", code)
	}
	if stdout.Len() > 0 {
		t.Errorf("stdout = %q, want nothing", stdout.String())
	}
	if want := "Error: --ui tui needs a terminal, and stdin or stderr is not one: use --tty to ask on the controlling terminal, or --ui line\n"; stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
}

// Asked for, line prompts are used on a terminal too.
func TestTUILinePromptsOnATerminal(t *testing.T) {
	t.Parallel()
	for _, env := range []string{"ACCESSIBLE=1", "TERM=dumb"} {
		t.Run(env, func(t *testing.T) {
			t.Parallel()
			r := startTUI(t, runOpts{cols: 100, rows: 30, env: []string{env}}, questions(qDatabase))
			r.expect("[1/1] Database\nWhich database should we use?\n  1. PostgreSQL (Recommended)")
			r.expect("Enter a number (Enter for 1, 0 for your own answer):")
			r.send("2" + keyEnter)
			r.exit(0, `{"answers":{"Database":"SQLite"}}`+"\n")
			if strings.Contains(r.tm.Raw(), "❯") || strings.Contains(r.tm.Raw(), "✔") {
				t.Errorf("terminal UI drawn:\n%s", r.tm.Screen())
			}
		})
	}
}

func TestTUITextQuestion(t *testing.T) {
	t.Parallel()
	r := startTUI(t, runOpts{}, questions(qName))
	r.expect(" Name\nWhat should the new component be called?\n\nYour answer: UserCard")
	if raw := r.tm.Raw(); !strings.Contains(raw, "\x1b[2mUserCard\x1b[0m") {
		t.Errorf("placeholder not dimmed: %q", raw)
	}
	r.send(keyEnter) // empty: says so and stays
	r.expect("✖ An answer is needed: type it, or press Esc to cancel")
	r.send("OrderList")
	r.expect("Your answer: OrderList\n")
	r.send(keyEnter)
	r.exit(0, `{"answers":{"Name":"OrderList"}}`+"\n")
	r.screen("✔ Name: OrderList")
}

func TestTUITextQuestionWithoutColour(t *testing.T) {
	t.Parallel()
	r := startTUI(t, runOpts{env: []string{"NO_COLOR=1"}}, questions(qName))
	r.expect("Your answer: e.g. UserCard")
	r.send("O")
	r.expect("Your answer: O\n")
	r.send(keyEsc)
	r.exit(130, "")
	r.screen("Error: Cancelled by the user")
}

func TestTUIReview(t *testing.T) {
	t.Parallel()
	review := strings.Join([]string{
		"[Review]",
		"Submit these answers?",
		"",
		"  Database  SQLite",
		"  Features  Auth, Search",
		"",
		"❯ 1. Submit",
		"  2. Change Database",
		"  3. Change Features",
		"  4. Cancel",
		"",
		"↑/↓ move · Enter or 1-4 choose · Esc cancel",
	}, "\n")
	start := func(t *testing.T) *tuiRun {
		r := startTUI(t, runOpts{env: []string{"NO_COLOR=1"}}, questions(qDatabase, qFeatures))
		r.expect("Question 1 of 2")
		r.send("2")
		r.expect("Question 2 of 2")
		r.send("1" + "3" + keyEnter)
		r.expect(review)
		return r
	}
	t.Run("submit", func(t *testing.T) {
		t.Parallel()
		r := start(t)
		r.send(keyEnter)
		r.exit(0, `{"answers":{"Database":"SQLite","Features":"Auth, Search"}}`+"\n")
		r.screen("✔ Database: SQLite", "✔ Features: Auth, Search")
	})
	t.Run("change", func(t *testing.T) {
		t.Parallel()
		r := start(t)
		r.send(keyDown)
		r.expect("❯ 2. Change Database")
		r.send(keyEnter)
		r.expect("❯ 2. SQLite") // the answer being changed
		r.send("0")
		r.expect("Your answer:")
		r.send("MariaDB" + keyEnter)
		r.expect("  Database  MariaDB\n")
		r.expect("❯ 1. Submit")
		r.send("3") // change Features: its choices are still ticked
		r.expect("❯ [x] 1. Auth")
		r.expect("  [ ] 2. Billing")
		r.expect("  [x] 3. Search")
		r.send("1" + keyEnter)
		r.expect("  Features  Search\n")
		r.send(keyEnter)
		r.exit(0, `{"answers":{"Database":"MariaDB","Features":"Search"}}`+"\n")
		r.screen("✔ Database: MariaDB", "✔ Features: Search")
	})
	for _, k := range []struct{ name, keys string }{{"cancel", keyUp + keyEnter}, {"Esc", keyEsc}} {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			r := start(t)
			r.send(k.keys)
			r.exit(130, "")
			r.screen("Error: Cancelled by the user")
		})
	}
}

func TestTUIConfirm(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		args  []string
		steps []string // keys, then what the screen shows next, in turn
		code  int
		after string // the screen once done
	}{
		{"y", nil, []string{"y"}, 0, "✔ Delete 15 files? Yes"},
		{"n", nil, []string{"n"}, 1, "✔ Delete 15 files? No"},
		{"Enter takes yes", nil, []string{keyEnter}, 0, "✔ Delete 15 files? Yes"},
		{"Enter takes the default", []string{"--default", "no"}, []string{keyEnter}, 1, "✔ Delete 15 files? No"},
		{"arrows and Tab", []string{"--default", "no"}, []string{keyLeft, "❯ Yes", keyRight, "❯ No", keyTab, "❯ Yes", keyEnter}, 0, "✔ Delete 15 files? Yes"},
		{"Esc", nil, []string{keyEsc}, 130, "Error: Cancelled by the user"},
		{"Ctrl+C", nil, []string{keyCtrlC}, 130, "Error: Cancelled by the user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := startTUI(t, runOpts{env: []string{"NO_COLOR=1"}}, append([]string{"confirm", "Delete 15 files?"}, tt.args...)...)
			focused := "❯ Yes     No"
			if len(tt.args) > 0 {
				focused = "  Yes   ❯ No"
			}
			r.expect("Delete 15 files?\n\n" + focused + "\n\ny yes · n no · ←/→ move · Enter choose · Esc cancel")
			for i, s := range tt.steps {
				if i%2 == 0 {
					r.send(s)
				} else {
					r.expect(s)
				}
			}
			r.exit(tt.code, "")
			r.screen(tt.after)
		})
	}
}

func TestTUIInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		steps  []string // what the screen shows, then keys, in turn
		code   int
		stdout string
	}{
		{"typed", []string{"--placeholder", "UserCard"}, []string{"Your answer: e.g. UserCard", "OrderList" + keyEnter}, 0, "OrderList\n"},
		{"empty takes the default", []string{"--default", "main"}, []string{`Enter for "main" · Esc cancel`, keyEnter}, 0, "main\n"},
		{"the default cleaned", []string{"--default", " ma\u202ein\u3000"}, []string{`Enter for "main" · Esc cancel`, keyEnter}, 0, "main\n"},
		{"empty without a default", nil, []string{"Your answer:", keyEnter, "✖ An answer is needed", "x" + keyEnter}, 0, "x\n"},
		{"Esc", nil, []string{"Your answer:", keyEsc}, 130, ""},
		{"Ctrl+C", nil, []string{"Your answer:", "half" + keyCtrlC}, 130, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := startTUI(t, runOpts{env: []string{"NO_COLOR=1"}}, append([]string{"input", "Component name?"}, tt.args...)...)
			r.expect("Component name?\n")
			for i, s := range tt.steps {
				if i%2 == 0 {
					r.expect(s)
				} else {
					r.send(s)
				}
			}
			r.exit(tt.code, tt.stdout)
			if tt.code == 0 {
				r.screen("✔ Component name? " + strings.TrimSuffix(tt.stdout, "\n"))
			}
		})
	}
}

// askuser choose in the terminal UI: the options given, without
// descriptions, and Other; the choice on stdout, one a line with --multi.
func TestTUIChoose(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		steps  []string // keys to send, and "=TEXT" for what the screen shows next
		code   int
		stdout string
	}{
		{"Enter takes the first", nil, []string{keyEnter}, 0, "staging\n"},
		{"a digit", nil, []string{"2"}, 0, "production\n"},
		{"multi", []string{"--multi"}, []string{"1", "3", keyEnter}, 0, "staging\nlocal\n"},
		{"multi takes no empty choice", []string{"--multi"}, []string{keyEnter, "=Choose at least one", " ", keyEnter}, 0, "staging\n"},
		{"Other", nil, []string{"0", "=Your answer:", "qa" + keyEnter}, 0, "qa\n"},
		{"Esc", nil, []string{keyEsc}, 130, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"choose", "--question", "Deploy where?", "staging", "production", "local"}, tt.args...)
			r := startTUI(t, runOpts{env: []string{"NO_COLOR=1"}}, args...)
			r.expect("[Choose]\nDeploy where?\n\n")
			// The options have no descriptions: no line under each.
			box := ""
			if len(tt.args) > 0 {
				box = "[ ] "
			}
			r.expect("❯ " + box + "1. staging\n  " + box + "2. production\n  " + box + "3. local\n  " + box + "0. Other\n")
			for _, s := range tt.steps {
				if text, ok := strings.CutPrefix(s, "="); ok {
					r.expect(text)
				} else {
					r.send(s)
				}
			}
			r.exit(tt.code, tt.stdout)
		})
	}
}

// A blank --default is refused before anything is drawn: Enter would offer
// it, and refuse it, for ever.
func TestTUIInputBlankDefault(t *testing.T) {
	t.Parallel()
	// What draws nothing is shown by its code point.
	for def, shown := range map[string]string{"   ": "   ", "\u3000\u200b": "\u3000⟨U+200B⟩"} {
		r := startTUI(t, runOpts{cols: 100, rows: 30, env: []string{"NO_COLOR=1"}}, "input", "Branch?", "--default", def)
		r.exit(64, "")
		r.screen(`Error: Invalid --default "`+shown+`": must not be blank: give text, or no --default`, "Run 'askuser input --help' for usage.")
	}
}

func TestTUIBell(t *testing.T) {
	t.Parallel()
	for _, bell := range []bool{true, false} {
		name, args := "with --bell", []string{"--bell"}
		if !bell {
			name, args = "without", nil
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := startTUI(t, runOpts{}, append(args, questions(qDatabase))...)
			r.expect("❯ 1. PostgreSQL")
			r.send(keyEnter)
			r.exit(0, `{"answers":{"Database":"PostgreSQL (Recommended)"}}`+"\n")
			if got, want := strings.Count(r.tm.Raw(), "\a"), map[bool]int{true: 1, false: 0}[bell]; got != want {
				t.Errorf("%d bells rung, want %d", got, want)
			}
		})
	}
}

// 0 chooses Other, as on the line prompt: at once in a single-select
// question, and as a toggle in a multi-select one. The hints say so.
func TestTUIZeroIsOther(t *testing.T) {
	t.Parallel()
	t.Run("single-select", func(t *testing.T) {
		t.Parallel()
		r := startTUI(t, runOpts{cols: 80, rows: 30}, questions(qDatabase))
		r.expect("↑/↓ move · Enter or 1-2 choose · 0 Other · n note · Esc cancel")
		r.send("0")
		r.expect("Your answer:")
		r.send("MariaDB" + keyEnter)
		r.exit(0, `{"answers":{"Database":"MariaDB"}}`+"\n")
	})
	t.Run("multi-select", func(t *testing.T) {
		t.Parallel()
		r := startTUI(t, runOpts{cols: 80, rows: 30}, questions(qFeatures))
		r.expect("↑/↓ move · Space or 1-3 toggle · 0 Other · Enter confirm · n note · Esc cancel")
		r.send("0")
		r.expect("❯ [x] 0. Other")
		r.send("0")
		r.expect("❯ [ ] 0. Other")
		r.send("0" + "2" + keyEnter)
		r.expect("Chosen: Billing\nYour answer:")
		r.send("Audit log" + keyEnter)
		r.exit(0, `{"answers":{"Features":"Billing, Audit log"}}`+"\n")
	})
}

// n writes a note on the answer of the question on screen: Enter keeps
// it, Esc goes back to the question without it, Ctrl+C cancels all. The
// note shows under the options, in the review and in the summary, and goes
// into the output's annotations.
func TestTUINote(t *testing.T) {
	t.Parallel()
	t.Run("added", func(t *testing.T) {
		t.Parallel()
		r := startTUI(t, runOpts{env: []string{"NO_COLOR=1"}}, "--no-review", questions(qDatabase, qFeatures))
		r.expect("❯ 1. PostgreSQL")
		r.send("n")
		r.expect("[Database]  Question 1 of 2\nWhich database should we use?\n\nFor: PostgreSQL (Recommended)\nNote:\n\nEnter no note · Esc back · Ctrl+C cancel")
		r.send("Fits on one machine")
		r.expect("Note: Fits on one machine\n\nEnter save · Esc back · Ctrl+C cancel")
		r.send(keyEnter)
		r.expect("     Type your own answer\n\nNote: Fits on one machine\n")
		r.send("2")
		r.expect("Question 2 of 2")
		r.send("1" + keyEnter)
		r.exit(0, `{"answers":{"Database":"SQLite","Features":"Auth"},"annotations":{"Database":{"notes":"Fits on one machine"}}}`+"\n")
		r.screen("✔ Database: SQLite", "  Note: Fits on one machine", "✔ Features: Auth")
	})
	t.Run("Esc goes back without it", func(t *testing.T) {
		t.Parallel()
		r := startTUI(t, runOpts{env: []string{"NO_COLOR=1"}}, questions(qFeatures))
		r.send("3")
		r.expect("❯ [x] 3. Search")
		r.send("n")
		r.expect("Note:")
		r.send("half a thought" + keyEsc)
		r.expect("❯ [x] 3. Search") // the list as it was
		if strings.Contains(r.tm.Screen(), "half a thought") {
			t.Errorf("the note left with Esc is still shown:\n%s", r.tm.Screen())
		}
		r.send(keyEnter)
		r.exit(0, `{"answers":{"Features":"Search"}}`+"\n")
	})
	t.Run("Ctrl+C cancels", func(t *testing.T) {
		t.Parallel()
		r := startTUI(t, runOpts{}, questions(qDatabase))
		r.send("n")
		r.expect("Note:")
		r.send("x" + keyCtrlC)
		r.exit(130, "")
		r.screen("Error: Cancelled by the user")
	})
	t.Run("checked like a typed answer", func(t *testing.T) {
		t.Parallel()
		r := startTUI(t, runOpts{env: []string{"NO_COLOR=1"}}, questions(qDatabase))
		r.send("n")
		r.expect("Note:")
		r.send("\u200b\u3000" + keyEnter) // blank: no note
		r.expect("❯ 1. PostgreSQL")
		r.send("n")
		r.expect("Note:")
		r.send("Maria\u202eDB" + keyEnter)
		r.expect("Note: MariaDB\n")
		r.send(keyEnter)
		r.exit(0, `{"answers":{"Database":"PostgreSQL (Recommended)"},"annotations":{"Database":{"notes":"MariaDB"}}}`+"\n")
	})
	t.Run("in the review", func(t *testing.T) {
		t.Parallel()
		r := startTUI(t, runOpts{env: []string{"NO_COLOR=1"}}, questions(qDatabase, qFeatures))
		r.send("2")
		r.expect("Question 2 of 2")
		r.send("n")
		r.expect("Note:")
		r.send("Auth can wait" + keyEnter)
		r.send("3" + keyEnter)
		r.expect("  Database  SQLite\n  Features  Search\n            Note: Auth can wait\n\n❯ 1. Submit")
		r.send("3") // change Features: the note comes along, and can be changed
		r.expect("Note: Auth can wait")
		r.send("n")
		r.expect("Note: Auth can wait\n\nEnter save")
		r.send(strings.Repeat("\x7f", 4) + "later" + keyEnter)
		r.send(keyEnter)
		r.expect("            Note: Auth can later\n")
		r.send(keyEnter)
		r.exit(0, `{"answers":{"Database":"SQLite","Features":"Search"},"annotations":{"Features":{"notes":"Auth can later"}}}`+"\n")
		r.screen("✔ Database: SQLite", "✔ Features: Search", "  Note: Auth can later")
	})
}

// Notes given in the input are passed through; one the person writes in
// the terminal UI wins.
func TestTUINoteOverInputNote(t *testing.T) {
	t.Parallel()
	in := `{"questions":[` + qDatabase + `,` + qFeatures + `],"annotations":{"Database":{"notes":"from the input"},"Which features should we enable?":{"notes":"kept"}}}`
	r := startTUI(t, runOpts{env: []string{"NO_COLOR=1"}}, "--no-review", "--key", "question", in)
	r.expect("❯ 1. PostgreSQL")
	r.send("n")
	r.expect("Note:")
	r.send("mine" + keyEnter + "1")
	r.expect("Question 2 of 2")
	r.send("1" + keyEnter)
	r.exit(0, `{"answers":{"Which database should we use?":"PostgreSQL (Recommended)","Which features should we enable?":"Auth"},"annotations":{"Which database should we use?":{"notes":"mine"},"Which features should we enable?":{"notes":"kept"}}}`+"\n")
}

// A person typed askuser at a terminal with stderr captured (ans=$(askuser
// -f q.json 2>&1), or 2>err.txt): stdin is their terminal, so the questions
// are asked on it, not written where nobody sees them.
func TestTUIStderrCaptured(t *testing.T) {
	t.Parallel()
	errFile, err := os.Create(filepath.Join(t.TempDir(), "err.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	noInbox := "ASKUSER_INBOX=" + filepath.Join(t.TempDir(), "none.sock")
	r := startTUI(t, runOpts{stderr: errFile, env: []string{noInbox}}, questions(qDatabase))
	r.expect("❯ 1. PostgreSQL")
	r.send("2")
	r.exit(0, `{"answers":{"Database":"SQLite"}}`+"\n")
	r.screen("✔ Database: SQLite")
	if b, err := os.ReadFile(errFile.Name()); err != nil || len(b) > 0 {
		t.Errorf("stderr file = %q (%v), want nothing", b, err)
	}
}

// Questions given on stdin with nothing after them, at a terminal
// (askuser < q.json): nobody can answer on stdin, and the error says how
// to answer at this terminal, without a prompt drawn first.
func TestTUIOnlyQuestionsOnStdin(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	noInbox := "ASKUSER_INBOX=" + filepath.Join(t.TempDir(), "none.sock")
	r := startTUI(t, runOpts{stdin: strings.NewReader(questions(qDatabase)), stderr: &stderr, env: []string{noInbox}})
	r.exit(66, "")
	want := "To answer at this terminal, give the questions with -f FILE (or as the argument) so that stdin stays the terminal, or add --tty.\n" +
		"To reach the person, have them run 'askuser inbox' in a terminal and ask again, or use --ui web --open.\n"
	if got := stderr.String(); !strings.HasPrefix(got, "Error: No answer: ") || !strings.HasSuffix(got, want) || strings.Contains(got, "Enter a number") {
		t.Errorf("stderr = %q, want the error, then %q", got, want)
	}
	if r.tm.Screen() != "" {
		t.Errorf("the terminal shows:\n%s", r.tm.Screen())
	}
}

// TestTUIPicture draws README's picture of the terminal UI from the screen
// of askuser asking docs/examples/database.json, and checks that
// docs/tui.svg is that picture: when the terminal UI changes, this test
// fails until -update-screenshots draws it again.
func TestTUIPicture(t *testing.T) {
	t.Parallel()
	r := startTUI(t, runOpts{cols: 72, rows: 14}, "-f", "../docs/examples/database.json")
	r.expect("↑/↓ move")
	r.send("j")
	r.expect("❯ 2. SQLite")
	got := r.tm.SVG()
	r.send(keyEsc)
	r.exit(130, "")
	const picture = "../docs/tui.svg"
	if *updateScreenshots {
		if err := os.WriteFile(picture, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(picture)
	if err != nil {
		t.Fatalf("%v (go test ./e2e -run TestTUIPicture -update-screenshots draws it)", err)
	}
	if string(want) != got {
		t.Errorf("%s is not the terminal UI's screen as it is now; go test ./e2e -run TestTUIPicture -update-screenshots draws it again", picture)
	}
}
