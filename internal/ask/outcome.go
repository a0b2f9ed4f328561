// Package ask is the ask engine that the command line (cmd) and askuser
// mcp (internal/mcpserver) share: where the questions come from, a request
// and the answers given in advance, the ways of reaching the person that a
// Place has and the route each door takes through them (place.go), the one
// walk of a route (route.go), the command line's session around it, the
// answers written as JSON, and the one table that says what every outcome
// means: its exit code, its message on stderr, and what a model reads in a
// tool error. It reads no environment variable: cmd resolves its Options.
package ask

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

// UsageError is a mistake in how askuser was invoked.
type UsageError struct {
	Msg       string
	ShowUsage bool // follow the message with the one-line usage
}

func (e *UsageError) Error() string { return e.Msg }

// UsageErrorf is a *UsageError with a formatted message.
func UsageErrorf(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// InputError is input that is not what the command reads (askuser
// approve's, from an agent tool): one line says what it is and what to
// do, exit 65 as for questions that are not valid.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }

func (e *InputError) Unwrap() error { return e.Err }

// TimeoutError is the cause of a context that ran out of time: the
// command line's --timeout, and a call of askuser mcp that waited its
// timeout.
type TimeoutError struct{ After time.Duration }

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("timed out after %s waiting for an answer", e.After)
}

// SignalError is the cause of a context ended by a signal.
type SignalError struct{ Sig os.Signal }

func (e *SignalError) Error() string { return "received " + e.Sig.String() }

// NoAnswerError says which question the answer input ended at.
type NoAnswerError struct {
	Index, Total int
	Key          string
}

func (e *NoAnswerError) Error() string {
	return fmt.Sprintf("the answer input ended before question %d of %d (%q) was answered", e.Index, e.Total, e.Key)
}

func (e *NoAnswerError) Unwrap() error { return prompt.ErrNoAnswer }

// ErrDeclined is a "no" to askuser confirm: exit 1, with nothing to report.
var ErrDeclined = errors.New("declined")

// SingleQuotesError is a syntax error in questions written with single
// quotes, as Python and JavaScript allow and JSON does not; its report
// says so.
type SingleQuotesError struct{ Err error }

func (e *SingleQuotesError) Error() string { return e.Err.Error() }

func (e *SingleQuotesError) Unwrap() error { return e.Err }

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

// DontAskAgain is what a tool error tells the model after an outcome that
// asking again at once would only repeat.
const DontAskAgain = " Do not ask again at once: carry on with what you know, or stop and say what you need."

// outcome is one kind of outcome: how to tell it, its exit code, and its
// words on the command line (stderr) and to a model (an MCP tool error).
// tool is nil where the model reads what the command line writes.
type outcome struct {
	is   func(error) bool
	code func(error) int
	cli  func(err error, cmdPath string) string
	tool func(error) string
}

// outcomes is the one table of outcomes, in the order they are told
// apart: the first that matches an error is its outcome. Those of the
// MCP client's own (its forms, its requests) are worded by askuser mcp.
var outcomes = []outcome{
	{is: isType[*EndedError], code: exit(ExitUnavailable), cli: plain,
		tool: func(err error) string {
			return fmt.Sprintf("Error: %s.", prompt.Capitalize(err.Error())) + DontAskAgain
		}},
	{is: isErr(ErrDeclined), code: exit(ExitError), cli: func(error, string) string { return "" }},
	{is: isType[*UsageError], code: exit(ExitUsage), cli: usageReport},
	{is: isType[*schema.LimitError], code: exit(ExitUsage), cli: plain},
	{is: isType[*schema.SyntaxError], code: exit(ExitInvalid), cli: syntaxReport},
	{is: isType[*InputError], code: exit(ExitInvalid), cli: plain},
	{is: isType[*schema.ValidationError], code: exit(ExitInvalid), cli: validationReport},
	{is: isType[*schema.TooLargeError], code: exit(ExitInvalid), cli: func(error, string) string {
		return fmt.Sprintf("Error: Input too large: the questions are larger than 1 MiB (%d bytes); shorten them\n", schema.MaxInputSize)
	}},
	{is: isType[*prompt.UnavailableError], code: exit(ExitUnavailable), cli: plain, tool: unavailableText},
	{is: isType[*NoPersonError], code: exit(ExitNoAnswer),
		cli: func(err error, _ string) string { return as[*NoPersonError](err).report() }},
	{is: isErr(prompt.ErrNoAnswer), code: exit(ExitNoAnswer),
		cli: func(err error, _ string) string { return fmt.Sprintf("Error: No answer: %s\n", err) }},
	{is: isType[*TimeoutError], code: exit(ExitTimeout),
		cli: func(err error, _ string) string { return errorLine(as[*TimeoutError](err)) },
		tool: func(err error) string {
			return fmt.Sprintf("Error: Timed out after %s: nobody answered in time.", as[*TimeoutError](err).After) + DontAskAgain
		}},
	{is: isErr(context.DeadlineExceeded), code: exit(ExitTimeout), cli: plain},
	{is: isErr(prompt.ErrCancelled), code: exit(ExitCancel),
		cli: func(error, string) string { return "Error: Cancelled by the user\n" },
		tool: func(error) string {
			return "Error: Cancelled: the person closed the questions without answering." + DontAskAgain
		}},
	{is: isType[*SignalError], code: signalCode, cli: func(err error, _ string) string {
		return fmt.Sprintf("Error: Stopped by %s\n", as[*SignalError](err).Name())
	}},
}

// Outcome says what the outcome err means on the command line: the text to
// write on stderr ("" for none) and the exit code of the contract. A usage
// error points to the help of the command that was run, cmdPath.
func Outcome(err error, cmdPath string) (string, int) {
	if err == nil {
		return "", ExitOK
	}
	o := outcomeOf(err)
	return o.cli(err, cmdPath), o.code(err)
}

// ToolErrorText is what a call of askuser mcp that got no answers tells
// the model: what happened, and what to do next.
func ToolErrorText(err error) string {
	o := outcomeOf(err)
	if o.tool != nil {
		return o.tool(err)
	}
	return strings.TrimSuffix(o.cli(err, "askuser mcp"), "\n")
}

// outcomeOf is the first outcome in the table that err is, else an
// unexpected failure.
func outcomeOf(err error) outcome {
	for _, o := range outcomes {
		if o.is(err) {
			return o
		}
	}
	return outcome{code: exit(ExitError), cli: plain}
}

// isType matches an error that is, or wraps, a T.
func isType[T error](err error) bool {
	_, ok := errors.AsType[T](err)
	return ok
}

// as is the T that err is or wraps; outcomes call it after isType.
func as[T error](err error) T {
	t, _ := errors.AsType[T](err)
	return t
}

// isErr matches an error that is, or wraps, target.
func isErr(target error) func(error) bool {
	return func(err error) bool { return errors.Is(err, target) }
}

func exit(code int) func(error) int {
	return func(error) int { return code }
}

// signalCode is the exit code of the signal that ended the run.
func signalCode(err error) int {
	switch as[*SignalError](err).Sig {
	case syscall.SIGHUP:
		return ExitHangup
	case syscall.SIGTERM:
		return ExitTerm
	}
	return ExitCancel
}

func usageReport(err error, cmdPath string) string {
	usage := as[*UsageError](err)
	msg := fmt.Sprintf("Error: %s\n", prompt.Capitalize(usage.Msg))
	if usage.ShowUsage {
		return msg + usageLine(cmdPath) + "\n"
	}
	return msg + fmt.Sprintf("Run '%s --help' for usage.\n", cmdPath)
}

// syntaxReport is the message of questions that are not JSON, with a word
// on quoting when they were written with single quotes.
func syntaxReport(err error, cmdPath string) string {
	msg := fmt.Sprintf("Error: Invalid JSON format: %s\n", as[*schema.SyntaxError](err))
	if isType[*SingleQuotesError](err) {
		msg += "JSON takes double quotes around keys and strings; put single quotes around the whole argument, for the shell:\n"
	}
	return msg + usageLine(cmdPath) + "\n"
}

func validationReport(err error, _ string) string {
	var b strings.Builder
	b.WriteString("Error: Validation failed\n")
	for _, p := range as[*schema.ValidationError](err).Problems {
		fmt.Fprintf(&b, "- %s\n", p)
	}
	return b.String()
}

// unavailableText tells the model why no way could reach the person, and
// what the person can do about it.
func unavailableText(err error) string {
	hint := "Tell the person, who can change how askuser mcp is set up."
	if none := as[*NoWayError](err); none != nil && len(none.Hints) > 0 {
		hint = strings.Join(none.Hints, " ")
	}
	return fmt.Sprintf("Error: %s. %s", prompt.Capitalize(as[*prompt.UnavailableError](err).Error()), hint)
}

// plain is the plain report of err: "Error: " and its message.
func plain(err error, _ string) string { return errorLine(err) }

func errorLine(err error) string {
	return fmt.Sprintf("Error: %s\n", prompt.Capitalize(err.Error()))
}

// Name is the signal's name as the person knows it: SIGINT, SIGTERM,
// SIGHUP.
func (e *SignalError) Name() string {
	switch e.Sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return e.Sig.String()
}
