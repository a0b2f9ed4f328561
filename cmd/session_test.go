package cmd

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/line"
	"github.com/askuser/askuser/schema"
)

// waitingReader blocks its first read until ready reports true, then reads
// from r: an answer typed only after something else has happened.
type waitingReader struct {
	ready func() bool
	r     io.Reader
}

func (w *waitingReader) Read(p []byte) (int, error) {
	deadline := time.Now().Add(10 * time.Second)
	for !w.ready() {
		if time.Now().After(deadline) {
			return 0, errors.New("gave up waiting")
		}
		time.Sleep(5 * time.Millisecond)
	}
	return w.r.Read(p)
}

// The notification command runs while the question waits for its answer,
// with the question in its environment, and never on stdout.
func TestNotifyCommandRunsWhileAsking(t *testing.T) {
	dir := t.TempDir()
	mark := filepath.Join(dir, "notified")
	env := testEnv(t)
	env.Getenv = func(k string) string {
		if k == "ASKUSER_NOTIFY_COMMAND" {
			return `printf '%s|%s' "$ASKUSER_HEADER" "$ASKUSER_QUESTION" > "` + mark + `.tmp" && mv "` + mark + `.tmp" "` + mark + `"; echo noise`
		}
		return ""
	}
	env.IO.In = &waitingReader{
		ready: func() bool { _, err := os.Stat(mark); return err == nil },
		r:     strings.NewReader("2\n"),
	}
	code := Run(context.Background(), env, []string{`{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"PostgreSQL","description":"a"},{"label":"SQLite","description":"b"}],"multiSelect":false}]}`})
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, env.IO.ErrOut)
	}
	if got, want := env.IO.Out.(*bytes.Buffer).String(), `{"answers":{"Database":"SQLite"}}`+"\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
	got, _ := os.ReadFile(mark)
	if string(got) != "Database|Which database?" {
		t.Errorf("the command saw %q, want the header and question", got)
	}
}

// A failed notification command is a warning after the prompts, not an
// error.
func TestNotifyCommandFailureWarns(t *testing.T) {
	n := startNotification("echo broken >&2; exit 3", schema.Question{Header: "H", Question: "Q?"})
	<-n.Done()
	s := &session{asker: &asker{}, cancel: func() {}, notify: n}
	var errOut bytes.Buffer
	s.end(&errOut)
	if got, want := errOut.String(), "Warning: ASKUSER_NOTIFY_COMMAND failed: exit status 3: broken\n"; got != want {
		t.Errorf("warning = %q, want %q", got, want)
	}
}

// The command's stderr in the warning is drawn through Display: what it
// wrote is shown, not obeyed by the terminal.
func TestNotifyCommandFailureIsShownNotObeyed(t *testing.T) {
	n := startNotification(`printf 'bad\033]0;pwned\007\033[2J\342\200\256\nnext' >&2; exit 3`, schema.Question{})
	<-n.Done()
	s := &session{asker: &asker{}, cancel: func() {}, notify: n}
	var errOut bytes.Buffer
	s.end(&errOut)
	if got, want := errOut.String(), `Warning: ASKUSER_NOTIFY_COMMAND failed: exit status 3: bad\x1b]0;pwned\x07\x1b[2J\u202e next`+"\n"; got != want {
		t.Errorf("warning = %q, want %q", got, want)
	}
}

// A notification command still running when askuser is done is neither
// waited for nor reported.
func TestNotifyCommandNotWaitedFor(t *testing.T) {
	n := startNotification("sleep 5", schema.Question{})
	start := time.Now()
	s := &session{asker: &asker{}, cancel: func() {}, notify: n}
	var errOut bytes.Buffer
	s.end(&errOut)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("end waited %s for the notification command", d)
	}
	if errOut.Len() != 0 {
		t.Errorf("unexpected warning %q", errOut.String())
	}
}

// finishingAsker is an asker that records how it was finished.
type finishingAsker struct {
	prompt.Asker
	err     error // what Finish returns
	summary []prompt.Summary
	calls   int
}

func (a *finishingAsker) Finish(_ context.Context, err error, summary []prompt.Summary) error {
	a.calls++
	a.summary = summary
	if a.err != nil {
		return a.err
	}
	return err
}

// An asker that is a prompt.Finisher finishes the session with the
// summary; one that is not is left alone.
func TestSessionFinish(t *testing.T) {
	summary := []prompt.Summary{{Asked: "Database:", Answer: "SQLite"}}
	a := &finishingAsker{}
	s := &session{asker: &asker{Asker: a}, ctx: context.Background(), cancel: func() {}}
	if err := s.finish(nil, summary); err != nil || a.calls != 1 || len(a.summary) != 1 {
		t.Errorf("finish = %v after %d calls with %v", err, a.calls, a.summary)
	}
	a.err = prompt.ErrCancelled
	if err := s.finish(errors.New("read"), nil); err != prompt.ErrCancelled {
		t.Errorf("finish = %v, want what Finish returned", err)
	}

	plain := &session{asker: &asker{Asker: line.New(strings.NewReader(""), io.Discard, false)}, ctx: context.Background(), cancel: func() {}}
	if err := plain.finish(prompt.ErrNoAnswer, summary); err != prompt.ErrNoAnswer {
		t.Errorf("finish = %v, want the asker's error", err)
	}
}

// The reason the session's context ended (a signal, a timeout) wins over
// what the asker saw, such as the end of input that a hang-up causes; a
// conversation that succeeded keeps its answers.
func TestSessionFinishPrefersTheContext(t *testing.T) {
	cause := &ask.SignalError{Sig: syscall.SIGHUP}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	a := &finishingAsker{}
	s := &session{asker: &asker{Asker: a}, ctx: ctx, cancel: func() {}}
	if err := s.finish(prompt.ErrNoAnswer, nil); err != cause {
		t.Errorf("finish = %v, want %v", err, cause)
	}
	if err := s.finish(nil, nil); err != nil {
		t.Errorf("finish after answers = %v, want nil", err)
	}
}

// end closes what the session opened for asking.
func TestSessionEndCloses(t *testing.T) {
	var closed int
	s := &session{asker: &asker{closers: []io.Closer{closerFunc(func() error { closed++; return nil })}}, cancel: func() {}}
	s.end(io.Discard)
	if closed != 1 {
		t.Errorf("closed %d times, want 1", closed)
	}
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }
