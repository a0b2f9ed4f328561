package view

import (
	"cmp"
	"context"
	"errors"
	"io"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

// What every view of the inbox shares: how a set's source is named, how a
// view stops asking a set, and how it says a line.

// errStop ends the prompts of a set that is no longer to be answered here,
// in every view, and the terminal's idle screen once the queue changes.
var errStop = errors.New("stop asking")

// Source is where a set came from, as every view of the inbox names it:
// its name, or its directory with the home directory shown as ~.
func Source(s *inbox.Set, home string) string {
	return cmp.Or(s.From, prompt.ShortHome(s.Source(), home))
}

// until returns ctx, ended with cause once ch is closed, or by stop.
func until(ctx context.Context, ch <-chan struct{}, cause error) (_ context.Context, stop context.CancelCauseFunc) {
	ctx, stop = context.WithCancelCause(ctx)
	go func() {
		select {
		case <-ch:
			stop(cause)
		case <-ctx.Done():
		}
	}()
	return ctx, stop
}

// say writes a line for the person. A failed write is not reported here:
// the prompt written next goes to the same place, and reports it; a log
// has nowhere else to report it.
func say(w io.Writer, s string) {
	_, _ = io.WriteString(w, s+"\n")
}
