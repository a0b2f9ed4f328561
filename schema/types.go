// Package schema owns the input format of askuser: the question types, the
// embedded JSON Schema (compiled with any limit overrides and applied by
// santhosh-tekuri/jsonschema), the extra rules, the plain-language
// translation of what is wrong, and what counts as blank text.
package schema

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Input is a validated input document.
type Input struct {
	Questions []Question `json:"questions"`
	// Answers holds answers already known, keyed as the output is keyed
	// (by the KeyBy given to Parse), whichever way the input keyed them.
	Answers map[string]string `json:"answers,omitempty"`
	// Annotations holds the notes already attached to answers, keyed as
	// Answers is, checked and cleaned by CheckOther.
	Annotations map[string]string `json:"-"`
}

// Question is one question, of the kind Kind says.
type Question struct {
	Question    string   `json:"question"`
	Header      string   `json:"header"`
	Kind        Kind     `json:"type,omitempty"`
	Options     []Option `json:"options,omitempty"`
	MultiSelect bool     `json:"multiSelect"`
	// Placeholder is a hint shown in the empty answer of typed text.
	Placeholder string `json:"placeholder,omitempty"`
	// Default is the answer Enter takes in a question of KindConfirm (Yes
	// or No) or KindInput (text; "" for none). The input cannot give it.
	Default string `json:"default,omitempty"`
}

// Kind is what a question asks for: a closed set, read once where a
// question comes in (its "type"). Every view draws each kind, and Check
// checks an answer to any of them.
type Kind uint8

// The kinds of question. The input gives KindChoice (without "type") and
// KindText; KindConfirm and KindInput are the questions of askuser confirm
// and askuser input, asked alone, with a Default.
const (
	KindChoice  Kind = iota // the options (several with MultiSelect), or Other
	KindText                // typed text, without options
	KindConfirm             // Yes or No
	KindInput               // a line of typed text
)

var kindNames = [...]string{KindChoice: "choice", KindText: "text", KindConfirm: "confirm", KindInput: "input"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// MarshalText writes k as the input's "type" does.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind as the input's "type" (or an asker's request
// to the inbox) writes it.
func (k *Kind) UnmarshalText(b []byte) error {
	i := slices.Index(kindNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("unknown type of question %q", b)
	}
	*k = Kind(i)
	return nil
}

// Typed reports whether the answer is text the person types rather than
// a choice among options.
func (k Kind) Typed() bool { return k == KindText || k == KindInput }

// OffersOther reports whether the person may type an answer of their own
// (Other) instead of, or beside, the options.
func (k Kind) OffersOther() bool { return k == KindChoice }

// Alone reports whether the question is asked on its own, as askuser
// confirm and input ask theirs: without its header, and without a note.
func (k Kind) Alone() bool { return k == KindConfirm || k == KindInput }

// The options of a question of KindConfirm.
const (
	Yes = "Yes"
	No  = "No"
)

// ConfirmQuestion is the yes/no question of askuser confirm, whose answer
// is the option Yes or No (see IsYes); Enter takes Yes when yes is set.
func ConfirmQuestion(message string, yes bool) Question {
	def := No
	if yes {
		def = Yes
	}
	return Question{Kind: KindConfirm, Header: "Confirm", Question: message,
		Options: []Option{{Label: Yes}, {Label: No}}, Default: def}
}

// InputQuestion is the question of askuser input, a line of text, whose
// answer is the text typed (Answer.Other); Enter takes def when it is not
// "". The placeholder is an example answer.
func InputQuestion(message, placeholder, def string) Question {
	return Question{Kind: KindInput, Header: "Input", Question: message, Placeholder: placeholder, Default: def}
}

// IsYes reports whether a, the answer to a ConfirmQuestion, is yes.
func IsYes(a Answer) bool { return len(a.Labels) == 1 && a.Labels[0] == Yes }

// Alone returns q, a question of a kind asked alone that comes from
// elsewhere (an asker's request to the inbox), made again from its text,
// placeholder and default, once they are checked: the rest of such a
// question is not the sender's to say.
func Alone(q Question) (Question, error) {
	if IsBlank(q.Question) {
		return Question{}, fmt.Errorf("a %s question needs its question", q.Kind)
	}
	switch q.Kind {
	case KindConfirm:
		if q.Default != Yes && q.Default != No {
			return Question{}, errors.New("the default of a confirm question must be Yes or No")
		}
		return ConfirmQuestion(q.Question, q.Default == Yes), nil
	case KindInput:
		def := q.Default
		if def != "" {
			var err error
			if def, err = CheckOther(def); err != nil {
				return Question{}, fmt.Errorf("the default %w", err)
			}
		}
		return InputQuestion(q.Question, q.Placeholder, def), nil
	}
	return Question{}, fmt.Errorf("a %s question is not asked alone", q.Kind)
}

// Option is one choice of a question.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	Preview     string `json:"preview,omitempty"`
}

// Recommended reports whether the option is marked as the recommended one.
func (o Option) Recommended() bool {
	return strings.HasSuffix(strings.TrimSpace(o.Label), "(Recommended)")
}

// KeyBy says which field of a question keys its answer.
type KeyBy string

// The two ways answers are keyed.
const (
	KeyHeader   KeyBy = "header"
	KeyQuestion KeyBy = "question"
)

// ParseKeyBy checks the value of the --key flag.
func ParseKeyBy(s string) (KeyBy, error) {
	switch KeyBy(s) {
	case KeyHeader, KeyQuestion:
		return KeyBy(s), nil
	}
	return "", fmt.Errorf("invalid --key %q: must be header or question", s)
}

// Key returns the answer key of q.
func (k KeyBy) Key(q Question) string {
	if k == KeyQuestion {
		return q.Question
	}
	return q.Header
}

// other is the KeyBy of the field that k does not name.
func (k KeyBy) other() KeyBy {
	if k == KeyQuestion {
		return KeyHeader
	}
	return KeyQuestion
}

// noun names the field that k names in a sentence: "no question has this
// question" would puzzle its reader.
func (k KeyBy) noun() string {
	if k == KeyQuestion {
		return "question text"
	}
	return "header"
}
