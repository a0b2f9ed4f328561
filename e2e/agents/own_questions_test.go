//go:build heavy

package agents

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Claude Code's own questions and permission prompts, with the person at
// askuser inbox and at Claude Code's terminal, with README's set-up: askuser
// mcp added, and askuser approve as the PermissionRequest hook.

// auq is a call of Claude Code's AskUserQuestion that asks question, keyed
// header, with two options.
func auq(question, header, first, second string) toolCall {
	return toolCall{Name: "AskUserQuestion", Args: map[string]any{"questions": []any{map[string]any{
		"question": question, "header": header, "multiSelect": false,
		"options": []any{
			map[string]any{"label": first, "description": "The first"},
			map[string]any{"label": second, "description": "The second"},
		},
	}}}}
}

// answered is what Claude Code tells the model when question was answered
// with label, in its own dialog or through the hook alike.
func answered(question, label string) string {
	return `Your questions have been answered: "` + question + `"="` + label + `". You can now continue with these answers in mind.`
}

// withHook adds README's PermissionRequest hook to the settings of a run
// of Claude Code.
func withHook(t *testing.T, r *runCtx) {
	t.Helper()
	name := filepath.Join(r.home, ".claude", "settings.json")
	settings := map[string]any{}
	if b, err := os.ReadFile(name); err == nil {
		if err := json.Unmarshal(b, &settings); err != nil {
			t.Fatal(err)
		}
	}
	settings["hooks"] = snippetJSON(t, "claude-hook")["hooks"]
	b, _ := json.Marshal(settings)
	writeFile(t, name, string(b))
}

// sideBySide is an agent tool's interactive session in tmux, beside
// askuser inbox, playing a scripted model's calls.
type sideBySide struct {
	t   *testing.T
	x   *tmux
	mk  *mock
	run *runCtx
}

// startClaude starts Claude Code's session, set up as README says with the
// hook, for the calls, with env added to its environment; the inbox starts
// when inbox is set.
func startClaude(t *testing.T, inbox bool, env []string, calls ...toolCall) *sideBySide {
	t.Helper()
	r := newRun(t, interactiveMode, mcpPath)
	mk := newMock(t, calls[0], anthropicAPI)
	mk.then = calls[1:]
	r.api = mk.URL()
	r.env = append(append(interactiveEnv(r.home), "ASKUSER_INBOX="+filepath.Join(t.TempDir(), "inbox.sock")), env...)
	args := claude.setup(t, r)
	args[0] = filepath.Join(binDir, args[0])
	withHook(t, r)
	s := &sideBySide{t: t, x: newTmux(t, r), mk: mk, run: r}
	if inbox {
		s.startInbox()
	}
	s.x.start("cli", r.dir, args...)
	return s
}

// startInbox starts askuser inbox in a terminal of its own.
func (s *sideBySide) startInbox() {
	s.x.start("inbox", s.t.TempDir(), askuserBin, "inbox")
	s.x.wait("inbox", "Waiting for questions at", 10*time.Second)
}

// screens are the session's screens: Claude Code's, and the inbox's ("" when
// it has not started).
func (s *sideBySide) screens() (cli, inbox string) {
	cli = s.x.screen("cli")
	if strings.Contains(s.x.run("list-sessions", "-F", "#{session_name}"), "inbox") {
		inbox = s.x.screen("inbox")
	}
	return cli, inbox
}

// until waits, for d at most, until cond holds of the screens, and fails
// the test when it does not; it says no to Claude Code's offer of auto
// mode, which may come after any approval, as the person keeps asking
// before each tool.
func (s *sideBySide) until(what string, d time.Duration, cond func(cli, inbox string) bool) {
	s.t.Helper()
	var cli, inbox string
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		cli, inbox = s.screens()
		if strings.Contains(cli, "Make auto mode your default permission mode?") {
			s.x.send("cli", "Down", "Enter")
			continue
		}
		if cond(cli, inbox) {
			return
		}
	}
	s.t.Fatalf("%s never came; %s", what, s.state(cli, inbox))
}

// state is what a failure says of the session: the screens, the model's
// requests, the agent's logs, the inbox's history, and the calls and
// results in Claude Code's transcript.
func (s *sideBySide) state(cli, inbox string) string {
	var logs strings.Builder
	files, _ := filepath.Glob(filepath.Join(s.run.home, ".local", "share", "*", "log", "*.log"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		logs.WriteString(f + ":\n" + string(b) + "\n")
	}
	b, _ := os.ReadFile(filepath.Join(s.run.home, ".local", "state", "askuser", "history.jsonl"))
	logs.WriteString("the inbox's history:\n" + string(b) + "\n")
	files, _ = filepath.Glob(filepath.Join(s.run.home, ".claude", "projects", "*", "*.jsonl"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		logs.WriteString(f + ", its calls and results:\n")
		for line := range strings.Lines(string(b)) {
			if strings.Contains(line, `"tool_use`) || strings.Contains(line, `"tool_result"`) {
				logs.WriteString(line)
			}
		}
	}
	return fmt.Sprintf("the agent's screen:\n%s\n\nthe inbox:\n%s\n\nrequests:\n%s\n\nlogs:\n%s", cli, inbox, s.mk.Requests(), logs.String())
}

// result waits for the result of the nth call (from 1) and returns it.
func (s *sideBySide) result(n int) result {
	s.t.Helper()
	s.until("the result of call "+string(rune('0'+n)), time.Minute, func(string, string) bool { return len(s.mk.Results()) >= n })
	return s.mk.Results()[n-1]
}

// shows reports whether a screen shows question, ready to be answered.
func shows(screen, question string) bool {
	return strings.Contains(screen, question) && !strings.Contains(screen, "⏸")
}

// press types key into session name, and returns when.
func (s *sideBySide) press(name, key string) time.Time {
	at := time.Now()
	s.x.run("send-keys", "-t", name, key)
	return at
}

// answer presses key in Claude Code's dialog, which its screen shows while
// open holds, and waits until Claude Code's transcript of the session
// holds the result of the call id: what Claude Code tells a hook of the
// answer given in its own dialog. It returns when the key that took was
// pressed, and when the result was seen. Claude Code drops a key that
// comes just after its dialog opened while the person was typing (its
// input grace): the key is pressed again, as a person would, while the
// dialog stays open.
func (s *sideBySide) answer(key string, open func(cli string) bool, id string) (pressed, written time.Time) {
	s.t.Helper()
	pressed = s.press("cli", key)
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(s.run.home, ".claude", "projects", "*", "*.jsonl"))
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), `"tool_use_id":"`+id+`"`) {
				return pressed, time.Now()
			}
		}
		if time.Since(pressed) > 3*time.Second && open(s.x.screen("cli")) {
			s.t.Logf("Claude Code's dialog is still open %s after the key %q: pressed again", time.Since(pressed).Round(time.Millisecond), key)
			pressed = s.press("cli", key)
		}
	}
	cli, inbox := s.screens()
	s.t.Fatalf("the transcript never held the result of %s; %s", id, s.state(cli, inbox))
	return pressed, time.Time{}
}

// gone waits until the inbox no longer shows what, and returns how long
// after since that took.
func (s *sideBySide) gone(what string, since time.Time) time.Duration {
	s.t.Helper()
	s.until("the inbox letting "+what+" go", 10*time.Second, func(_, inbox string) bool { return !strings.Contains(inbox, what) })
	return time.Since(since)
}

// Interactive Claude Code, with askuser approve as its PermissionRequest
// hook and the inbox running: the model's own question (AskUserQuestion)
// is asked in the inbox as the question it is, and answered there, the
// model gets the person's answer and Claude Code's dialog closes; answered
// in Claude Code's dialog, it leaves the inbox within a second, as a
// permission prompt approved there does; cancelled in the inbox, it stays
// for the person in Claude Code's dialog. A command that only runs askuser,
// and a call of askuser's own MCP tool, ask the person with no approval
// first.
func TestClaudeOwnQuestions(t *testing.T) {
	t.Parallel()
	const (
		database = "Which database should we use?"
		cache    = "Which cache should we use?"
		queue    = "Which queue should we use?"
	)
	s := startClaude(t, true, nil,
		auq(database, "Database", "PostgreSQL", "SQLite"),
		auq(cache, "Cache", "Redis", "Memcached"),
		auq(queue, "Queue", "RabbitMQ", "NATS"),
		toolCall{Name: "Bash", Args: map[string]any{"command": approveCommand, "description": "Leave a file"}},
		claude.shellCall("askuser '"+questions+"'"),
		toolCall{Name: "ToolSearch", Args: map[string]any{"query": "select:mcp__askuser__askuser", "max_results": 1}},
		toolCall{Name: "mcp__askuser__askuser", Args: mcpArgs()},
	)
	var asked []string // every approval the inbox showed

	// Answered in the inbox.
	s.until("the question in the inbox", time.Minute, func(_, inbox string) bool { return shows(inbox, database) && strings.Contains(inbox, "2. SQLite") })
	ownShown.Store(claude.name, time.Since(s.mk.SentAt(1)))
	s.x.send("inbox", "2")
	if got := s.result(1); got.isError || got.text != answered(database, "SQLite") {
		t.Errorf("answered in the inbox, the model got (error %v):\n%s\nwant:\n%s", got.isError, got.text, answered(database, "SQLite"))
	}

	// Answered in Claude Code's dialog.
	s.until("the question in both places", time.Minute, func(cli, inbox string) bool { return shows(inbox, cache) && strings.Contains(cli, "2. Memcached") })
	pressed, written := s.answer("2", func(cli string) bool { return strings.Contains(cli, "2. Memcached") }, s.mk.pending())
	took := s.gone(cache, written)
	t.Logf("answered in Claude Code's dialog: Claude Code wrote the answer %s after the key, and the question left the inbox %s after that", written.Sub(pressed), took)
	if took > time.Second {
		t.Errorf("answered in Claude Code's dialog, the question left the inbox %s after Claude Code wrote the answer, want within 1 s", took)
	}
	if got := s.result(2); got.isError || got.text != answered(cache, "Memcached") {
		t.Errorf("answered in Claude Code's dialog, the model got:\n%s", got.text)
	}

	// Cancelled in the inbox: Claude Code's dialog is the person's.
	s.until("the third question", time.Minute, func(cli, inbox string) bool { return shows(inbox, queue) && strings.Contains(cli, "2. NATS") })
	s.x.send("inbox", "Escape")
	s.gone(queue, time.Now())
	time.Sleep(time.Second)
	if cli, _ := s.screens(); !strings.Contains(cli, "2. NATS") || len(s.mk.Results()) != 2 {
		t.Fatalf("cancelled in the inbox, Claude Code's dialog went too (results %d):\n%s", len(s.mk.Results()), cli)
	}
	s.x.send("cli", "2")
	if got := s.result(3); got.isError || got.text != answered(queue, "NATS") {
		t.Errorf("after a cancel in the inbox, the model got:\n%s", got.text)
	}

	// A permission prompt approved in Claude Code's dialog.
	s.until("the approval in both places", time.Minute, func(cli, inbox string) bool {
		return strings.Contains(inbox, "asks to use Bash:") && strings.Contains(cli, "Do you want to proceed?")
	})
	_, inbox := s.screens()
	asked = append(asked, inbox)
	// Claude Code writes the result of an allowed call once it has run.
	id := s.mk.pending()
	_, written = s.answer("1", func(cli string) bool { return strings.Contains(cli, "Do you want to proceed?") }, id)
	took = s.gone("asks to use Bash:", written)
	t.Logf("approved in Claude Code's dialog, the approval left the inbox %s after Claude Code wrote the call's result", took)
	if took > time.Second {
		t.Errorf("approved in Claude Code's dialog, the approval left the inbox %s after Claude Code wrote the call's result, want within 1 s", took)
	}
	if got := s.result(4); got.text != "the command ran" {
		t.Errorf("approved in Claude Code's dialog, the model got:\n%s", got.text)
	}

	// A command that only runs askuser: its question, and no approval.
	s.until("askuser's question", time.Minute, func(_, inbox string) bool {
		return shows(inbox, "Which database should we use?") && strings.Contains(inbox, "2. SQLite")
	})
	_, inbox = s.screens()
	asked = append(asked, inbox)
	s.x.send("inbox", "2")
	if got := s.result(5); !strings.HasSuffix(got.text, answers) {
		t.Errorf("askuser by the shell: the model got:\n%s", got.text)
	}

	// askuser's own MCP tool: its form, and no approval.
	s.result(6)
	form := claude.session.form
	s.until("askuser's form", time.Minute, func(cli, inbox string) bool {
		asked = append(asked, inbox)
		return strings.Contains(cli, form.shows)
	})
	s.x.send("cli", form.send...)
	// A key lost to a busy machine: the person presses Enter again on
	// Accept, where the form's keys end.
	s.until("the answer from the form", time.Minute, func(cli, _ string) bool {
		if strings.Contains(cli, form.shows) && strings.Contains(cli, "❯ Accept") && strings.Contains(cli, "✔ Database: SQLite") {
			s.x.send("cli", "Enter")
			time.Sleep(2 * time.Second)
		}
		return len(s.mk.Results()) >= 7
	})
	if got := s.result(7); got.text != answers {
		t.Errorf("askuser's MCP tool: the model got:\n%s", got.text)
	}
	for _, inbox := range asked {
		for _, never := range []string{"AskUserQuestion", "mcp__askuser__askuser", "Bash:\naskuser"} {
			if strings.Contains(inbox, never) {
				t.Errorf("the inbox asked about %s:\n%s", never, inbox)
			}
		}
	}
}

// With no inbox, or a timeout, askuser approve leaves the question to
// Claude Code's own dialog, where the person answers it: the model gets
// their answer, never an empty one.
func TestClaudeOwnQuestionsUnanswered(t *testing.T) {
	t.Parallel()
	const (
		database = "Which database should we use?"
		cache    = "Which cache should we use?"
	)
	s := startClaude(t, false, []string{"ASKUSER_TIMEOUT=8s"}, auq(database, "Database", "PostgreSQL", "SQLite"), auq(cache, "Cache", "Redis", "Memcached"))

	// No inbox: the dialog asks. The inbox starts before the next call,
	// once the hook has found none.
	s.until("Claude Code's dialog", time.Minute, func(cli, _ string) bool { return strings.Contains(cli, "2. SQLite") })
	time.Sleep(2 * time.Second)
	s.startInbox()
	s.x.send("cli", "2")
	if got := s.result(1); got.isError || got.text != answered(database, "SQLite") {
		t.Errorf("with no inbox, the model got:\n%s", got.text)
	}

	// The inbox, and nobody answers there in time.
	s.until("the question in both places", time.Minute, func(cli, inbox string) bool { return shows(inbox, cache) && strings.Contains(cli, "2. Memcached") })
	s.gone(cache, time.Now())
	time.Sleep(time.Second)
	if cli, _ := s.screens(); !strings.Contains(cli, "2. Memcached") || len(s.mk.Results()) != 1 {
		t.Fatalf("after the timeout, Claude Code's dialog went too:\n%s", cli)
	}
	s.x.send("cli", "2")
	if got := s.result(2); got.isError || got.text != answered(cache, "Memcached") {
		t.Errorf("after the timeout, the model got:\n%s", got.text)
	}
}

// Allow for this session of go test ./..., with claude -p and the hook,
// allows go test: a later go test runs without asking, and rm -rf is asked
// about again, and denied.
func TestClaudeSessionRule(t *testing.T) {
	t.Parallel()
	r := newRun(t, readmeMode, shellPath)
	mk := newMock(t, claude.shellCall("go test ./..."), anthropicAPI)
	mk.then = []toolCall{claude.shellCall("go test -run TestNothing ./..."), claude.shellCall("rm -rf build")}
	r.api = mk.URL()
	addr := filepath.Join(t.TempDir(), "inbox.sock")
	r.env = append(interactiveEnv(r.home), "ASKUSER_INBOX="+addr)
	claude.setup(t, r)
	withHook(t, r)
	if err := os.MkdirAll(filepath.Join(r.dir, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := &sideBySide{t: t, x: newTmux(t, r), mk: mk, run: r}
	s.startInbox()
	s.x.start("cli", r.dir, filepath.Join(binDir, "claude"), "-p", prompt, "--output-format", "text")

	s.until("the approval of go test", time.Minute, func(_, inbox string) bool { return shows(inbox, "asks to use Bash:\ngo test ./...") })
	_, inbox := s.screens()
	if !strings.Contains(inbox, "3. Allow for this session") || !strings.Contains(inbox, "Bash(go test *)") {
		t.Fatalf("Allow for this session does not name the rule for go test:\n%s", inbox)
	}
	s.x.send("inbox", "3")
	s.result(2)
	if strings.Contains(s.x.screen("inbox"), "go test -run") {
		t.Errorf("the second go test was asked about:\n%s", s.x.screen("inbox"))
	}
	s.until("the approval of rm -rf", time.Minute, func(_, inbox string) bool { return shows(inbox, "asks to use Bash:\nrm -rf build") })
	s.x.send("inbox", "2")
	if got := s.result(3); !got.isError || got.text != "The person denied this call of Bash, without saying why." {
		t.Errorf("rm -rf: the model got (error %v):\n%s", got.isError, got.text)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "build")); err != nil {
		t.Errorf("rm -rf ran: %v", err)
	}
}
