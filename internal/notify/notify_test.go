package notify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
