package schema

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Answer is the person's answer to one question, as every way of asking
// gives it. Its JSON is how the inbox's protocol carries it.
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
func (a Answer) String() string { return strings.Join(a.Parts(), ", ") }

// Parts returns the labels chosen, in option order, and then the typed
// answer, when there is one: what String joins, as a new slice, never
// nil.
func (a Answer) Parts() []string {
	parts := append([]string{}, a.Labels...)
	if a.Other != "" {
		parts = append(parts, a.Other)
	}
	return parts
}

// The problems Check finds with an answer that a person could put right,
// for each view to say in its own words; they come wrapped.
var (
	// ErrNothingChosen is an answer to a choice that chooses nothing.
	ErrNothingChosen = errors.New("nothing is chosen")
	// ErrTooMany is an answer to a single-select question that chooses
	// several options, or an option and a typed answer.
	ErrTooMany = errors.New("choices for a single-select question")
	// ErrNoText is an answer to a question of typed text that has none.
	ErrNoText = errors.New("no text")
)

// Check checks that a answers q as a person could have, whatever view
// they answered in: for a choice, labels that are q's own, each once, one
// choice in all for a single-select question (Yes or No for KindConfirm) and
// at least one otherwise, a typed answer only where Other is offered; for
// typed text, text and no labels; a note only where notes are taken; and
// every typed answer and note fit for the output (CheckOther). It returns
// the answer cleaned, with the labels in option order, so that nothing is
// printed that the person did not give. The problems a person can put
// right wrap ErrNothingChosen, ErrTooMany, ErrNoText or an error of
// CheckOther.
func (q Question) Check(a Answer) (Answer, error) {
	var out Answer
	var err error
	if a.Note != "" {
		if !q.Kind.OffersNote() {
			return out, fmt.Errorf("a %s question takes no note", q.Kind)
		}
		if out.Note, err = CheckOther(a.Note); err != nil {
			return out, fmt.Errorf("the note %w", err)
		}
	}
	if a.Other != "" {
		if !q.Kind.Typed() && !q.Kind.OffersOther() {
			return out, fmt.Errorf("a %s question takes no typed answer", q.Kind)
		}
		if out.Other, err = CheckOther(a.Other); err != nil {
			return out, fmt.Errorf("the typed answer %w", err)
		}
	}
	if q.Kind.Typed() {
		switch {
		case len(a.Labels) > 0:
			return out, fmt.Errorf("a %s question has no options to choose", q.Kind)
		case out.Other == "":
			return out, ErrNoText
		}
		return out, nil
	}
	chosen := make([]bool, len(q.Options))
	for _, l := range a.Labels {
		j := slices.IndexFunc(q.Options, func(o Option) bool { return o.Label == l })
		switch {
		case j < 0:
			return out, fmt.Errorf("%q is not one of the options", l)
		case chosen[j]:
			return out, fmt.Errorf("%q is chosen twice", l)
		}
		chosen[j] = true
	}
	for j, o := range q.Options {
		if chosen[j] {
			out.Labels = append(out.Labels, o.Label)
		}
	}
	n := len(out.Parts()) // the choices, a typed answer among them
	switch {
	case n == 0:
		return out, ErrNothingChosen
	case n > 1 && !q.MultiSelect:
		return out, fmt.Errorf("%d %w", n, ErrTooMany)
	}
	return out, nil
}

// MaxOtherLength is the longest answer a person may type for Other, in
// characters.
const MaxOtherLength = 2000

// The errors of CheckOther. Their text completes "Your answer ..." and
// "answers.KEY: ...", so that each asker can say it in its own way.
var (
	// ErrOtherEmpty is a typed answer with nothing in it but white space
	// and characters that draw nothing.
	ErrOtherEmpty = errors.New("must not be empty")
	// ErrOtherEncoding is a typed answer that is not UTF-8 text, as from a
	// terminal set to another encoding.
	ErrOtherEncoding = errors.New("must be UTF-8 text; check the terminal's encoding")
)

// OtherLengthError is a typed answer over MaxOtherLength characters.
type OtherLengthError struct {
	Length int // characters, after cleaning
}

func (e *OtherLengthError) Error() string {
	return fmt.Sprintf("must be at most %d characters (got %d)", MaxOtherLength, e.Length)
}

// CheckOther checks and cleans a person's own answer (what was typed after
// choosing Other, the answer to a question of typed text, a note, or the
// part of a preset answer that names no option) before it goes into the
// output. Tabs and line separators become spaces; control characters (C0,
// DEL, C1) and bidirectional controls are dropped; surrounding white space
// is trimmed. It fails with ErrOtherEncoding when s is not valid UTF-8,
// ErrOtherEmpty when what is left is blank in the sense of the questions'
// texts (isBlank: only white space, such as U+3000, and characters that
// draw nothing, such as U+200B), and an *OtherLengthError when more than
// MaxOtherLength characters are left. Every asker calls it on every typed
// answer and asks again on error.
func CheckOther(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", ErrOtherEncoding
	}
	// Map returns s itself when it changes nothing, as for most answers.
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\t', r == '\u2028', r == '\u2029':
			return ' '
		case Control(r) || BidiControl(r):
			return -1
		}
		return r
	}, s)
	s = strings.TrimFunc(s, WhiteSpace)
	if isBlank(s) {
		return "", ErrOtherEmpty
	}
	if n := utf8.RuneCountInString(s); n > MaxOtherLength {
		return "", &OtherLengthError{Length: n}
	}
	return s, nil
}
