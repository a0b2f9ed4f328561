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
// KindText; KindConfirm, KindInput and KindChoose are the questions of
// askuser confirm, input and choose, which askuser makes (see Scripted).
const (
	KindChoice  Kind = iota // the options (several with MultiSelect), or Other
	KindText                // typed text, without options
	KindConfirm             // Yes or No
	KindInput               // a line of typed text
	KindChoose              // a choice, as KindChoice, among options without descriptions
)

var kindNames = [...]string{KindChoice: "choice", KindText: "text", KindConfirm: "confirm", KindInput: "input", KindChoose: "choose"}

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
func (k Kind) OffersOther() bool { return k == KindChoice || k == KindChoose }

// Alone reports whether the question is asked on its own, as askuser
// confirm and input ask theirs: without its header, and without a note.
func (k Kind) Alone() bool { return k == KindConfirm || k == KindInput }

// Scripted reports whether the question is the one question of a command
// for scripts (askuser confirm, input, choose), which askuser makes from
// its arguments rather than reads from the input: the schema does not
// take it, and Remake checks it instead.
func (k Kind) Scripted() bool { return k.Alone() || k == KindChoose }

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

// ChooseQuestion is the question of askuser choose: question, under
// header, with an option for each of labels (several may be chosen with
// multi), and Other. Its answer is the labels chosen, or the person's own
// text. It returns why the labels cannot be options: each must be text
// that could be typed (CheckOther), not Other (which every choice offers)
// and unlike the others, ignoring case, as the schema has the labels of
// the input.
func ChooseQuestion(question, header string, labels []string, multi bool) (Question, error) {
	if len(labels) == 0 {
		return Question{}, errors.New("needs at least one option")
	}
	q := Question{Kind: KindChoose, Header: header, Question: question, MultiSelect: multi, Options: make([]Option, len(labels))}
	seen := map[string]int{}
	for i, l := range labels {
		clean, err := CheckOther(l)
		if err != nil {
			return Question{}, fmt.Errorf("option %d %w", i+1, err)
		}
		norm := strings.ToLower(StripInvisible(clean))
		if norm == "other" {
			return Question{}, fmt.Errorf("option %d must not be %q: an Other choice is added automatically", i+1, l)
		}
		if first, dup := seen[norm]; dup {
			return Question{}, fmt.Errorf("option %d is option %d again (%q): options must differ, ignoring case", i+1, first+1, l)
		}
		seen[norm] = i
		q.Options[i] = Option{Label: clean}
	}
	return q, nil
}

// IsYes reports whether a, the answer to a ConfirmQuestion, is yes.
func IsYes(a Answer) bool { return len(a.Labels) == 1 && a.Labels[0] == Yes }

// Remake returns q, the question of a command for scripts (see Scripted)
// that comes from elsewhere (an asker's request to the inbox), made again
// from its text, options and default, once they are checked: the rest of
// such a question is not the sender's to say.
func Remake(q Question) (Question, error) {
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
	case KindChoose:
		if IsBlank(q.Header) {
			return Question{}, errors.New("a choose question needs its header")
		}
		labels := make([]string, len(q.Options))
		for i, o := range q.Options {
			labels[i] = o.Label
		}
		c, err := ChooseQuestion(q.Question, q.Header, labels, q.MultiSelect)
		if err != nil {
			return Question{}, fmt.Errorf("a choose question's %w", err)
		}
		return c, nil
	}
	return Question{}, fmt.Errorf("a %s question is not made by a command", q.Kind)
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
