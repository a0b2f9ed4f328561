package ask

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/askuser/askuser/prompt"
)

// A Way is one way of reaching the person, in a Route.
type Way struct {
	// Name names it in what the walk reports: "here", "inbox", "terminal",
	// "web", or a door's own ("form": the MCP client's).
	Name string
	// Reaches probes whether this way can reach the person now: nil when
	// it can, else why not. It is called only when the ways before it
	// could not, so that a way that costs something to probe (the inbox's
	// socket) is probed only when needed. Nil for a way that only Open can
	// tell.
	Reaches func(ctx context.Context) error
	// Open readies the way to ask, or returns no Opened and why not. A
	// *prompt.UnavailableError says that it cannot reach the person now,
	// and the next way is tried; any other error ends the walk.
	Open func(ctx context.Context) (*Opened, error)
	// Hint tells what the person can do when this way cannot reach them
	// ("Ask the person to run ..."); "" for nothing better than changing
	// how askuser is set up.
	Hint string
	// BesideInbox says that the questions may wait in the inbox too while
	// this way asks them, when the route puts them there (see
	// Place.Client): a door's own way (the MCP client's forms) that the
	// person away from the desk would not see.
	BesideInbox bool
	// Beside, when set, is a way that asks the same questions at the same
	// time as this one, when it reaches the person: the first answer
	// wins, and the other copy ends (see Route.Ask).
	Beside *Way
}

// Opened is a way of asking, ready to ask.
type Opened struct {
	prompt.Prompter
	// Where tells where the questions wait ("Answer in your browser:
	// URL"), for a door that says it elsewhere too; the prompter says it on
	// stderr itself. "" for nothing to tell.
	Where string
	// url is the address of a way that is a page, for a browser to open.
	url string
	// out is where the prompter draws, where the bell rings; nil for a way
	// that tells the person itself that questions came (the inbox rings
	// its own bell).
	out io.Writer
	// terminals are the sides of the run that are terminals, to
	// tell a hang-up from other failures (see Ended).
	terminals []*os.File
	// close, when set, releases what Open took, once the run is
	// over.
	close func()
}

// Route is the ways of reaching the person, in the order they are tried,
// and how long to wait for them. Ask walks it.
type Route struct {
	Ways []Way
	// timeout, when not 0, ends the walk with a *timeoutError after it.
	timeout time.Duration
	// OnOpen, when set, is called when a way has opened, before it asks:
	// with its name, and with after, the error of the way before it that
	// asked nobody (nil when none did).
	OnOpen func(ctx context.Context, name string, o *Opened, after error)
	// end is what the walk returns when no way asked anybody; nil for a
	// *prompt.UnavailableError that says why each way could not.
	end func(none *noWayError) error

	asked, beside *Opened // the way that asked last, and the one beside it, until Close
}

// noWayError is why no way could reach the person, with what the person
// can do about it.
type noWayError struct {
	Ways  []string // the ways, by name
	Errs  []error  // why each could not
	Hints []string // the ways' hints
}

func (e *noWayError) add(w Way, err error) {
	e.Ways = append(e.Ways, w.Name)
	e.Errs = append(e.Errs, err)
	if w.Hint != "" {
		e.Hints = append(e.Hints, w.Hint)
	}
}

// why returns why the way named name could not reach the person; nil when it
// was not tried.
func (e *noWayError) why(name string) error {
	if i := slices.Index(e.Ways, name); i >= 0 {
		return e.Errs[i]
	}
	return nil
}

func (e *noWayError) Error() string {
	if len(e.Errs) == 1 {
		return e.Errs[0].Error()
	}
	reasons := make([]string, len(e.Errs))
	for i, err := range e.Errs {
		reasons[i] = fmt.Sprintf("%s: %s", e.Ways[i], err)
	}
	return fmt.Sprintf("no way of asking can reach the person (%s)", strings.Join(reasons, "; "))
}

// endedError is a way of asking that went while the questions waited
// there, before the person answered them.
type endedError struct {
	Err error
}

func (e *endedError) Error() string { return e.Err.Error() }

func (e *endedError) Unwrap() error { return e.Err }
