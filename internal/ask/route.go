package ask

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
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
	// Open readies the way to ask. A *prompt.UnavailableError says that it
	// cannot reach the person now, and the next way is tried; any other
	// error ends the walk.
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
	prompt.Asker
	// Where tells where the questions wait ("Answer in your browser:
	// URL"), for a door that says it elsewhere too; the asker says it on
	// stderr itself. "" for nothing to tell.
	Where string
	// url is the address of a way that is a page, for a browser to open.
	url string
	// out is where the asker draws, where the bell rings; nil for a way
	// that tells the person itself that questions came (the inbox rings
	// its own bell).
	out io.Writer
	// terminals are the sides of the conversation that are terminals, to
	// tell a hang-up from other failures (see Ended).
	terminals []*os.File
	// close, when set, releases what Open took, once the conversation is
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

// Ask walks the route: each way that reaches the person is opened and asks
// qs, and the first that asks somebody gives the answers or the outcome.
// A way that cannot reach the person, or that asked nobody (a
// *prompt.NobodyError) while ways follow it, hands the questions on to the
// next. A way that could reach the person and went while the questions
// waited there is an *endedError. When ctx ends, or the timeout passes,
// Ask returns why.
func (r *Route) Ask(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
	if r.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, r.timeout, &timeoutError{After: r.timeout})
		defer cancel()
	}
	none := &noWayError{}
	var after error
	for i, w := range r.Ways {
		if w.Reaches != nil {
			if err := w.Reaches(ctx); err != nil {
				if ctx.Err() != nil {
					return nil, context.Cause(ctx)
				}
				none.add(w, err)
				continue
			}
		}
		o, err := w.Open(ctx)
		if err != nil {
			if _, ok := errors.AsType[*prompt.UnavailableError](err); !ok {
				return nil, err
			}
			none.add(w, err)
			continue
		}
		answers, err := r.askOpened(ctx, w, o, after, qs)
		_, nobody := errors.AsType[*prompt.NobodyError](err)
		unavailable, gone := errors.AsType[*prompt.UnavailableError](err)
		switch {
		case err == nil:
			return answers, nil
		case ctx.Err() != nil:
			return nil, context.Cause(ctx)
		case nobody && i < len(r.Ways)-1:
			none.add(w, err)
			after = err
			continue
		case gone:
			// It could reach the person when it was opened: it went (an
			// inbox that quit) while the questions waited there.
			return nil, &endedError{Err: unavailable.Err}
		}
		return nil, err
	}
	if r.end != nil {
		return nil, r.end(none)
	}
	return nil, &prompt.UnavailableError{Err: none}
}

// askOpened asks qs in o, which w opened, and in the way beside w, when it
// has one that reaches the person (see askBeside); after is the error of
// the way before it that asked nobody, for OnOpen.
func (r *Route) askOpened(ctx context.Context, w Way, o *Opened, after error, qs []schema.Question) ([]prompt.Answer, error) {
	r.Close()
	r.asked = o
	if w.Beside != nil {
		r.beside = openBeside(ctx, *w.Beside)
	}
	if r.OnOpen != nil {
		if r.beside != nil {
			r.OnOpen(ctx, w.Beside.Name, r.beside, nil)
		}
		r.OnOpen(ctx, w.Name, o, after)
	}
	if r.beside != nil {
		return r.askBeside(ctx, o, w.Beside.Name, r.beside, qs)
	}
	return o.Ask(ctx, qs)
}

// Close releases the way that asked last, and the one beside it.
func (r *Route) Close() {
	for _, o := range []*Opened{r.asked, r.beside} {
		if o != nil && o.close != nil {
			o.close()
		}
	}
	r.asked, r.beside = nil, nil
}

// openBeside opens w to ask beside another way, when it reaches the
// person now; nil when it does not, or cannot open: the other way asks
// alone then.
func openBeside(ctx context.Context, w Way) *Opened {
	if w.Reaches != nil && w.Reaches(ctx) != nil {
		return nil
	}
	o, err := w.Open(ctx)
	if err != nil {
		return nil
	}
	return o
}

// errAnsweredBeside is why a copy of the questions ends when the other
// copy, asked beside it, was answered first.
var errAnsweredBeside = errors.New("the questions were answered another way")

// askBeside asks qs in first and in beside at once. The first outcome
// wins, and the other copy ends (its ctx, with errAnsweredBeside), and is
// waited for, so that it has gone (withdrawn from the inbox, the form
// closed) before the answers go back. Two outcomes do not win: first's
// *prompt.NobodyError (the client could not show its form), which leaves
// the questions to beside, as the route would have given them to it, and
// is told to OnOpen as such; and beside's *prompt.UnavailableError (the
// inbox went), which leaves them to first.
func (r *Route) askBeside(ctx context.Context, first *Opened, besideName string, beside *Opened, qs []schema.Question) ([]prompt.Answer, error) {
	type outcome struct {
		beside  bool
		answers []prompt.Answer
		err     error
	}
	firstCtx, stopFirst := context.WithCancelCause(ctx)
	defer stopFirst(nil)
	besideCtx, stopBeside := context.WithCancelCause(ctx)
	defer stopBeside(nil)
	outcomes := make(chan outcome, 2)
	go func() {
		answers, err := first.Ask(firstCtx, qs)
		outcomes <- outcome{false, answers, err}
	}()
	go func() {
		answers, err := beside.Ask(besideCtx, qs)
		outcomes <- outcome{true, answers, err}
	}()
	for left := 2; ; {
		got := <-outcomes
		left--
		if left == 0 {
			return got.answers, got.err
		}
		_, nobody := errors.AsType[*prompt.NobodyError](got.err)
		_, gone := errors.AsType[*prompt.UnavailableError](got.err)
		switch {
		case ctx.Err() != nil:
		case !got.beside && nobody:
			if r.OnOpen != nil {
				r.OnOpen(ctx, besideName, beside, got.err)
			}
			continue
		case got.beside && gone:
			continue
		}
		stopFirst(errAnsweredBeside)
		stopBeside(errAnsweredBeside)
		<-outcomes
		return got.answers, got.err
	}
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

// why is why the way named name could not reach the person; nil when it
// was not tried.
func (e *noWayError) why(name string) error {
	for i, n := range e.Ways {
		if n == name {
			return e.Errs[i]
		}
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
