// The asker's side of the inbox (askuser inbox): it sends the questions to
// the inbox that the person keeps open, says on stderr where they wait, and
// returns the answers given there, checked against the questions, so that
// an answer is never invented.

package inbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// AskerOptions configure an Asker.
type AskerOptions struct {
	// Addr is where the inbox is.
	Addr Addr
	// From names the asker for the person (--from, ASKUSER_FROM); when it
	// is empty, the inbox shows Cwd.
	From string
	Cwd  string
	// Limits are those the questions were validated with, for the inbox
	// to validate them alike.
	Limits *schema.Limits
	// Out receives where the questions wait: stderr, never stdout.
	Out io.Writer
}

// asker asks in the inbox at one address: a set of questions, or the one
// question of askuser confirm or askuser input.
type asker struct {
	o AskerOptions
	t Transport
}

// NewAsker returns an asker that asks in the inbox at o.Addr.
func NewAsker(o AskerOptions) prompt.Prompter { return &asker{o: o, t: o.Addr.Dial()} }

// Ask puts the questions to the inbox and waits for the answers. When ctx
// ends, the questions are withdrawn from the inbox and Ask returns
// context.Cause(ctx). The person cancelling them there is
// prompt.ErrCancelled; an inbox that is not there, quits or goes away is a
// *prompt.UnavailableError.
func (a *asker) Ask(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
	raw, err := json.Marshal(qs)
	if err != nil {
		return nil, fmt.Errorf("encode the questions: %w", err)
	}
	ctx = context.WithValue(ctx, notesKey{}, a.o.Out)
	e, err := a.t.Ask(ctx, &Request{From: a.o.From, Cwd: a.o.Cwd, Questions: raw, Limits: a.o.Limits}, func(ahead int) {
		msg := fmt.Sprintf("Waiting for an answer in the inbox (askuser inbox) at %s…", a.o.Addr)
		switch {
		case ahead == 1:
			msg += " 1 set of questions is ahead of this one."
		case ahead > 1:
			msg += fmt.Sprintf(" %d sets of questions are ahead of this one.", ahead)
		}
		// A notice that cannot be written leaves the questions waiting.
		_, _ = fmt.Fprintln(a.o.Out, msg)
	})
	if err != nil {
		return nil, a.failure(ctx, err)
	}
	switch e.Event {
	case EventCancelled:
		return nil, prompt.ErrCancelled
	case EventClosed:
		msg := fmt.Sprintf("the inbox at %s closed before the questions were answered", a.o.Addr)
		if e.Reason != "" {
			msg += " (" + e.Reason + ")"
		}
		return nil, &prompt.UnavailableError{Err: errors.New(msg)}
	}
	answers, err := checkAnswers(qs, e.Answers)
	if err != nil {
		return nil, fmt.Errorf("the inbox at %s sent an answer that does not fit the questions (%w), so none is printed", a.o.Addr, err)
	}
	return answers, nil
}

// failure says why asking in the inbox failed. An inbox that cannot be
// used, or that goes, is a *prompt.UnavailableError: it is neither the
// person's answer nor their refusal.
func (a *asker) failure(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if server, ok := errors.AsType[*ServerError](err); ok {
		return &prompt.UnavailableError{Err: server}
	}
	if unreachable, ok := errors.AsType[*UnreachableError](err); ok {
		return &prompt.UnavailableError{Err: WithHint(unreachable)}
	}
	if gone, ok := errors.AsType[*GoneError](err); ok {
		return &prompt.UnavailableError{Err: gone}
	}
	refused, ok := errors.AsType[*RefusedError](err)
	switch {
	case ok && refused.Status == http.StatusBadRequest:
		// The questions passed this askuser's validation: the inbox is of
		// another version, or was given other limits.
		msg := refused.Error()
		if len(refused.Body.Problems) > 0 {
			msg += ":\n- " + strings.Join(refused.Body.Problems, "\n- ")
		}
		return errors.New(msg)
	case ok:
		return &prompt.UnavailableError{Err: refused}
	}
	return err
}

// notesKey is the key of the context value that Notef writes to.
type notesKey struct{}

// Notef tells the person, on the asker's stderr, of something that keeps
// the questions from the inbox for now (no inbox yet, a full queue), on
// one line. A transport calls it with the ctx of its Ask, which carries
// where to write, as net/http/httptrace carries its hooks.
func Notef(ctx context.Context, format string, args ...any) {
	if w, ok := ctx.Value(notesKey{}).(io.Writer); ok && w != nil {
		// A notice that cannot be written leaves the questions waiting.
		_, _ = fmt.Fprintf(w, format+"\n", args...)
	}
}
