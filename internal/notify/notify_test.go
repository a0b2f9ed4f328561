package notify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/prompt"
)

func wait(t *testing.T, r *Run) {
	t.Helper()
	select {
	case <-r.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not end")
	}
}

// The command runs through the shell with the variables given.
func TestStartVars(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	r := Start(`printf '%s|%s' "$ASKUSER_FROM" "$ASKUSER_HEADER" > "`+out+`"`, "ASKUSER_FROM=~/src/api", "ASKUSER_HEADER=Database")
	wait(t, r)
	if err := r.Failed(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out); string(got) != "~/src/api|Database" {
		t.Errorf("the command saw %q", got)
	}
}

// The command runs whatever the text holds, and is given it as Display
// shows it: a NUL does not stop it, and escapes and bidirectional controls
// reach it only made visible.
func TestStartShowsTheText(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	text := "Drop\x00 the \x1b]0;owned\x07 table\u202e?\nReally"
	r := Start(`printf '%s' "$ASKUSER_QUESTION" > "`+out+`"`, "ASKUSER_QUESTION="+text)
	wait(t, r)
	if err := r.Failed(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	if want := `Drop\x00 the \x1b]0;owned\x07 table\u202e? Really`; string(got) != want || want != prompt.Display(text) {
		t.Errorf("the command saw %q; want %q", got, want)
	}
}

// A failure says how the command failed, with the start of what it said.
func TestStartFailure(t *testing.T) {
	r := Start("printf '%0600d' 0 >&2; exit 3")
	wait(t, r)
	err := r.Failed()
	if err == nil || !strings.HasPrefix(err.Error(), "exit status 3: 000") || len(err.Error()) != len("exit status 3: ")+500 {
		t.Errorf("Failed() = %v", err)
	}
}

// A command still running has not failed.
func TestRunning(t *testing.T) {
	r := Start("sleep 5")
	if err := r.Failed(); err != nil {
		t.Errorf("Failed() = %v while it runs", err)
	}
}
