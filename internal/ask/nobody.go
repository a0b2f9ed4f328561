package ask

import (
	"errors"
	"fmt"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

// noPersonError is no answer where nobody could give one: stdin gave
// nothing, and no inbox answers. Its report says how to reach the person.
type noPersonError struct {
	err    error  // the no-answer error, naming the question
	Stdin  string // what stdin is, or what it did
	Silent bool   // stdin never ended: it only never spoke
	// Terminal: stdin held only the questions, and a terminal exists,
	// where a person could answer with the questions given otherwise.
	Terminal bool
	Addr     inbox.Addr
	Probe    error // why no inbox answered
}

func (e *noPersonError) Error() string {
	if e.err == nil {
		return "nobody can answer on stdin (" + e.Stdin + ")"
	}
	return e.err.Error()
}

func (e *noPersonError) Unwrap() error { return e.err }

// explain makes err, when it is no answer, a *noPersonError that says how
// to reach the person. e may be nil: err is then returned as it is.
func (e *noPersonError) explain(err error) error {
	if e == nil || !errors.Is(err, prompt.ErrNoAnswer) {
		return err
	}
	explained := *e
	explained.err = err
	return &explained
}

// nobody returns the end of the command line's route in auto mode, where no
// way reached the person (see commandLine): no answer, with why nobody
// could answer at stdin (none's why for here) and no inbox at addr (its
// why for the inbox). When stdin is not a terminal and the person chose an
// inbox on NATS whose server cannot be used, that is theirs to fix, not a
// reason to give up on asking: the server's error is the outcome.
func nobody(none *noWayError, addr inbox.Addr, stdinTTY bool) error {
	probe := none.why(wayInbox)
	if server, ok := errors.AsType[*inbox.ServerError](probe); ok && !stdinTTY {
		return &prompt.UnavailableError{Err: server}
	}
	person, ok := errors.AsType[*noPersonError](none.why(wayHere))
	if !ok {
		// Line prompts asked nobody: their input ended before the first
		// answer.
		person = &noPersonError{Stdin: "it ended before the first answer"}
	}
	why := *person
	why.Addr, why.Probe = addr, probe
	return why.explain(&prompt.ShortError{})
}

// report returns the message of exit 66 for e.
func (e *noPersonError) report() string {
	where := fmt.Sprintf("no inbox answers at %s", e.Addr)
	hint := "To reach the person, have them run 'askuser inbox' in a terminal and ask again, or use --ui web --open."
	if blocked, ok := errors.AsType[*inbox.BlockedError](e.Probe); ok {
		// An inbox may well be there: say what kept it out of reach.
		where, hint = blocked.Error(), blocked.Hint()
	}
	if e.Terminal {
		hint = "To answer at this terminal, give the questions with -f FILE (or as the argument) so that stdin stays the terminal, or add --tty.\n" + hint
	}
	if e.Silent {
		return fmt.Sprintf("Error: No answer: nobody can answer on stdin (%s), and %s\n%s\n", e.Stdin, where, hint)
	}
	return fmt.Sprintf("Error: No answer: %s\nNobody can answer on stdin (%s), and %s.\n%s\n", e.err, e.Stdin, where, hint)
}
