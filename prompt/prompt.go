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

// ConfirmQuestion is the yes/no question of askuser confirm, whose
// answer is the label Yes or No (see IsYes); Enter takes def.
func ConfirmQuestion(message string, def bool) schema.Question {
	d := "No"
	if def {
		d = "Yes"
	}
	return schema.Question{Type: schema.TypeConfirm, Header: "Confirm", Question: message,
		Options: []schema.Option{{Label: "Yes"}, {Label: "No"}}, Default: d}
}

// InputQuestion is the question of askuser input, a line of text, whose
// answer is the text typed (Answer.Other); Enter takes def when it is not
// "". The placeholder is an example answer.
func InputQuestion(message, placeholder, def string) schema.Question {
	return schema.Question{Type: schema.TypeInput, Header: "Input", Question: message, Placeholder: placeholder, Default: def}
}

// IsYes reports whether a, the answer to a ConfirmQuestion, is yes.
func IsYes(a Answer) bool {
	return len(a.Labels) == 1 && a.Labels[0] == "Yes"
}

// Confirm asks the yes/no question of a ConfirmQuestion through a.
func Confirm(ctx context.Context, a Asker, message string, def bool) (bool, error) {
	answers, err := a.Ask(ctx, []schema.Question{ConfirmQuestion(message, def)})
	if err != nil {
		return false, err
	}
	return IsYes(answers[0]), nil
}

// Input asks for the line of text of an InputQuestion through a.
func Input(ctx context.Context, a Asker, message, placeholder, def string) (string, error) {
	answers, err := a.Ask(ctx, []schema.Question{InputQuestion(message, placeholder, def)})
	if err != nil {
		return "", err
	}
	return answers[0].Other, nil
}

// AskOne asks qs with confirm or input, the asker's own ways, when qs is
// one question of TypeConfirm or TypeInput, which are asked alone and
// drawn as a prompt of their own; ok is false otherwise.
func AskOne(ctx context.Context, qs []schema.Question,
	confirm func(ctx context.Context, message string, def bool) (bool, error),
	input func(ctx context.Context, message, placeholder, def string) (string, error),
) (answers []Answer, ok bool, err error) {
	if len(qs) != 1 {
		return nil, false, nil
	}
	switch q := qs[0]; q.Type {
	case schema.TypeConfirm:
		yes, err := confirm(ctx, q.Question, q.Default == "Yes")
		if err != nil {
			return nil, true, err
		}
		if yes {
			return []Answer{{Labels: []string{"Yes"}}}, true, nil
		}
		return []Answer{{Labels: []string{"No"}}}, true, nil
	case schema.TypeInput:
		text, err := input(ctx, q.Question, q.Placeholder, q.Default)
		if err != nil {
			return nil, true, err
		}
		return []Answer{{Other: text}}, true, nil
	}
	return nil, false, nil
}

// Finisher is an Asker with something to do when a conversation is over,
// before the streams it was given are closed. Its caller calls Finish,
// when the asker has it, with the context that Ask was given and the
// error it returned, and goes on with the error Finish
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

// Answer is the person's answer to one question. Its JSON is how the
// inbox's protocol carries it.
type Answer struct {
	// Labels are the chosen option labels, in option order.
	Labels []string `json:"labels,omitempty"`
	// Other is the person's own typed answer, or "" when there is none.
	Other string `json:"other,omitempty"`
	// Note is a note the person attached to the answer, checked like a
	// typed answer, or "" when there is none. The output carries it in
	// "annotations", apart from the answer itself.
	Note string `json:"note,omitempty"`
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

// NobodyError is an asker that asked nobody, and Err says why: line
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
