//go:build heavy

package agents

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// interactiveMode is the CLI's own interactive session, in a terminal: set
// up as README says for each route, but for ASKUSER_UI=inbox (askuser goes
// by what the CLI's shell gives it), with a person at the keyboard who
// approves what the CLI asks them to.
const interactiveMode mode = "interactive"

// modes are the matrix's rows for each CLI, in order.
var modes = []mode{defaultMode, readmeMode, interactiveMode}

// place is where the person answers in an interactive session.
type place int

const (
	atInbox    place = iota // askuser inbox, in a terminal of its own
	atForm                  // the CLI's own form for askuser's MCP request
	atTerminal              // askuser's terminal UI, in the CLI's view of the command's terminal
)

// session is how a CLI's interactive session goes for the person.
type session struct {
	// approve are the CLI's own dialogs that the person says yes to,
	// whenever one shows.
	approve []keys
	// form is askuser's MCP form as the CLI draws it, and the keys that
	// choose the second option and send it.
	form keys
	// focus are the keys that move the CLI's keyboard into the terminal
	// of the command it runs, and what shows once they have; terminal,
	// what the CLI's screen shows of askuser's terminal UI waiting there,
	// when it shows a part ("" when it shows the questions).
	focus    keys
	terminal string
	// at is where the person answers on each path.
	at map[path]place
	// results are the tool results the model must get where they differ
	// from the non-interactive runs'.
	results map[path]string
}

// keys are what the person types when the screen shows something, and
// how long they take first.
type keys struct {
	shows string
	send  []string
	after time.Duration
}

// formWait is how long the person, seeing askuser's MCP question in the
// inbox, waits for the CLI's form to show it too before answering in the
// inbox.
const formWait = 10 * time.Second

// awaitsForm reports whether the person, seeing askuser's MCP question in
// the inbox since inboxAt, answers the CLI's form rather: while the form
// shows, and formWait after it was answered (formAt) or after the inbox
// showed the question with no form yet. A CLI that could not show its
// form leaves the question to the inbox alone, where it is answered then.
func awaitsForm(shows bool, formAt, inboxAt time.Time) bool {
	if formAt.IsZero() {
		return shows || time.Since(inboxAt) < formWait
	}
	return shows || time.Since(formAt) < formWait
}

// asks reports whether screen shows the questions, ready to answer.
func asks(screen string) bool {
	return strings.Contains(screen, "Which database should we use?") && strings.Contains(screen, "2. SQLite")
}

// The screen's size, for the CLI and the inbox alike.
const cols, rows = 120, 40

// runInteractive runs c's interactive session by path p in tmux, with the
// inbox in a terminal of its own beside it, and plays the person: it
// approves the CLI's dialogs as they show, and answers the questions where
// the session says they show.
func runInteractive(t *testing.T, c cli, p path) outcome {
	t.Helper()
	r := newRun(t, interactiveMode, p)
	mk := scripted(t, c, r)
	addr := filepath.Join(t.TempDir(), "inbox.sock")
	r.env = append(interactiveEnv(r.home), "ASKUSER_INBOX="+addr)
	args := c.setup(t, r)
	args[0] = filepath.Join(binDir, args[0])

	x := newTmux(t, r)
	x.start("inbox", t.TempDir(), askuserBin, "inbox")
	x.wait("inbox", "Waiting for questions at", 10*time.Second)
	x.start("cli", r.dir, args...)

	o := outcome{mock: mk, addr: addr, at: c.session.at[p]}
	form := c.session.form
	var approved, shownAt, formAt, inboxAt time.Time
	answered := false
	for end := time.Now().Add(3 * time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if _, _, done := mk.Result(); done || x.dead("cli") {
			break
		}
		screen := x.screen("cli")
		for _, a := range c.session.approve {
			// A dialog still on screen a moment after its keys is a new one.
			if strings.Contains(screen, a.shows) && time.Since(approved) > time.Second {
				x.send("cli", a.send...)
				approved = time.Now()
			}
		}
		if mk.Sent().IsZero() || answered {
			continue
		}
		inbox := x.screen("inbox")
		if asks(inbox) && inboxAt.IsZero() {
			inboxAt = time.Now()
		}
		switch {
		case o.at == atForm && formAt.IsZero() && strings.Contains(screen, form.shows):
			formAt, shownAt = time.Now(), time.Now()
			time.Sleep(form.after)
			x.send("cli", form.send...)
		case o.at == atForm && time.Since(formAt) > form.after+3*time.Second && strings.Contains(screen, form.shows):
			// The form did not go: a person gives up on it.
			x.send("cli", "Escape")
			formAt = time.Now()
		case o.at == atTerminal && (asks(screen) || c.session.terminal != "" && strings.Contains(screen, c.session.terminal)):
			shownAt = time.Now()
			x.send("cli", c.session.focus.send...)
			x.wait("cli", c.session.focus.shows, 10*time.Second)
			x.send("cli", "2")
			answered = true
		case asks(inbox) && o.at == atForm && awaitsForm(strings.Contains(screen, form.shows), formAt, inboxAt):
			// askuser's MCP question waits in the inbox beside the form:
			// the person answers the form, and the inbox's copy goes.
		case asks(inbox):
			// The questions may come to the inbox after the form, too.
			if shownAt.IsZero() || o.at == atForm {
				shownAt, o.at = time.Now(), atInbox
			}
			// A set that arrives on its own takes no keys for a moment
			// (the inbox's guard against a key meant for the set before).
			if !strings.Contains(inbox, "⏸") {
				x.send("inbox", "2")
				answered = true
			}
		}
	}
	o.asked = !shownAt.IsZero()
	if o.asked {
		// From the person's approval of the call, when there was one
		// before the questions showed (a dialog of the CLI's that came
		// after them, beside the inbox, is not what they waited for).
		from := mk.Sent()
		if approved.After(from) && approved.Before(shownAt) {
			from = approved
		}
		o.shown = shownAt.Sub(from)
	}
	o.output = x.screen("cli") + "\n\ninbox:\n" + x.screen("inbox")
	o.result, o.isError, o.got = mk.Result()
	return o
}

// interactiveEnv is baseEnv for a terminal: the terminal says what it is.
func interactiveEnv(home string) []string {
	var env []string
	for _, kv := range baseEnv(home) {
		if !strings.HasPrefix(kv, "TERM=") {
			env = append(env, kv)
		}
	}
	return env
}

// tmux is a tmux server of the run's own, whose sessions hold the CLI and
// the inbox, as a person's terminal tabs.
type tmux struct {
	t    *testing.T
	sock string
	conf string
	env  []string
}

func newTmux(t *testing.T, r *runCtx) *tmux {
	dir := t.TempDir()
	x := &tmux{t: t, sock: filepath.Join(dir, "tmux.sock"), conf: filepath.Join(dir, "tmux.conf"), env: r.env}
	// A dead pane stays, so that its last screen can be read.
	writeFile(t, x.conf, "set -g default-terminal xterm-256color\nset -g remain-on-exit on\n")
	return x
}

// run runs a tmux command and returns its output.
func (x *tmux) run(args ...string) string {
	x.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-S", x.sock, "-f", x.conf}, args...)...)
	cmd.Env = x.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// start runs argv in a session called name, in dir. The session's
// processes are killed when the test ends, the server with them.
func (x *tmux) start(name, dir string, argv ...string) {
	x.t.Helper()
	x.run(append([]string{"new-session", "-d", "-s", name, "-c", dir, "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), "--"}, argv...)...)
	pid, err := strconv.Atoi(strings.TrimSpace(x.run("display-message", "-p", "-t", name, "#{pane_pid}")))
	if err != nil {
		x.t.Fatalf("tmux: the pid of %s: %v", name, err)
	}
	x.t.Cleanup(func() {
		// The pane's first process leads its own process group, which
		// holds what it started (MCP servers, shells); tmux only hangs up.
		syscall.Kill(-pid, syscall.SIGKILL)
		exec.Command("tmux", "-S", x.sock, "kill-server").Run()
	})
}

// screen is what session name's screen shows.
func (x *tmux) screen(name string) string {
	return x.run("capture-pane", "-p", "-t", name)
}

// send types keys, in tmux's names ("Enter", "Down"), one at a time, as a
// person does.
func (x *tmux) send(name string, keys ...string) {
	for _, k := range keys {
		x.run("send-keys", "-t", name, k)
		time.Sleep(200 * time.Millisecond)
	}
}

// dead reports whether session name's program has ended.
func (x *tmux) dead(name string) bool {
	return strings.TrimSpace(x.run("display-message", "-p", "-t", name, "#{pane_dead}")) == "1"
}

// wait waits until session name's screen shows s, and fails the test
// after d.
func (x *tmux) wait(name, s string, d time.Duration) {
	x.t.Helper()
	if !x.shows(name, s, d) {
		x.t.Fatalf("%s never showed %q; its screen:\n%s", name, s, x.screen(name))
	}
}

// shows waits until session name's screen shows s, for d at most, and
// reports whether it did.
func (x *tmux) shows(name, s string, d time.Duration) bool {
	for end := time.Now().Add(d); !strings.Contains(x.screen(name), s); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			return false
		}
	}
	return true
}

// String says where, for the matrix.
func (p place) String() string {
	switch p {
	case atForm:
		return "in its own form"
	case atTerminal:
		return "in askuser's terminal UI, in its view of the command's terminal"
	}
	return "via the inbox"
}
