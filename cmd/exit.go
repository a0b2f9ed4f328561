package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Exit codes. They are part of the contract: agents and scripts branch on
// them.
const (
	ExitOK       = 0   // answered
	ExitError    = 1   // unexpected failure: I/O, terminal
	ExitUsage    = 64  // bad command line or limit variable
	ExitInvalid  = 65  // the questions are not valid
	ExitNoAnswer = 66  // the answer input ended early
	ExitTimeout  = 124 // --timeout passed
	ExitHangup   = 129 // SIGHUP
	ExitCancel   = 130 // Esc, Ctrl+C, SIGINT
	ExitTerm     = 143 // SIGTERM
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

// exitCode maps an error to the exit code of the contract. It is the only
// place that does.
func exitCode(err error) int {
	var (
		usage   *usageError
		syntax  *schema.SyntaxError
		invalid *schema.ValidationError
		large   *schema.TooLargeError
		limit   *schema.LimitError
		timeout *timeoutError
		sig     *signalError
	)
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, errDeclined):
		return ExitError
	case errors.As(err, &usage), errors.As(err, &limit):
		return ExitUsage
	case errors.As(err, &syntax), errors.As(err, &invalid), errors.As(err, &large):
		return ExitInvalid
	case errors.Is(err, prompt.ErrNoAnswer):
		return ExitNoAnswer
	case errors.As(err, &timeout), errors.Is(err, context.DeadlineExceeded):
		return ExitTimeout
	case errors.Is(err, prompt.ErrCancelled):
		return ExitCancel
	case errors.As(err, &sig):
		switch sig.sig {
		case syscall.SIGHUP:
			return ExitHangup
		case syscall.SIGTERM:
			return ExitTerm
		}
		return ExitCancel
	}
	return ExitError
}
