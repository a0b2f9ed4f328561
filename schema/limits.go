package schema

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/askuser/askuser/schema/jsonout"
)

// Limit is one number of the embedded schema that may be changed: one
// field of Limits. The command line says which setting changes it.
type Limit int

// The limits, in the order of Limits' fields.
const (
	MaxQuestions Limit = iota
	MaxOptions
	HeaderMaxLength
	QuestionMaxLength
)

// AllLimits are the limits, in the order of Limits' fields.
var AllLimits = []Limit{MaxQuestions, MaxOptions, HeaderMaxLength, QuestionMaxLength}

// limitKeys say where each limit is: its name in Limits' JSON, the path
// to its keyword in schema.json, as gjson and sjson write one, and the
// smallest value that still leaves a valid input possible.
var limitKeys = [...]struct {
	name, path string
	min        int
}{
	MaxQuestions:      {"maxQuestions", questionsPath, 1},
	MaxOptions:        {"maxOptions", `\$defs.question.properties.options.maxItems`, 2},
	HeaderMaxLength:   {"headerMaxLength", `\$defs.question.properties.header.maxLength`, 1},
	QuestionMaxLength: {"questionMaxLength", `\$defs.question.properties.question.maxLength`, 1},
}

// String returns l's name in Limits' JSON: maxQuestions.
func (l Limit) String() string { return limitKeys[l].name }

// Min returns the smallest value of l that still leaves a valid input possible:
// a question needs two options.
func (l Limit) Min() int { return limitKeys[l].min }

// questionsPath is the limit of the number of questions, which the
// schema's description names too.
const questionsPath = "properties.questions.maxItems"

// LimitError is a limit below its Min.
type LimitError struct {
	Limit Limit
	Value int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("the limit %s must be at least %d (got %d)", e.Limit, e.Limit.Min(), e.Value)
}

// Limits are the numbers of the schema that may be changed. In Limits
// that change a schema, 0 is a limit left as the schema has it. The
// inbox's protocol carries them, the limits an asker checked its questions
// against, with these names.
type Limits struct {
	MaxQuestions      int `json:"maxQuestions,omitempty"`
	MaxOptions        int `json:"maxOptions,omitempty"`
	HeaderMaxLength   int `json:"headerMaxLength,omitempty"`
	QuestionMaxLength int `json:"questionMaxLength,omitempty"`
}

// Field returns the field of ls that holds l.
func (ls *Limits) Field(l Limit) *int {
	return [...]*int{
		MaxQuestions:      &ls.MaxQuestions,
		MaxOptions:        &ls.MaxOptions,
		HeaderMaxLength:   &ls.HeaderMaxLength,
		QuestionMaxLength: &ls.QuestionMaxLength,
	}[l]
}

// Check checks each limit of ls that is not 0 against its Min: Compile
// does, and the inbox, before it compiles the limits an asker sends it.
func (ls Limits) Check() error {
	for _, l := range AllLimits {
		if n := *ls.Field(l); n != 0 && n < l.Min() {
			return &LimitError{Limit: l, Value: n}
		}
	}
	return nil
}

// patch returns raw with the limits of ls that are not 0 in place of the
// schema's, and the number of questions that the description names.
func patch(raw []byte, ls Limits) ([]byte, error) {
	values := map[string][]byte{}
	for _, l := range AllLimits {
		if n := *ls.Field(l); n != 0 {
			values[limitKeys[l].path] = []byte(strconv.Itoa(n))
		}
	}
	if n := ls.MaxQuestions; n != 0 {
		if d, ok := describeQuestions(raw, n); ok {
			values["description"] = d
		}
	}
	return splice(raw, values)
}

// describeQuestions returns the schema's description, as JSON text, with
// the "1-4 questions" it begins with written for a limit of n questions.
// ok is false when the description does not begin with the schema's own
// limit, and is then left as it is.
func describeQuestions(raw []byte, n int) (_ []byte, ok bool) {
	desc := gjson.GetBytes(raw, "description").String()
	most := gjson.GetBytes(raw, questionsPath).Int()
	rest, ok := strings.CutPrefix(desc, fmt.Sprintf("1-%d questions", most))
	if !ok {
		return nil, false
	}
	count := fmt.Sprintf("1-%d questions", n)
	if n == 1 {
		count = "1 question"
	}
	return []byte(jsonout.String(count + rest)), true
}

// splice returns raw with the values at the paths (as gjson writes them)
// replaced by the JSON texts given. sjson splices them into the original
// text, so that the schema printed by "askuser schema" keeps its layout and
// key order; a path that raw does not have is an error, not a value added.
func splice(raw []byte, values map[string][]byte) ([]byte, error) {
	out := raw
	for path, v := range values {
		if !gjson.GetBytes(out, path).Exists() {
			return nil, fmt.Errorf("patch schema: %s is not in the schema", path)
		}
		var err error
		if out, err = sjson.SetRawBytes(out, path, v); err != nil {
			return nil, fmt.Errorf("patch schema: %w", err)
		}
	}
	return out, nil
}

// Limits returns the limits in effect, as the compiled schema has them.
func (s *Schema) Limits() Limits { return s.limits }
