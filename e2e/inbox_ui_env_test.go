//go:build unix

package e2e

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/askuser/askuser/internal/ptytest"
)

// ASKUSER_UI is the inbox's default of --ui too, at a terminal: line keeps
// it to line prompts, and the flag wins over it; inbox, which says where
// askers ask, leaves the inbox at its terminal screen.
func TestInboxTerminalASKUSER_UI(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		env  string
		args []string
		want string
		quit string
	}{
		{"line", "ASKUSER_UI=line", nil, "Type /next to move to the next set", "/quit\r"},
		{"the flag wins", "ASKUSER_UI=line", []string{"--ui", "tui"}, "q quit · Ctrl+C quit", "q"},
		{"inbox", "ASKUSER_UI=inbox", nil, "q quit · Ctrl+C quit", "q"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tm := ptytest.New(t, 100, 30)
			sock := filepath.Join(t.TempDir(), "inbox.sock")
			cmd := exec.Command(askuserPath(t), append([]string{"inbox"}, c.args...)...)
			cmd.Env = append(cleanEnv(t), "NO_COLOR=1", "ASKUSER_INBOX="+sock, c.env)
			p := startProcess(t, cmd, tm.Start)
			tm.ExpectScreen(c.want)
			tm.Send(c.quit)
			p.ended(t, ptytest.Timeout, 0, screenOf{tm})
		})
	}
}

// screenOf shows the terminal's screen, for a failure.
type screenOf struct{ tm *ptytest.Term }

func (s screenOf) String() string { return s.tm.Screen() }
