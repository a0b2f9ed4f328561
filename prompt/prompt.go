// Package prompt holds what every way of asking shares: the Prompter
// interfaces, their errors, and the text rule (Display) that keeps what
// the questions say from being obeyed by a terminal. What the person gives
// is a schema.Answer, checked by schema's Question.Check and CheckOther.
// Each way of asking is a package of its own below this one: line, tui,
// web and elicit.
package prompt

import (
	"context"
	"errors"

	"github.com/askuser/askuser/schema"
)

// Prompter puts questions to the person and returns one Answer per question, in
// order. When ctx is done, Ask returns context.Cause(ctx) promptly.
//
// Every Prompter must:
//   - draw text from the input only through Display (header, label, an
//     answer shown back) or DisplayMultiline (question, description,
//     preview), so that escape sequences in it are shown, not obeyed;
//   - pass every typed answer through schema.CheckOther, use the text it
//     returns, and ask again when it returns an error;
//   - ask each kind of question (schema.Kind) in its own way.
type Prompter interface {
	Ask(ctx context.Context, qs []schema.Question) ([]Answer, error)
}

// PrompterFunc is a function that is a Prompter, as http.HandlerFunc is a
// function that is a Handler.
type PrompterFunc func(ctx context.Context, qs []schema.Question) ([]Answer, error)

// Ask calls f(ctx, qs).
func (f PrompterFunc) Ask(ctx context.Context, qs []schema.Question) ([]Answer, error) {
	return f(ctx, qs)
}

// Finisher is a Prompter with something to do when a conversation is over,
// before the streams it was given are closed. Its caller calls Finish,
// when the prompter has it, with the context that Ask was given and the
// error it returned, and goes on with the error Finish
// returns. When err is nil, summary holds every answer of the
// conversation, the ones given in advance included, for the prompter to show.
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
// under its question's header ("Database:"), or its question for one asked
// alone, with its note.
func Summarize(qs []schema.Question, answers []Answer) []Summary {
	var out []Summary
	for i, q := range qs[:min(len(qs), len(answers))] {
		asked := q.Header + ":"
		if q.Kind.Alone() {
			asked = q.Question
		}
		out = append(out, Summary{Asked: asked, Answer: answers[i].String(), Note: answers[i].Note})
	}
	return out
}

// Answer is the person's answer to one question; see schema.Answer, which
// Question.Check checks.
type Answer = schema.Answer

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

// NobodyError is a prompter that asked nobody, and Err says why: line
// prompts whose input (not a terminal) ended before it gave anything at
// all (Err is then ErrNoAnswer), or a client that declined its form sooner
// than a person could read it. The questions may be handed on to the next
// way of reaching the person.
type NobodyError struct{ Err error }

func (e *NobodyError) Error() string { return e.Err.Error() }

func (e *NobodyError) Unwrap() error { return e.Err }

// ShortError is ErrNoAnswer, saying how many questions were answered before
// the input ended.
type ShortError struct {
	Answered int
}

func (e *ShortError) Error() string { return ErrNoAnswer.Error() }

func (e *ShortError) Unwrap() error { return ErrNoAnswer }
