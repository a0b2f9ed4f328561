// Package prompt owns how questions are put to the person: the Asker
// interface and its implementations (numbered line prompts, the terminal UI),
// and the Answer they produce.
package prompt

import (
	"context"
	"errors"
	"strings"

	"github.com/askuser/askuser/schema"
)

// Asker puts questions to the person and returns one Answer per question, in
// order. When ctx is done, Ask returns context.Cause(ctx) promptly.
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

// Answer is the person's answer to one question.
type Answer struct {
	// Labels are the chosen option labels, in option order.
	Labels []string
	// Other is the person's own typed answer, or "" when there is none.
	Other string
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
