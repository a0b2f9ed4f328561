//go:build unix

package ask

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
)

// A terminal whose other side has closed says that it hung up; the
// asking it ended is a hang-up at once, whatever error the asker
// saw, except a cancellation, which the person chose.
func TestHungUp(t *testing.T) {
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer pts.Close()
	ctx := context.Background()
	if terminalGone(pts) {
		t.Fatal("an open terminal reads as hung up")
	}
	ptm.Close()
	if !terminalGone(pts) {
		t.Fatal("a terminal whose master closed does not read as hung up")
	}
	for _, err := range []error{prompt.ErrNoAnswer, fmt.Errorf("write prompt: %w", &os.PathError{Op: "write", Err: errors.New("input/output error")})} {
		if !hungUp(ctx, err, []*os.File{pts}) {
			t.Errorf("%v on a hung-up terminal is not a hang-up", err)
		}
	}
	for _, err := range []error{nil, prompt.ErrCancelled} {
		if hungUp(ctx, err, []*os.File{pts}) {
			t.Errorf("%v on a hung-up terminal is a hang-up", err)
		}
	}
	if hungUp(ctx, prompt.ErrNoAnswer, nil) {
		t.Error("the end of input with no terminal is a hang-up")
	}
}

// Where the terminal does not say it hung up, the end of its input waits a
// moment for the signal, and no longer than the context lasts.
func TestHungUpWaitsForTheSignal(t *testing.T) {
	_, pts, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer pts.Close()
	start := time.Now()
	if hungUp(context.Background(), prompt.ErrNoAnswer, []*os.File{pts}) {
		t.Error("the end of input on a working terminal is a hang-up")
	}
	if d := time.Since(start); d < hangupGrace {
		t.Errorf("waited %s for the signal, want %s", d, hangupGrace)
	}

	// A grace no busy machine's delay reaches tells a wait for it apart.
	defer func(g time.Duration) { hangupGrace = g }(hangupGrace)
	hangupGrace = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	start = time.Now()
	hungUp(ctx, prompt.ErrNoAnswer, []*os.File{pts})
	if d := time.Since(start); d > testutil.Slow {
		t.Errorf("waited %s after the context ended", d)
	}

	start = time.Now()
	hungUp(context.Background(), errors.New("something else"), []*os.File{pts})
	if d := time.Since(start); d > testutil.Slow {
		t.Errorf("waited %s after an error that is not the end of input", d)
	}
}
