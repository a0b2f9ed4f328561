package ask

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/line"
	"github.com/askuser/askuser/schema"
)

// startNotification runs line as ASKUSER_NOTIFY_COMMAND, told of q.
func startNotification(line string, q schema.Question) *notify.Run {
	return notify.Command{Name: "ASKUSER_NOTIFY_COMMAND", Line: line}.Start(notify.Notice{Header: q.Header, Question: q.Question})
}

// A failed notification command is a warning after the prompts, not an
// error.
func TestNotifyCommandFailureWarns(t *testing.T) {
	n := startNotification("echo broken >&2; exit 3", schema.Question{Header: "H", Question: "Q?"})
	<-n.Done()
	var errOut bytes.Buffer
	n.Warn(&errOut)
	if got, want := errOut.String(), "Warning: ASKUSER_NOTIFY_COMMAND failed: exit status 3: broken\n"; got != want {
		t.Errorf("warning = %q, want %q", got, want)
	}
}

// The command's stderr in the warning is drawn through Display: what it
// wrote is shown, not obeyed by the terminal.
func TestNotifyCommandFailureIsShownNotObeyed(t *testing.T) {
	n := startNotification(`printf 'bad\033]0;pwned\007\033[2J\342\200\256\nnext' >&2; exit 3`, schema.Question{})
	<-n.Done()
	var errOut bytes.Buffer
	n.Warn(&errOut)
	if got, want := errOut.String(), `Warning: ASKUSER_NOTIFY_COMMAND failed: exit status 3: bad\x1b]0;pwned\x07\x1b[2J\u202e next`+"\n"; got != want {
		t.Errorf("warning = %q, want %q", got, want)
	}
}

// A notification command still running when askuser is done is neither
// waited for nor reported.
func TestNotifyCommandNotWaitedFor(t *testing.T) {
	n := startNotification("sleep 60", schema.Question{})
	start := time.Now()
	var errOut bytes.Buffer
	n.Warn(&errOut)
	if d := time.Since(start); d > testutil.Slow {
		t.Errorf("end waited %s for the notification command", d)
	}
	if errOut.Len() != 0 {
		t.Errorf("unexpected warning %q", errOut.String())
	}
}

// finishingAsker is an asker that records how it was finished.
type finishingAsker struct {
	prompt.Prompter
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
	ctx := context.Background()
	if err := finish(ctx, &Opened{Prompter: a}, nil, summary); err != nil || a.calls != 1 || len(a.summary) != 1 {
		t.Errorf("finish = %v after %d calls with %v", err, a.calls, a.summary)
	}
	a.err = prompt.ErrCancelled
	if err := finish(ctx, &Opened{Prompter: a}, errors.New("read"), nil); err != prompt.ErrCancelled {
		t.Errorf("finish = %v, want what Finish returned", err)
	}

	plain := &Opened{Prompter: line.New(strings.NewReader(""), io.Discard, false)}
	if err := finish(ctx, plain, prompt.ErrNoAnswer, summary); err != prompt.ErrNoAnswer {
		t.Errorf("finish = %v, want the asker's error", err)
	}
}

// The reason the session's context ended (a signal, a timeout) wins over
// what the asker saw, such as the end of input that a hang-up causes; a
// asking that succeeded keeps its answers.
func TestSessionFinishPrefersTheContext(t *testing.T) {
	cause := &SignalError{Sig: syscall.SIGHUP}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	opened := &Opened{Prompter: &finishingAsker{}}
	if err := finish(ctx, opened, prompt.ErrNoAnswer, nil); err != cause {
		t.Errorf("finish = %v, want %v", err, cause)
	}
	if err := finish(ctx, opened, nil, nil); err != nil {
		t.Errorf("finish after answers = %v, want nil", err)
	}
}

// Closing a route releases what the way that asked opened, once.
func TestRouteCloses(t *testing.T) {
	var closed int
	way := answering("here", false)
	open := way.Open
	way.Open = func(ctx context.Context) (*Opened, error) {
		o, err := open(ctx)
		o.close = func() { closed++ }
		return o, err
	}
	r := &Route{Ways: []Way{way}}
	if _, err := r.Ask(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	r.Close()
	r.Close()
	if closed != 1 {
		t.Errorf("closed %d times, want 1", closed)
	}
}
