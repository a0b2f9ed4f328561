// Package prompt holds what every way of asking shares: the Asker
// interfaces, the Answer they produce, their errors, and the text rules
// (Display, CheckOther) that keep what the questions say from being obeyed
// by a terminal and what the person types fit for the output. Each way of
// asking is a package of its own below this one: line, tui and web.
package prompt

import (
	"context"
	"errors"
	"strings"

	"github.com/askuser/askuser/schema"
)

// Asker puts questions to the person and returns one Answer per question, in
// order. When ctx is done, Ask returns context.Cause(ctx) promptly.
//
// Every Asker must:
//   - draw text from the input only through Display (header, label, an
//     answer shown back) or DisplayMultiline (question, description,
//     preview), so that escape sequences in it are shown, not obeyed;
//   - pass every typed answer through CheckOther, use the text it returns,
//     and ask again when it returns an error.
type Asker interface {
	Ask(ctx context.Context, qs []schema.Question) ([]Answer, error)
}

// Confirmer asks one yes/no question; Inputter asks for one line of text.
// Every Asker is also both, for "askuser confirm" and "askuser input".
type Confirmer interface {
	Confirm(ctx context.Context, message string, def bool) (bool, error)
}

// Inputter asks for one line of text; see Confirmer.
type Inputter interface {
	Input(ctx context.Context, message, placeholder, def string) (string, error)
}

// Finisher is an Asker with something to do when a conversation is over,
// before the streams it was given are closed. Its caller calls Finish,
// when the asker has it, with the context that Ask, Confirm or Input was
// given and the error it returned, and goes on with the error Finish
// returns. When err is nil, summary holds every answer of the
// conversation, the ones given in advance included, for the asker to show.
type Finisher interface {
	Finish(ctx context.Context, err error, summary []Summary) error
}

// Summary is one answer as a summary shows it: what was asked (a header,
// or the question of a yes/no or text prompt), the answer, and the note on
// it, if any.
type Summary struct {
	Asked, Answer, Note string
}

// Summarize lists the answers to qs for Finish, in question order, each
// under its question's header ("Database:"), with its note.
func Summarize(qs []schema.Question, answers []Answer) []Summary {
	var out []Summary
	for i, q := range qs {
		if i >= len(answers) {
			break
		}
		out = append(out, Summary{Asked: q.Header + ":", Answer: answers[i].String(), Note: answers[i].Note})
	}
	return out
}

// Answer is the person's answer to one question.
type Answer struct {
	// Labels are the chosen option labels, in option order.
	Labels []string
	// Other is the person's own typed answer, or "" when there is none.
	Other string
	// Note is a note the person attached to the answer, checked like a
	// typed answer, or "" when there is none. The output carries it in
	// "annotations", apart from the answer itself.
	Note string
}

// String renders the answer as the output carries it: the labels joined by
// ", ", followed by the typed answer.
func (a Answer) String() string {
	parts := a.Labels
	if a.Other != "" {
		parts = append(parts[:len(parts):len(parts)], a.Other)
	}
	return strings.Join(parts, ", ")
}

// ErrCancelled means the person cancelled (Esc, Ctrl+C).
var ErrCancelled = errors.New("cancelled")

// UnavailableError means that the way of asking that was chosen cannot be
// used here: the terminal UI without a terminal, a web page on an address
// that cannot be listened on, an inbox that does not answer. It is not the
// person's answer, nor their refusal, so that a script never reads it as
// one.
type UnavailableError struct {
	Err error // what is missing, for the person to read
}

func (e *UnavailableError) Error() string { return e.Err.Error() }

func (e *UnavailableError) Unwrap() error { return e.Err }

// ErrNoAnswer means the answer input ended before every question was
// answered.
var ErrNoAnswer = errors.New("the answer input ended before every question was answered")

// ShortError is ErrNoAnswer, saying how many questions were answered before
// the input ended.
type ShortError struct {
	Answered int
}

func (e *ShortError) Error() string { return ErrNoAnswer.Error() }

func (e *ShortError) Unwrap() error { return ErrNoAnswer }
