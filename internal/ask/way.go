package ask

import (
	"errors"
	"fmt"
	"strings"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

// NoWayError is why no way could reach the person, with what the person
// can do about it.
type NoWayError struct {
	Reasons []string // "name: why", one for each way
	Hints   []string // the ways' hints
}

func (e *NoWayError) Error() string {
	if len(e.Reasons) == 1 {
		_, why, _ := strings.Cut(e.Reasons[0], ": ")
		return why
	}
	return fmt.Sprintf("no way of asking can reach the person (%s)", strings.Join(e.Reasons, "; "))
}

// Add adds why the way named name could not reach the person (a
// *prompt.UnavailableError), with its hint; any other error is returned,
// to end the walk.
func (e *NoWayError) Add(name, hint string, err error) error {
	var u *prompt.UnavailableError
	if !errors.As(err, &u) {
		return err
	}
	e.Reasons = append(e.Reasons, fmt.Sprintf("%s: %s", name, u.Err))
	if hint != "" {
		e.Hints = append(e.Hints, hint)
	}
	return nil
}

// EndedError is a way of asking that went while the questions waited
// there, before the person answered them.
type EndedError struct {
	Err error
}

func (e *EndedError) Error() string { return e.Err.Error() }

func (e *EndedError) Unwrap() error { return e.Err }

// NoPersonError is no answer where nobody could give one: stdin gave
// nothing, and no inbox answers. Its report says how to reach the person.
type NoPersonError struct {
	err    error  // the no-answer error, naming the question
	Stdin  string // what stdin is, or what it did
	Silent bool   // stdin never ended: it only never spoke
	// Terminal: stdin held only the questions, and a terminal exists,
	// where a person could answer with the questions given otherwise.
	Terminal bool
	Addr     inbox.Addr
	Probe    error // why no inbox answered
}

func (e *NoPersonError) Error() string { return e.err.Error() }

func (e *NoPersonError) Unwrap() error { return e.err }

// Explain makes err, when it is no answer, a *NoPersonError that says how
// to reach the person. e may be nil: err is then returned as it is.
func (e *NoPersonError) Explain(err error) error {
	if e == nil || !errors.Is(err, prompt.ErrNoAnswer) {
		return err
	}
	explained := *e
	explained.err = err
	return &explained
}

// report is the message of exit 66 for e.
func (e *NoPersonError) report() string {
	where := fmt.Sprintf("no inbox answers at %s", e.Addr)
	hint := "To reach the person, have them run 'askuser inbox' in a terminal and ask again, or use --ui web --open."
	var blocked *inbox.BlockedError
	if errors.As(e.Probe, &blocked) {
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
