// Package ask is the ask engine that the command line (cmd) and askuser
// mcp (internal/mcpserver) share: where the questions come from, a request
// and the answers given in advance, the ways of reaching the person that a
// Place has and the route each door takes through them, the one walk of a
// route, the command line's run around it, the answers written as
// JSON, and the one table that says what every outcome means: its exit
// code, its message on stderr, and what a model reads in a tool error. It
// reads no environment variable: cmd resolves its Options.
package ask

import (
	"cmp"
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
	exitOK          = 0   // answered
	exitError       = 1   // unexpected failure: I/O, terminal
	exitUsage       = 64  // bad command line or limit variable
	exitInvalid     = 65  // the questions are not valid
	exitNoAnswer    = 66  // the answer input ended early
	exitUnavailable = 69  // the way of asking chosen cannot be used here
	exitTimeout     = 124 // --timeout passed
	exitHangup      = 129 // SIGHUP
	exitCancel      = 130 // Esc, Ctrl+C, SIGINT
	exitTerm        = 143 // SIGTERM
)

// UsageError is a mistake in how askuser was invoked.
type UsageError struct {
	Msg       string
	showUsage bool // follow the message with the one-line usage
	// See is the help to read, when not the command's own: "askuser help
	// environment" for a variable's value.
	See string
}

func (e *UsageError) Error() string { return e.Msg }

// UsageErrorf returns a *UsageError with a formatted message.
func UsageErrorf(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// InputError is input that is not what the command reads (askuser
// approve's, from an agent tool): one line says what it is and what to
// do, exit 65 as for questions that are not valid.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }

func (e *InputError) Unwrap() error { return e.Err }

// timeoutError is the cause of a context that ran out of time: the
// command line's --timeout, and a call of askuser mcp that waited its
// timeout.
type timeoutError struct{ After time.Duration }

func (e *timeoutError) Error() string {
	return fmt.Sprintf("timed out after %s waiting for an answer", e.After)
}

// SignalError is the cause of a context ended by a signal.
type SignalError struct{ Sig os.Signal }

func (e *SignalError) Error() string { return "received " + e.Sig.String() }

// noAnswerError says which question the answer input ended at.
type noAnswerError struct {
	Index, Total int
	Key          string
}

func (e *noAnswerError) Error() string {
	return fmt.Sprintf("the answer input ended before question %d of %d (%q) was answered", e.Index, e.Total, e.Key)
}

func (e *noAnswerError) Unwrap() error { return prompt.ErrNoAnswer }

// ErrDeclined is a "no" to askuser confirm: exit 1, with nothing to report.
var ErrDeclined = errors.New("declined")

// ErrReported is the failure of a command that has said what is wrong in
// its own output (askuser doctor): exit 1, with nothing more to report.
var ErrReported = errors.New("reported")

// singleQuotesError is a syntax error in questions written with single
// quotes, as Python and JavaScript allow and JSON does not; its report
// says so.
type singleQuotesError struct{ Err error }

func (e *singleQuotesError) Error() string { return e.Err.Error() }

func (e *singleQuotesError) Unwrap() error { return e.Err }

// usageLine returns the line shown after the errors that mean "this is not
// how to call me", for the command that was run, cmdPath: askuser validate
// reads the questions as askuser does, and every other command that reads
// them (askuser mcp, through its calls) is answered with askuser's own
// form.
func usageLine(cmdPath string) string {
	if strings.HasSuffix(cmdPath, " validate") {
		return fmt.Sprintf(`Usage: %s '{"questions":[...]}'`, cmdPath)
	}
	return `Usage: askuser '{"questions":[...]}'`
}

// DontAskAgain is what a tool error tells the model after an outcome that
// asking again at once would only repeat.
const DontAskAgain = " Do not ask again at once: carry on with what you know, or stop and say what you need."

// outcome is what an outcome means: its exit code, and its words on the
// command line (stderr) and to a model (an MCP tool error; "" where the
// model reads what the command line writes).
type outcome struct {
	code      int
	cli, tool string
}

// outcomeOf returns the one table of outcomes, in the order they are told
// apart: the first that err is, is its outcome. A usage error points to
// the help of cmdPath. Those of the MCP client's own (its forms, its
// requests) are worded by askuser mcp.
func outcomeOf(err error, cmdPath string) outcome {
	if _, ok := errors.AsType[*endedError](err); ok {
		return outcome{exitUnavailable, errorLine(err), fmt.Sprintf("Error: %s.", prompt.Capitalize(err.Error())) + DontAskAgain}
	}
	if errors.Is(err, ErrDeclined) || errors.Is(err, ErrReported) {
		return outcome{code: exitError}
	}
	if usage, ok := errors.AsType[*UsageError](err); ok {
		return outcome{code: exitUsage, cli: usageReport(usage, cmdPath)}
	}
	if syntax, ok := errors.AsType[*schema.SyntaxError](err); ok {
		return outcome{code: exitInvalid, cli: syntaxReport(err, syntax, cmdPath)}
	}
	if _, ok := errors.AsType[*InputError](err); ok {
		return outcome{code: exitInvalid, cli: errorLine(err)}
	}
	if invalid, ok := errors.AsType[*schema.ValidationError](err); ok {
		return outcome{code: exitInvalid, cli: validationReport(invalid)}
	}
	if _, ok := errors.AsType[*schema.TooLargeError](err); ok {
		return outcome{code: exitInvalid, cli: fmt.Sprintf("Error: Input too large: the questions are larger than 1 MiB (%d bytes); shorten them\n", schema.MaxInputSize)}
	}
	if unavailable, ok := errors.AsType[*prompt.UnavailableError](err); ok {
		return outcome{exitUnavailable, errorLine(err), unavailableText(err, unavailable)}
	}
	if person, ok := errors.AsType[*noPersonError](err); ok {
		return outcome{code: exitNoAnswer, cli: person.report()}
	}
	if errors.Is(err, prompt.ErrNoAnswer) {
		return outcome{code: exitNoAnswer, cli: fmt.Sprintf("Error: No answer: %s\n", err)}
	}
	if timeout, ok := errors.AsType[*timeoutError](err); ok {
		return outcome{exitTimeout, errorLine(timeout), fmt.Sprintf("Error: Timed out after %s: nobody answered in time.", timeout.After) + DontAskAgain}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return outcome{code: exitTimeout, cli: errorLine(err)}
	}
	if errors.Is(err, prompt.ErrCancelled) {
		return outcome{exitCancel, "Error: Cancelled by the user\n", "Error: Cancelled: the person closed the questions without answering." + DontAskAgain}
	}
	if sig, ok := errors.AsType[*SignalError](err); ok {
		return outcome{code: sig.exitCode(), cli: fmt.Sprintf("Error: Stopped by %s\n", sig.Name())}
	}
	return outcome{code: exitError, cli: errorLine(err)}
}

// Outcome says what the outcome err means on the command line: the text to
// write on stderr ("" for none) and the exit code of the contract. A usage
// error points to the help of the command that was run, cmdPath.
func Outcome(err error, cmdPath string) (string, int) {
	if err == nil {
		return "", exitOK
	}
	// A command that prints text (docs, history, a listing) whose reader
	// went away, as head does after its lines, ends quietly, as git's
	// commands do; exit 0 rather than git's 141 (death by SIGPIPE), which
	// the contract's table does not have and which fails a pipeline under
	// set -o pipefail for a reader that took what it wanted. An answer
	// that could not be written is never dropped so: it is reported.
	if _, answer := errors.AsType[*NotWrittenError](err); errors.Is(err, syscall.EPIPE) && !answer {
		return "", exitOK
	}
	o := outcomeOf(err, cmdPath)
	return o.cli, o.code
}

// ToolErrorText returns what a call of askuser mcp that got no answers tells
// the model: what happened, and what to do next.
func ToolErrorText(err error) string {
	o := outcomeOf(err, "askuser mcp")
	return cmp.Or(o.tool, strings.TrimSuffix(o.cli, "\n"))
}

// signals are the signals that end a run, by the names the person knows
// them by, with their exit codes; any other ends it as SIGINT does.
var signals = map[os.Signal]struct {
	name string
	code int
}{os.Interrupt: {"SIGINT", exitCancel}, syscall.SIGTERM: {"SIGTERM", exitTerm}, syscall.SIGHUP: {"SIGHUP", exitHangup}}

// exitCode returns the exit code of the signal that ended the run.
func (e *SignalError) exitCode() int { return cmp.Or(signals[e.Sig].code, exitCancel) }

func usageReport(usage *UsageError, cmdPath string) string {
	msg := fmt.Sprintf("Error: %s\n", prompt.Capitalize(usage.Msg))
	if usage.showUsage {
		return msg + usageLine(cmdPath) + "\n"
	}
	return msg + fmt.Sprintf("Run '%s' for usage.\n", cmp.Or(usage.See, cmdPath+" --help"))
}

// syntaxReport returns the message of questions that are not JSON (syntax),
// with a word on quoting when they were written with single quotes.
func syntaxReport(err error, syntax *schema.SyntaxError, cmdPath string) string {
	msg := fmt.Sprintf("Error: Invalid JSON format: %s\n", syntax)
	if _, ok := errors.AsType[*singleQuotesError](err); ok {
		msg += "JSON takes double quotes around keys and strings; put single quotes around the whole argument, for the shell:\n"
	}
	return msg + usageLine(cmdPath) + "\n"
}

func validationReport(invalid *schema.ValidationError) string {
	var b strings.Builder
	b.WriteString("Error: Validation failed\n")
	for _, p := range invalid.Problems {
		fmt.Fprintf(&b, "- %s\n", p)
	}
	return b.String()
}

// unavailableText tells the model why no way could reach the person, and
// what the person can do about it.
func unavailableText(err error, unavailable *prompt.UnavailableError) string {
	hint := "Tell the person, who can change how askuser mcp is set up."
	if none, ok := errors.AsType[*noWayError](err); ok && len(none.Hints) > 0 {
		hint = strings.Join(none.Hints, " ")
	}
	return fmt.Sprintf("Error: %s. %s", prompt.Capitalize(unavailable.Error()), hint)
}

func errorLine(err error) string {
	return fmt.Sprintf("Error: %s\n", prompt.Capitalize(err.Error()))
}

// Name returns the signal's name as the person knows it: SIGINT, SIGTERM,
// SIGHUP.
func (e *SignalError) Name() string { return cmp.Or(signals[e.Sig].name, e.Sig.String()) }
