package e2e

import (
	"fmt"
	"os/exec"
	"testing"
	"time"
)

// The end-to-end tests run the askuser that TestMain builds, and share how
// a run is started and ended.

// askuserPath is the askuser binary the tests run.
func askuserPath(t *testing.T) string {
	t.Helper()
	if askuserBin == "" {
		t.Fatal("askuser was not built: run the tests with go test")
	}
	recordProgramFiles()
	return askuserBin
}

// process is a started askuser, waited for in the background: done is
// closed when it has exited, and then cmd.ProcessState holds its exit
// code. A process still running when the test ends is killed.
type process struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// startProcess starts cmd with start (cmd.Start, or a pseudo-terminal's
// Start) and registers its end with the test.
func startProcess(t *testing.T, cmd *exec.Cmd, start func(*exec.Cmd) error) *process {
	t.Helper()
	p := &process{cmd: cmd, done: make(chan struct{})}
	if err := start(cmd); err != nil {
		t.Fatalf("start askuser: %v", err)
	}
	go func() {
		cmd.Wait()
		close(p.done)
	}()
	// Registered after anything the start registered (a terminal), so it
	// runs first.
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// code is the exit code once done is closed: -1 for a process ended by a
// signal.
func (p *process) code() int { return p.cmd.ProcessState.ExitCode() }

// ended waits up to d for the process to end, and checks its exit code;
// shown is what it showed, for the failure.
func (p *process) ended(t *testing.T, d time.Duration, code int, shown fmt.Stringer) {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(d):
		t.Fatalf("askuser did not end within %s; it shows:\n%s", d, shown)
	}
	if p.code() != code {
		t.Errorf("askuser exited %d, want %d; it shows:\n%s", p.code(), code, shown)
	}
}
