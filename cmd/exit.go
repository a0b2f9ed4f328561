package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Exit codes. They are part of the contract: agents and scripts branch on
// them.
const (
	ExitOK          = 0   // answered
	ExitError       = 1   // unexpected failure: I/O, terminal
	ExitUsage       = 64  // bad command line or limit variable
	ExitInvalid     = 65  // the questions are not valid
	ExitNoAnswer    = 66  // the answer input ended early
	ExitUnavailable = 69  // the way of asking chosen cannot be used here
	ExitTimeout     = 124 // --timeout passed
	ExitHangup      = 129 // SIGHUP
	ExitCancel      = 130 // Esc, Ctrl+C, SIGINT
	ExitTerm        = 143 // SIGTERM
)

// usageError is a mistake in how askuser was invoked.
type usageError struct {
	msg       string
	showUsage bool // follow the message with the one-line usage
}

func (e *usageError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// timeoutError is the cause of a context that ran out of time.
type timeoutError struct{ after time.Duration }

func (e *timeoutError) Error() string {
	return fmt.Sprintf("timed out after %s waiting for an answer", e.after)
}

// signalError is the cause of a context ended by a signal.
type signalError struct{ sig os.Signal }

func (e *signalError) Error() string { return "received " + e.sig.String() }

// noAnswerError says which question the answer input ended at.
type noAnswerError struct {
	index, total int
	key          string
}

func (e *noAnswerError) Error() string {
	return fmt.Sprintf("the answer input ended before question %d of %d (%q) was answered", e.index, e.total, e.key)
}

func (e *noAnswerError) Unwrap() error { return prompt.ErrNoAnswer }

// errDeclined is a "no" to askuser confirm: exit 1, with nothing to report.
var errDeclined = errors.New("declined")

// usageLine is shown after the errors that mean "this is not how to call
// me", for the command that was run, cmdPath: askuser validate reads the
// questions as askuser does, and every other command that reads them
// (askuser mcp, through its calls) is answered with askuser's own form.
func usageLine(cmdPath string) string {
	if strings.HasSuffix(cmdPath, " validate") {
		return fmt.Sprintf(`Usage: %s '{"questions":[...]}'`, cmdPath)
	}
	return `Usage: askuser '{"questions":[...]}'`
}

// singleQuotesError is a syntax error in questions written with single
// quotes, as Python and JavaScript allow and JSON does not; its report
// says so.
type singleQuotesError struct{ err error }

func (e *singleQuotesError) Error() string { return e.err.Error() }

func (e *singleQuotesError) Unwrap() error { return e.err }

// classify says what the outcome err means, to the person and to the
// caller: the text to write on stderr ("" for none) and the exit code of
// the contract. It is the only place that maps outcomes to exit codes. A
// usage error points to the help of the command that was run, cmdPath.
func classify(err error, cmdPath string) (string, int) {
	var (
		usage   *usageError
		limit   *schema.LimitError
		syntax  *schema.SyntaxError
		invalid *schema.ValidationError
		large   *schema.TooLargeError
		timeout *timeoutError
		sig     *signalError
		unavail *prompt.UnavailableError
		nobody  *noPersonError
	)
	switch {
	case err == nil:
		return "", ExitOK
	case errors.Is(err, errDeclined):
		return "", ExitError // the exit code says it all
	case errors.As(err, &usage):
		msg := fmt.Sprintf("Error: %s\n", capitalize(usage.msg))
		if usage.showUsage {
			return msg + usageLine(cmdPath) + "\n", ExitUsage
		}
		return msg + fmt.Sprintf("Run '%s --help' for usage.\n", cmdPath), ExitUsage
	case errors.As(err, &limit):
		return errorLine(err), ExitUsage
	case errors.As(err, &syntax):
		return syntaxReport(err, syntax, cmdPath), ExitInvalid
	case errors.As(err, &invalid):
		var b strings.Builder
		b.WriteString("Error: Validation failed\n")
		for _, p := range invalid.Problems {
			fmt.Fprintf(&b, "- %s\n", p)
		}
		return b.String(), ExitInvalid
	case errors.As(err, &large):
		return fmt.Sprintf("Error: Input too large: the questions are larger than 1 MiB (%d bytes); shorten them\n", schema.MaxInputSize), ExitInvalid
	case errors.As(err, &unavail):
		return errorLine(err), ExitUnavailable
	case errors.As(err, &nobody):
		return nobody.report(), ExitNoAnswer
	case errors.Is(err, prompt.ErrNoAnswer):
		return fmt.Sprintf("Error: No answer: %s\n", err), ExitNoAnswer
	case errors.As(err, &timeout):
		return errorLine(timeout), ExitTimeout
	case errors.Is(err, context.DeadlineExceeded):
		return errorLine(err), ExitTimeout
	case errors.Is(err, prompt.ErrCancelled):
		return "Error: Cancelled by the user\n", ExitCancel
	case errors.As(err, &sig):
		msg := fmt.Sprintf("Error: Stopped by %s\n", signalName(sig.sig))
		switch sig.sig {
		case syscall.SIGHUP:
			return msg, ExitHangup
		case syscall.SIGTERM:
			return msg, ExitTerm
		}
		return msg, ExitCancel
	}
	return errorLine(err), ExitError
}

// syntaxReport is the message of questions that are not JSON (syntax, in
// err), with a word on quoting when they were written with single quotes.
func syntaxReport(err error, syntax *schema.SyntaxError, cmdPath string) string {
	msg := fmt.Sprintf("Error: Invalid JSON format: %s\n", syntax)
	if errors.As(err, new(*singleQuotesError)) {
		msg += "JSON takes double quotes around keys and strings; put single quotes around the whole argument, for the shell:\n"
	}
	return msg + usageLine(cmdPath) + "\n"
}

// errorLine is the plain report of err: "Error: " and its message.
func errorLine(err error) string {
	return fmt.Sprintf("Error: %s\n", capitalize(err.Error()))
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
