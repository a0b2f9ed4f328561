package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A limit is one number of the embedded schema that an environment variable
// may change.
type limit struct {
	env     string
	alias   string // the variable's older name, still read
	pointer string // JSON pointer to the keyword in schema.json
	min     int    // smallest value that still leaves a valid input possible
	field   func(*Limits) *int
}

// limits are the limit variables, the only list of their names. The
// ASK_ names came first; agents set up then still use them.
var limits = []limit{
	{"ASKUSER_MAX_QUESTIONS", "ASK_MAX_QUESTIONS", questionsPointer, 1,
		func(l *Limits) *int { return &l.MaxQuestions }},
	{"ASKUSER_MAX_OPTIONS", "ASK_MAX_OPTIONS", "/$defs/question/properties/options/maxItems", 2,
		func(l *Limits) *int { return &l.MaxOptions }},
	{"ASKUSER_HEADER_MAX_LENGTH", "ASK_HEADER_MAX_LENGTH", "/$defs/question/properties/header/maxLength", 1,
		func(l *Limits) *int { return &l.HeaderMaxLength }},
	{"ASKUSER_QUESTION_MAX_LENGTH", "ASK_QUESTION_MAX_LENGTH", "/$defs/question/properties/question/maxLength", 1,
		func(l *Limits) *int { return &l.QuestionMaxLength }},
}

// questionsPointer is the limit of the number of questions, which the
// schema's description names too.
const questionsPointer = "/properties/questions/maxItems"

// Overrides maps a limit's JSON pointer in the schema to its new value.
type Overrides map[string]int

// LimitError is a limit variable whose value is not acceptable, or, when
// Alias is set, a limit variable and its older name set to different
// numbers.
type LimitError struct {
	Env, Value string
	Min        int
	// Alias and AliasValue are the older name of Env and its value.
	Alias, AliasValue string
}

func (e *LimitError) Error() string {
	if e.Alias != "" {
		return fmt.Sprintf("%s=%s and %s=%s disagree: %s is the older name of %s; unset it or give both the same value",
			e.Env, strings.TrimSpace(e.Value), e.Alias, strings.TrimSpace(e.AliasValue), e.Alias, e.Env)
	}
	if e.Min > 1 {
		return fmt.Sprintf("%s must be an integer of at least %d (got %q)", e.Env, e.Min, e.Value)
	}
	return fmt.Sprintf("%s must be a positive integer (got %q)", e.Env, e.Value)
}

// Limits are the numbers that the limit variables may change. In Limits
// read from the environment, 0 is a limit left as the schema has it. The
// inbox's protocol carries them, the limits an asker checked its questions
// against, with these names.
type Limits struct {
	MaxQuestions      int `json:"maxQuestions,omitempty"`
	MaxOptions        int `json:"maxOptions,omitempty"`
	HeaderMaxLength   int `json:"headerMaxLength,omitempty"`
	QuestionMaxLength int `json:"questionMaxLength,omitempty"`
}

// LimitsFromEnv reads the limit variables through getenv: ASKUSER_MAX_QUESTIONS,
// ASKUSER_MAX_OPTIONS, ASKUSER_HEADER_MAX_LENGTH and
// ASKUSER_QUESTION_MAX_LENGTH, or their older names ASK_MAX_QUESTIONS,
// ASK_MAX_OPTIONS, ASK_HEADER_MAX_LENGTH and ASK_QUESTION_MAX_LENGTH. An
// unset or empty variable leaves its limit 0. A limit set under both names
// must have the same number under both: when they differ, one of two
// settings the person made would be ignored without a word, so neither is
// taken and the error says so.
func LimitsFromEnv(getenv func(string) string) (Limits, error) {
	var out Limits
	for _, l := range limits {
		n, err := l.read(l.env, getenv)
		if err != nil {
			return Limits{}, err
		}
		old, err := l.read(l.alias, getenv)
		if err != nil {
			return Limits{}, err
		}
		if n != 0 && old != 0 && n != old {
			return Limits{}, &LimitError{Env: l.env, Value: getenv(l.env), Min: l.min, Alias: l.alias, AliasValue: getenv(l.alias)}
		}
		*l.field(&out) = max(n, old)
	}
	return out, nil
}

// read reads the variable name, which holds the limit l; 0 when it is
// unset or empty.
func (l limit) read(name string, getenv func(string) string) (int, error) {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < l.min {
		return 0, &LimitError{Env: name, Value: getenv(name), Min: l.min}
	}
	return n, nil
}

// Overrides returns the limits of ls that are not 0 as overrides of the
// schema, checked as the variables are: the inbox takes limits an asker
// sends it this way.
func (ls Limits) Overrides() (Overrides, error) {
	o := Overrides{}
	for _, l := range limits {
		n := *l.field(&ls)
		if n == 0 {
			continue
		}
		if n < l.min {
			return nil, &LimitError{Env: l.env, Value: strconv.Itoa(n), Min: l.min}
		}
		o[l.pointer] = n
	}
	return o, nil
}

// OverridesFromEnv reads the limit variables through getenv, as
// LimitsFromEnv does, as overrides of the schema.
func OverridesFromEnv(getenv func(string) string) (Overrides, error) {
	ls, err := LimitsFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	return ls.Overrides()
}

// patch returns raw with the numbers at the overridden pointers replaced,
// and the number of questions that the description names.
func patch(raw []byte, o Overrides) ([]byte, error) {
	if len(o) == 0 {
		return raw, nil
	}
	values := make(map[string][]byte, len(o)+1)
	for p, v := range o {
		values[p] = []byte(strconv.Itoa(v))
	}
	if n, ok := o[questionsPointer]; ok {
		if d, ok := describeQuestions(raw, n); ok {
			values["/description"] = d
		}
	}
	return splice(raw, values)
}

// describeQuestions returns the schema's description, as JSON text, with
// the "1-4 questions" it begins with written for a limit of n questions.
// ok is false when the description does not begin with the schema's own
// limit, and is then left as it is.
func describeQuestions(raw []byte, n int) (_ []byte, ok bool) {
	doc, err := decodeAll(raw)
	if err != nil {
		return nil, false
	}
	_, desc := locate(doc, "/description")
	_, most := locate(doc, questionsPointer)
	rest, ok := strings.CutPrefix(str(desc), fmt.Sprintf("1-%d questions", intOf(most)))
	if !ok {
		return nil, false
	}
	count := fmt.Sprintf("1-%d questions", n)
	if n == 1 {
		count = "1 question"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(count+rest) != nil {
		return nil, false
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), true
}

// splice returns raw with the values (strings, numbers, booleans, null) at
// the pointers replaced by the JSON texts given. It splices them into the
// original text so that the schema printed by "askuser schema" keeps its
// layout and key order.
func splice(raw []byte, values map[string][]byte) ([]byte, error) {
	var out bytes.Buffer
	var at int64 // raw is copied to out up to here
	found := 0
	err := eachValue(raw, func(pointer string, start, end int64) {
		v, ok := values[pointer]
		if !ok {
			return
		}
		for start < end && strings.IndexByte(" \t\r\n:,", raw[start]) >= 0 {
			start++
		}
		out.Write(raw[at:start])
		out.Write(v)
		at = end
		found++
	})
	if err != nil {
		return nil, fmt.Errorf("patch schema: %w", err)
	}
	if found != len(values) {
		return nil, fmt.Errorf("patch schema: %d of %d values found", found, len(values))
	}
	out.Write(raw[at:])
	return out.Bytes(), nil
}

// eachValue reads raw, a JSON text, and calls at for each of its values
// that is not an object or an array, with its JSON pointer and where it
// is in raw: it ends at end, and starts at start or after the separator
// and white space that follow start.
func eachValue(raw []byte, at func(pointer string, start, end int64)) error {
	// open holds a frame per open container, outermost first: the pointer
	// token of its current member ("" in an array, where no pointer of
	// values leads), and, for an object, whether a key comes next.
	type frame struct {
		token       string
		object, key bool
	}
	var open []frame
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if tok == json.Delim('}') || tok == json.Delim(']') {
			open = open[:len(open)-1]
			continue
		}
		n := len(open)
		if n > 0 && open[n-1].key {
			open[n-1].token, open[n-1].key = escapePointer(tok.(string)), false
			continue
		}
		if n > 0 && open[n-1].object {
			open[n-1].key = true // after this member's value
		}
		if tok == json.Delim('{') || tok == json.Delim('[') {
			open = append(open, frame{object: tok == json.Delim('{'), key: tok == json.Delim('{')})
			continue
		}
		var pointer strings.Builder
		for _, f := range open {
			pointer.WriteString("/" + f.token)
		}
		// InputOffset before Token may sit before the separator and
		// white space; the value itself ends at the new offset.
		at(pointer.String(), start, dec.InputOffset())
	}
}

// escapePointer writes s as one token of a JSON pointer. It runs for every
// key of the schema; ReplaceAll returns s itself when there is nothing to
// escape, as for most keys.
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// unescapePointer reads one token of a JSON pointer.
func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// Limits returns the limits in effect, as the compiled schema has them.
func (s *Schema) Limits() Limits { return s.limits }
