//go:build heavy

package agents

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/ptytest"
)

// The questions every scripted call asks, and the answer the person gives
// in the inbox: the second option.
const (
	questions = `{"questions":[{"question":"Which database should we use?","header":"Database","multiSelect":false,"options":[{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"Embedded"}]}]}`
	answers   = `{"answers":{"Database":"SQLite"}}`
)

// person is askuser inbox running in a pseudo-terminal, as the person runs
// it in a terminal tab.
type person struct {
	t    *testing.T
	tm   *ptytest.Term
	addr string
	cmd  *exec.Cmd
}

// startInbox starts askuser inbox at a socket of its own and waits until it
// says it is waiting.
func startInbox(t *testing.T, env []string) *person {
	t.Helper()
	p := &person{t: t, tm: ptytest.New(t, 100, 30), addr: filepath.Join(t.TempDir(), "inbox.sock")}
	p.cmd = exec.Command(askuserBin, "inbox")
	p.cmd.Env = append(env, "TERM=xterm-256color", "ASKUSER_INBOX="+p.addr)
	if err := p.tm.Start(p.cmd); err != nil {
		t.Fatalf("start askuser inbox: %v", err)
	}
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		p.cmd.Wait()
	})
	p.tm.ExpectScreen("Waiting for questions at")
	return p
}

// answer waits for the scripted tool call, then for its questions on the
// inbox's screen, answers them with the second option, and returns how
// long after the call they showed. It reports false when the call never
// went out (ended is closed when the CLI exits) or the model got its tool
// result without the questions showing.
func (p *person) answer(m *mock, ended <-chan struct{}) (time.Duration, bool) {
	p.t.Helper()
	for m.Sent().IsZero() {
		select {
		case <-ended:
			return 0, false
		case <-time.After(10 * time.Millisecond):
		}
	}
	shows := func(screen string) bool {
		return strings.Contains(screen, "Which database should we use?") && strings.Contains(screen, "2. SQLite")
	}
	p.tm.ExpectScreenFunc("the questions, or a tool result without them", func(screen string) bool {
		_, _, done := m.Result()
		return done || shows(screen)
	})
	if !shows(p.tm.Screen()) {
		return 0, false
	}
	shown := time.Since(m.Sent())
	// A set that arrives on its own takes no keys for a moment (the
	// inbox's guard against a key meant for the set before): answer once
	// the pause has ended, as a person reading it would.
	p.tm.ExpectScreenFunc("keys no longer paused", func(s string) bool { return !strings.Contains(s, "⏸") })
	p.tm.Send("2")
	p.tm.ExpectScreen("✔")
	return shown, true
}
