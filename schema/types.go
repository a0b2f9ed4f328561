// Package schema owns the input format of askuser: the question types, the
// embedded JSON Schema (compiled with any limit overrides and applied by
// santhosh-tekuri/jsonschema), the extra rules, the plain-language
// translation of what is wrong, and what counts as blank text.
package schema

import (
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

// Key returns the answer key of q.
func (k KeyBy) Key(q Question) string {
	if k == KeyQuestion {
		return q.Question
	}
	return q.Header
}

// other returns the KeyBy of the field that k does not name.
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
