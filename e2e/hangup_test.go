//go:build unix

package e2e

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/askuser/askuser/internal/ptytest"
)

// A terminal hangs up when its other side goes away: a terminal window
// closed, an SSH connection dropped. For a pseudo-terminal, that is its
// master being closed. The kernel then ends the reads of the terminal and
// sends SIGHUP, in an order and with a delay that vary from run to run, so
// each way of asking on a terminal is hung up many times over: every run
// must exit 129, never 1, 66, or by the signal itself.

// hangupRuns is how many times each case is hung up: a race may be won by
// luck once, not twenty times in a row.
const hangupRuns = 20

func TestHangupOfTheTerminal(t *testing.T) {
	t.Parallel()
	db := questions(qDatabase)
	sock := filepath.Join(t.TempDir(), "inbox.sock")
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		// steps are what the terminal shows, then keys to type, in turn;
		// the terminal hangs up once it shows the last.
		steps []string
	}{
		{"line prompts with ACCESSIBLE", []string{"ACCESSIBLE=1"}, []string{db}, []string{"Enter a number"}},
		{"line prompts with --ui line", nil, []string{"--ui", "line", db}, []string{"Enter a number"}},
		{"line prompts, at the Other text", nil, []string{"--ui", "line", db}, []string{"Enter a number", "0\r", "Your answer:"}},
		{"line confirm", nil, []string{"confirm", "--ui", "line", "Deploy?"}, []string{"[Y/n]"}},
		{"line input", nil, []string{"input", "--ui", "line", "Name?"}, []string{"Your answer:"}},
		{"terminal UI", nil, []string{db}, []string{"Esc cancel"}},
		{"the inbox's terminal screen", []string{"ASKUSER_INBOX=" + sock}, []string{"inbox"}, []string{"q quit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for i := range hangupRuns {
				code, stdout, shown := hangupOnce(t, tc.env, tc.args, tc.steps)
				if code != 129 || stdout != "" {
					t.Fatalf("run %d of %d: exit code %d, stdout %q; want 129 and nothing\nterminal:\n%q",
						i+1, hangupRuns, code, stdout, shown)
				}
			}
		})
	}
}

// hangupOnce starts askuser on a new pseudo-terminal (stdin and stderr,
// its controlling terminal), goes through steps, and closes the master. It
// returns the exit code (-1 when a signal ended askuser), stdout, and what
// was written on the terminal.
func hangupOnce(t *testing.T, env, args, steps []string) (code int, stdout, shown string) {
	t.Helper()
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Fatalf("open pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	if err := pty.Setsize(pts, &pty.Winsize{Cols: 80, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(askuserPath(t), args...)
	cmd.Env = append(cleanEnv(t), env...)
	var out bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, &out, pts
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	p := startProcess(t, cmd, (*exec.Cmd).Start)
	pts.Close() // askuser holds the terminal side now

	// The master is read here, between the steps, rather than by a
	// goroutine: a goroutine blocked reading it would keep it open (pty
	// puts it in blocking mode), and the hang-up would not happen.
	var written []byte
	read := func() string {
		var buf [4096]byte
		for {
			fds := []unix.PollFd{{Fd: int32(ptm.Fd()), Events: unix.POLLIN}}
			if n, err := unix.Poll(fds, 5); n <= 0 || err != nil || fds[0].Revents&unix.POLLIN == 0 {
				return string(written)
			}
			n, err := unix.Read(int(ptm.Fd()), buf[:])
			if n <= 0 || err != nil {
				return string(written)
			}
			written = append(written, buf[:n]...)
		}
	}
	for i, s := range steps {
		if i%2 == 1 {
			if _, err := ptm.Write([]byte(s)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		deadline := time.Now().Add(ptytest.Timeout)
		for !strings.Contains(read(), s) {
			select {
			case <-p.done:
				t.Fatalf("askuser exited %d before the terminal showed %q\nterminal:\n%q", p.code(), s, read())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("the terminal did not show %q\nterminal:\n%q", s, read())
			}
		}
	}
	ptm.Close()
	select {
	case <-p.done:
	case <-time.After(ptytest.Timeout):
		t.Fatalf("askuser did not exit after the hang-up\nterminal:\n%q", written)
	}
	if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		written = append(written, "\n(killed by "+ws.Signal().String()+")"...)
	}
	return p.code(), out.String(), string(written)
}
