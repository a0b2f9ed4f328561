package ask

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// TestOutcome is the contract of outcomes: each kind of error gets its
// exit code and its words on stderr, wrapped in context or not.
func TestOutcome(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("ask: %w", err) }
	const usage = "Usage: askuser '{\"questions\":[...]}'\n"
	tests := []struct {
		name string
		err  error
		code int
		msg  string // for the error unwrapped; "" when nothing is written
	}{
		{"nil", nil, exitOK, ""},
		{"declined", ErrDeclined, exitError, ""},
		{"unexpected", errors.New("disk on fire"), exitError, "Error: Disk on fire\n"},
		{"read error", fmt.Errorf("read questions: %w", os.ErrNotExist), exitError, "Error: Read questions: file does not exist\n"},
		{"cancelled without a cause", context.Canceled, exitError, "Error: Context canceled\n"},
		{"usage", UsageErrorf("unknown flag: --x"), exitUsage, "Error: Unknown flag: --x\nRun 'askuser --help' for usage.\n"},
		{"missing JSON", &UsageError{Msg: "Missing JSON parameter", showUsage: true}, exitUsage, "Error: Missing JSON parameter\n" + usage},
		{"usage, of a variable", &UsageError{Msg: "invalid ASKUSER_UI \"x\"", See: "askuser help environment"}, exitUsage, "Error: Invalid ASKUSER_UI \"x\"\nRun 'askuser help environment' for usage.\n"},
		{"reported", ErrReported, exitError, ""},
		{"syntax", &schema.SyntaxError{Msg: "unexpected end of input", Line: 2, Column: 3}, exitInvalid,
			"Error: Invalid JSON format: unexpected end of input at line 2, column 3\n" + usage},
		{"validation", &schema.ValidationError{Problems: []schema.Problem{{Path: "questions", Message: "required"}, {Path: "answers.x", Message: "must not be empty"}}}, exitInvalid,
			"Error: Validation failed\n- questions: required\n- answers.x: must not be empty\n"},
		{"too large", &schema.TooLargeError{Size: 5 << 20}, exitInvalid, "Error: Input too large: the questions are larger than 1 MiB (1048576 bytes); shorten them\n"},
		{"no answer", prompt.ErrNoAnswer, exitNoAnswer, "Error: No answer: the answer input ended before every question was answered\n"},
		{"short", &prompt.ShortError{Answered: 1}, exitNoAnswer, "Error: No answer: the answer input ended before every question was answered\n"},
		{"no answer at a question", &noAnswerError{Index: 2, Total: 3, Key: "Auth method"}, exitNoAnswer,
			"Error: No answer: the answer input ended before question 2 of 3 (\"Auth method\") was answered\n"},
		{"unavailable", &prompt.UnavailableError{Err: errors.New("--ui tui needs a terminal")}, exitUnavailable, "Error: --ui tui needs a terminal\n"},
		{"timeout", &timeoutError{After: 5 * time.Minute}, exitTimeout, "Error: Timed out after 5m0s waiting for an answer\n"},
		{"deadline", context.DeadlineExceeded, exitTimeout, "Error: Context deadline exceeded\n"},
		{"cancelled by the user", prompt.ErrCancelled, exitCancel, "Error: Cancelled by the user\n"},
		{"SIGINT", &SignalError{Sig: os.Interrupt}, exitCancel, "Error: Stopped by SIGINT\n"},
		{"SIGHUP", &SignalError{Sig: syscall.SIGHUP}, exitHangup, "Error: Stopped by SIGHUP\n"},
		{"SIGTERM", &SignalError{Sig: syscall.SIGTERM}, exitTerm, "Error: Stopped by SIGTERM\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, code := Outcome(tt.err, "askuser")
			if code != tt.code || msg != tt.msg {
				t.Errorf("Outcome(%v) = %q, %d\n                     want %q, %d", tt.err, msg, code, tt.msg, tt.code)
			}
			if tt.err == nil {
				return
			}
			if _, code := Outcome(wrap(tt.err), "askuser"); code != tt.code {
				t.Errorf("Outcome(wrapped %v) exits %d, want %d", tt.err, code, tt.code)
			}
		})
	}
}

// A usage error points to the help of the command that was run.
func TestOutcomeUsageNamesTheCommand(t *testing.T) {
	msg, _ := Outcome(UsageErrorf("unknown flag: --x"), "askuser validate")
	if want := "Error: Unknown flag: --x\nRun 'askuser validate --help' for usage.\n"; msg != want {
		t.Errorf("classify = %q, want %q", msg, want)
	}
}

// TestExitCodesAreTheContract pins the numbers: agents and scripts branch
// on them.
func TestExitCodesAreTheContract(t *testing.T) {
	got := []int{exitOK, exitError, exitUsage, exitInvalid, exitNoAnswer, exitUnavailable, exitTimeout, exitHangup, exitCancel, exitTerm}
	want := []int{0, 1, 64, 65, 66, 69, 124, 129, 130, 143}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("exit code %d is %d", want[i], got[i])
		}
	}
}

// What a call of askuser mcp that got no answers tells the model: the
// engine's outcomes of its own, and the command line's words for the
// rest.
func TestToolErrorText(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&timeoutError{After: 90 * time.Second}, "Error: Timed out after 1m30s: nobody answered in time. Do not ask again at once"},
		{prompt.ErrCancelled, "Error: Cancelled: the person closed the questions without answering. Do not ask again at once"},
		{&endedError{Err: errors.New("the inbox closed")}, "Error: The inbox closed. Do not ask again at once"},
		{&prompt.UnavailableError{Err: &noWayError{Ways: []string{"inbox"}, Errs: []error{errors.New("none")}, Hints: []string{"Start it."}}}, "Error: None. Start it."},
		{&schema.ValidationError{Problems: []schema.Problem{{Path: "questions", Message: "required"}}}, "Error: Validation failed\n- questions: required"},
		{errors.New("disk full"), "Error: Disk full"},
	} {
		if got := ToolErrorText(tc.err); !strings.HasPrefix(got, tc.want) || strings.HasSuffix(got, "\n") {
			t.Errorf("%v: %q, want it to start %q, without a line end", tc.err, got, tc.want)
		}
	}
}
