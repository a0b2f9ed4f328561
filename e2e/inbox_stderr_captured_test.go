//go:build unix

package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/ptytest"
	"github.com/askuser/askuser/internal/testutil"
)

// An inbox typed at a terminal whose stderr goes elsewhere (askuser inbox
// 2>log, or --web 2>&1 | tee log) draws on the terminal, as an asker in
// the same place asks there: not line prompts into the file, before a
// blank screen whose keys still answer.
func TestInboxStderrCaptured(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"2>log", nil},
		{"--web 2>&1 | tee log", []string{"--web"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tm := ptytest.New(t, 100, 30)
			sock := filepath.Join(t.TempDir(), "inbox.sock")
			cmd := exec.Command(askuserPath(t), append([]string{"inbox"}, c.args...)...)
			cmd.Env = append(cleanEnv(t), "NO_COLOR=1", "ASKUSER_INBOX="+sock, "BROWSER=true")
			log := new(testutil.Buffer)
			cmd.Stderr = log
			if c.args != nil {
				cmd.Stdout = log
			}
			p := startProcess(t, cmd, tm.Start)
			tm.ExpectScreen("q quit · Ctrl+C quit")
			tm.Send("q")
			p.ended(t, ptytest.Timeout, 0, screenOf{tm})
			if strings.Contains(log.String(), "Type /next") {
				t.Errorf("line prompts went to the log:\n%s", log)
			}
		})
	}
}
