package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/testutil"
)

// These tests run askuser inbox and many askers against it, as processes,
// the way a person and their agents would: the askers with stdin from
// /dev/null, as agent harnesses run them, and the inbox with its line
// screen driven by the test through its stdin, reading its stderr to see
// what it shows.

// inboxEnv is the environment of the inbox and its askers: the inbox at
// addr, and a race-enabled program that exits at once.
func inboxEnv(addr string) []string {
	return append(os.Environ(),
		"NO_COLOR=1",
		"ASKUSER_INBOX="+addr,
		"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"),
	)
}

// screenOut is the inbox's stderr as the test watches it: Changed is closed
// at each write.
type screenOut struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{}
}

func newScreenOut() *screenOut { return &screenOut{changed: make(chan struct{})} }

func (s *screenOut) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.changed)
	s.changed = make(chan struct{})
	return s.buf.Write(p)
}

// snapshot returns what was written so far, and a channel closed at the
// next write.
func (s *screenOut) snapshot() (string, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String(), s.changed
}

func (s *screenOut) String() string {
	text, _ := s.snapshot()
	return text
}

// waitFor waits until the screen shows want, within d.
func (s *screenOut) waitFor(t *testing.T, want string, d time.Duration) {
	t.Helper()
	s.waitUntil(t, fmt.Sprintf("show %q", want), func(text string) bool { return strings.Contains(text, want) }, d)
}

// waitUntil waits until ok holds for what the screen shows, within d; what
// says what was waited for.
func (s *screenOut) waitUntil(t *testing.T, what string, ok func(string) bool, d time.Duration) {
	t.Helper()
	deadline := time.After(d)
	for {
		text, changed := s.snapshot()
		if ok(text) {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("the inbox did not %s within %s; it shows:\n%s", what, d, text)
		}
	}
}

// inboxProcess is a running askuser inbox.
type inboxProcess struct {
	*process
	stdin  io.WriteCloser
	screen *screenOut
	addr   inbox.SocketAddr
	client inbox.Transport
}

// startInbox starts askuser inbox on a socket of the test's, and waits
// until it answers.
func startInbox(t *testing.T) *inboxProcess {
	t.Helper()
	return startInboxAt(t, filepath.Join(t.TempDir(), "inbox.sock"))
}

// startInboxAt starts askuser inbox on the socket at path, and waits until
// it answers.
func startInboxAt(t *testing.T, path string) *inboxProcess {
	t.Helper()
	a := inbox.SocketAddr(path)
	cmd := exec.Command(askuserPath(t), "inbox")
	cmd.Env = inboxEnv(string(a))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	in := &inboxProcess{stdin: stdin, screen: newScreenOut(), addr: a, client: a.Dial()}
	cmd.Stderr = in.screen
	in.process = startProcess(t, cmd, (*exec.Cmd).Start)
	t.Cleanup(func() { stdin.Close() })
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := in.client.Probe(context.Background()); err == nil {
			return in
		}
		select {
		case <-in.done:
			t.Fatalf("askuser inbox exited %d:\n%s", in.code(), in.screen)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the inbox does not answer; it shows:\n%s", in.screen)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitWaiting waits until n sets wait in the inbox, within d.
func (in *inboxProcess) waitWaiting(t *testing.T, n int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		st, err := in.client.Probe(context.Background())
		if err == nil && st.Waiting == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sets wait in the inbox, not %d, after %s (%v); it shows:\n%s", st.Waiting, n, d, err, in.screen)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// asker is a running askuser with stdin from /dev/null, as an agent runs
// it.
type asker struct {
	*process
	name   string
	stdout *testutil.Buffer
	stderr *testutil.Buffer
}

func startAsker(t *testing.T, addr, dir, name string, args ...string) *asker {
	t.Helper()
	return startAskerWith(t, inboxEnv(addr), dir, name, args...)
}

// startAskerWith starts an asker with the environment env.
func startAskerWith(t *testing.T, env []string, dir, name string, args ...string) *asker {
	t.Helper()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	cmd := exec.Command(askuserPath(t), append(args, "--from", name)...)
	cmd.Dir = dir
	cmd.Env = env
	a := &asker{name: name, stdout: new(testutil.Buffer), stderr: new(testutil.Buffer)}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, a.stdout, a.stderr
	a.process = startProcess(t, cmd, (*exec.Cmd).Start)
	return a
}

const oneQuestionFile = `{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false}]}`

func questionsDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "q.json"), []byte(oneQuestionFile), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// When the inbox quits or dies while askers wait, every asker ends within
// 2 seconds, non-zero, with nothing on stdout.
func TestInboxQuitEndsAskers(t *testing.T) {
	for _, c := range []struct {
		name string
		quit func(*inboxProcess)
	}{
		{"stdin ends", func(in *inboxProcess) { in.stdin.Close() }},
		{"SIGTERM", func(in *inboxProcess) { in.cmd.Process.Signal(syscall.SIGTERM) }},
		{"SIGKILL", func(in *inboxProcess) { in.cmd.Process.Kill() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := startInbox(t)
			dir := questionsDir(t)
			var askers []*asker
			for i := 0; i < 5; i++ {
				args := []string{"-f", "q.json"}
				switch i {
				case 3:
					args = []string{"confirm", "Deploy?"}
				case 4:
					args = []string{"input", "Name?"}
				}
				askers = append(askers, startAsker(t, string(in.addr), dir, fmt.Sprintf("asker-%d", i), args...))
			}
			in.waitWaiting(t, 5, time.Minute)
			start := time.Now()
			c.quit(in)
			for _, a := range askers {
				select {
				case <-a.done:
				case <-time.After(testutil.Slow - time.Since(start)):
					t.Fatalf("%s still waits %s after the inbox went; stderr:\n%s", a.name, testutil.Slow, a.stderr)
				}
				if a.code() == 0 || a.stdout.String() != "" {
					t.Errorf("%s: exit %d, stdout %q", a.name, a.code(), a.stdout)
				}
				if a.code() != 69 || !strings.Contains(a.stderr.String(), "Error: The inbox at "+string(in.addr)) {
					t.Errorf("%s: exit %d, stderr:\n%s", a.name, a.code(), a.stderr)
				}
			}
			t.Logf("every asker ended within %s", time.Since(start))
		})
	}
}

// An asker that ends while its questions wait (killed, Ctrl+C) withdraws
// them: they leave the queue within a second, shown or not, and the screen
// says so of the one shown.
func TestInboxWithdrawn(t *testing.T) {
	in := startInbox(t)
	dir := questionsDir(t)
	shown := startAsker(t, string(in.addr), dir, "shown", "-f", "q.json")
	in.screen.waitFor(t, "From shown", time.Minute)
	queued := startAsker(t, string(in.addr), dir, "queued", "input", "Name?")
	in.waitWaiting(t, 2, time.Minute)
	last := startAsker(t, string(in.addr), dir, "last", "-f", "q.json")
	in.waitWaiting(t, 3, time.Minute)

	start := time.Now()
	shown.cmd.Process.Kill()
	in.screen.waitFor(t, "The questions from shown were withdrawn (", testutil.Slow)
	in.screen.waitFor(t, "From queued", testutil.Slow)
	queued.cmd.Process.Signal(os.Interrupt)
	in.waitWaiting(t, 1, testutil.Slow)
	t.Logf("both withdrawn within %s", time.Since(start))
	<-queued.done
	if queued.code() != 130 || queued.stdout.String() != "" {
		t.Errorf("Ctrl+C: exit %d, stdout %q", queued.code(), queued.stdout)
	}

	in.screen.waitFor(t, "From last", testutil.Slow)
	io.WriteString(in.stdin, "sqlite\n")
	<-last.done
	if got := last.stdout.String(); last.code() != 0 || got != `{"answers":{"Database":"SQLite"}}`+"\n" {
		t.Errorf("last: exit %d, stdout %q", last.code(), got)
	}
}

// answered waits for a to exit and checks its exit code and stdout.
func (a *asker) answered(t *testing.T, code int, stdout string) {
	t.Helper()
	select {
	case <-a.done:
	case <-time.After(testutil.Slow):
		t.Fatalf("%s did not exit; stderr:\n%s", a.name, a.stderr)
	}
	if a.code() != code || a.stdout.String() != stdout {
		t.Errorf("%s: exit %d, stdout %q; want %d, %q\nstderr:\n%s", a.name, a.code(), a.stdout, code, stdout, a.stderr)
	}
}

const (
	sqlite     = `{"answers":{"Database":"SQLite"}}` + "\n"
	postgreSQL = `{"answers":{"Database":"PostgreSQL"}}` + "\n"
)
