package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

func TestExitCode(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("ask: %w", err) }
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, ExitOK},
		{"unexpected", errors.New("disk on fire"), ExitError},
		{"read error", fmt.Errorf("read questions: %w", os.ErrNotExist), ExitError},
		{"cancelled without a cause", context.Canceled, ExitError},
		{"usage", usageErrorf("unknown flag"), ExitUsage},
		{"missing JSON", missingJSON(), ExitUsage},
		{"limit", &schema.LimitError{Env: "ASK_MAX_OPTIONS", Value: "1", Min: 2}, ExitUsage},
		{"syntax", &schema.SyntaxError{Msg: "bad", Line: 1, Column: 1}, ExitInvalid},
		{"validation", &schema.ValidationError{}, ExitInvalid},
		{"too large", &schema.TooLargeError{Size: 2 << 20}, ExitInvalid},
		{"no answer", prompt.ErrNoAnswer, ExitNoAnswer},
		{"short", &prompt.ShortError{Answered: 1}, ExitNoAnswer},
		{"no answer at a question", &noAnswerError{index: 2, total: 3, key: "K"}, ExitNoAnswer},
		{"timeout", &timeoutError{after: time.Second}, ExitTimeout},
		{"deadline", context.DeadlineExceeded, ExitTimeout},
		{"cancelled by the user", prompt.ErrCancelled, ExitCancel},
		{"SIGINT", &signalError{sig: os.Interrupt}, ExitCancel},
		{"SIGHUP", &signalError{sig: syscall.SIGHUP}, ExitHangup},
		{"SIGTERM", &signalError{sig: syscall.SIGTERM}, ExitTerm},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exitCode(tt.err); got != tt.want {
				t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.want)
			}
			if tt.err == nil {
				return
			}
			if got := exitCode(wrap(tt.err)); got != tt.want {
				t.Errorf("exitCode(wrapped %v) = %d, want %d", tt.err, got, tt.want)
			}
		})
	}
}

// TestExitCodesAreTheContract pins the numbers: agents and scripts branch
// on them.
func TestExitCodesAreTheContract(t *testing.T) {
	got := []int{ExitOK, ExitError, ExitUsage, ExitInvalid, ExitNoAnswer, ExitTimeout, ExitHangup, ExitCancel, ExitTerm}
	want := []int{0, 1, 64, 65, 66, 124, 129, 130, 143}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("exit code %d is %d", want[i], got[i])
		}
	}
}
