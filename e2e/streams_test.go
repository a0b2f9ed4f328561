package e2e

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testutil"
)

// These tests run the askuser program with real pipes, for what a script
// cannot set up: a reader that goes away, an input that closes while a
// question waits.

const streamQuestions = `{"questions":[
 {"question":"Which database should we use?","header":"Database",
  "options":[{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false},
 {"question":"Which cache?","header":"Cache",
  "options":[{"label":"Redis","description":"Server"},{"label":"None","description":"No cache"}],"multiSelect":false}]}`

// streamRun is a running askuser whose stdin the test writes to.
type streamRun struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *testutil.Buffer
}

func startStreamRun(t *testing.T, stdout io.Writer, args ...string) *streamRun {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "q.json"), []byte(streamQuestions), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(askuserPath(t), append([]string{"-f", "q.json", "--ui", "line"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	s := &streamRun{cmd: cmd, stderr: &testutil.Buffer{}}
	cmd.Stdout, cmd.Stderr = stdout, s.stderr
	var err error
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return s
}

// waitFor waits until stderr holds n prompts.
func (s *streamRun) waitFor(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(s.stderr.String(), "Enter a number") < n {
		if time.Now().After(deadline) {
			t.Fatalf("no prompt %d within 10s; stderr:\n%s", n, s.stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// wait returns the exit code.
func (s *streamRun) wait(t *testing.T) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		t.Fatalf("askuser did not exit within 10s; stderr:\n%s", s.stderr)
	}
	return s.cmd.ProcessState.ExitCode()
}

// A reader that goes away before the answer is printed (askuser ... | head
// -c0) is an I/O error: exit 1 with a message, not a panic and not death by
// SIGPIPE.
func TestStdoutClosedEarly(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s := startStreamRun(t, w)
	w.Close() // the child holds the only write end
	s.waitFor(t, 1)
	r.Close() // the reader goes away
	io.WriteString(s.stdin, "1\n2\n")
	code := s.wait(t)
	stderr := s.stderr.String()
	if code != 1 {
		t.Errorf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "Error: The person answered, but the answer could not be written: the reader of stdout went away (") || !strings.Contains(stderr, "broken pipe") {
		t.Errorf("stderr does not report the broken pipe:\n%s", stderr)
	}
	if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
		t.Errorf("stderr shows a panic:\n%s", stderr)
	}
}

// The answer input closing while a question waits is exit 66, with nothing
// on stdout and the question it stopped at named.
func TestStdinClosedMidRun(t *testing.T) {
	var stdout bytes.Buffer
	s := startStreamRun(t, &stdout)
	s.waitFor(t, 1)
	io.WriteString(s.stdin, "2\n")
	s.waitFor(t, 2)
	s.stdin.Close()
	if code := s.wait(t); code != 66 {
		t.Errorf("exit %d, want 66; stderr:\n%s", code, s.stderr)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout: %q", stdout.String())
	}
	want := `Error: No answer: the answer input ended before question 2 of 2 ("Cache") was answered`
	if !strings.Contains(s.stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, s.stderr)
	}
}

// With --timeout, a question that waits too long is exit 124, with nothing
// on stdout.
func TestTimeoutWhileWaiting(t *testing.T) {
	var stdout bytes.Buffer
	s := startStreamRun(t, &stdout, "--timeout", "200ms")
	if code := s.wait(t); code != 124 {
		t.Errorf("exit %d, want 124; stderr:\n%s", code, s.stderr)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout: %q", stdout.String())
	}
}

// Questions given on stdin with nothing after them (askuser < q.json, as
// an agent's shell tool runs it) go straight to the inbox that runs: no
// prompt is drawn first, for the tool's result to carry.
func TestOnlyQuestionsOnStdinGoToTheInbox(t *testing.T) {
	in := startInbox(t)
	dir := questionsDir(t)
	q, err := os.Open(filepath.Join(dir, "q.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	cmd := exec.Command(askuserPath(t), "--from", "shell-tool")
	cmd.Env = inboxEnv(string(in.addr))
	stdout, stderr := new(testutil.Buffer), new(testutil.Buffer)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = q, stdout, stderr
	p := startProcess(t, cmd, (*exec.Cmd).Start)
	in.waitWaiting(t, 1, 10*time.Second)
	in.screen.waitFor(t, "From shell-tool", 10*time.Second)
	io.WriteString(in.stdin, "2\n")
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("askuser did not exit; stderr:\n%s", stderr)
	}
	if code, out := p.code(), stdout.String(); code != 0 || out != `{"answers":{"Database":"SQLite"}}`+"\n" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	got := stderr.String()
	if !strings.HasPrefix(got, "Waiting for an answer in the inbox") || strings.Contains(got, "Enter a number") || strings.Contains(got, "Database") {
		t.Errorf("stderr shows more than where the questions wait:\n%s", got)
	}
}
