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
	pointer string // JSON pointer to the keyword in schema.json
	min     int    // smallest value that still leaves a valid input possible
	what    string
}

var limits = []limit{
	{"ASK_MAX_QUESTIONS", "/properties/questions/maxItems", 1, "questions"},
	{"ASK_MAX_OPTIONS", "/$defs/question/properties/options/maxItems", 2, "options per question"},
	{"ASK_HEADER_MAX_LENGTH", "/$defs/question/properties/header/maxLength", 1, "characters in a header"},
	{"ASK_QUESTION_MAX_LENGTH", "/$defs/question/properties/question/maxLength", 1, "characters in a question"},
}

// Overrides maps a limit's JSON pointer in the schema to its new value.
type Overrides map[string]int

// LimitError is a limit variable whose value is not acceptable.
type LimitError struct {
	Env, Value string
	Min        int
}

func (e *LimitError) Error() string {
	if e.Min > 1 {
		return fmt.Sprintf("%s must be an integer of at least %d (got %q)", e.Env, e.Min, e.Value)
	}
	return fmt.Sprintf("%s must be a positive integer (got %q)", e.Env, e.Value)
}

// OverridesFromEnv reads the limit variables through getenv. An unset or empty
// variable keeps the schema's own value.
func OverridesFromEnv(getenv func(string) string) (Overrides, error) {
	o := Overrides{}
	for _, l := range limits {
		v := strings.TrimSpace(getenv(l.env))
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < l.min {
			return nil, &LimitError{Env: l.env, Value: getenv(l.env), Min: l.min}
		}
		o[l.pointer] = n
	}
	return o, nil
}

// patch returns raw with the numbers at the overridden pointers replaced.
func patch(raw []byte, o Overrides) ([]byte, error) {
	if len(o) == 0 {
		return raw, nil
	}
	values := make(map[string][]byte, len(o))
	for p, v := range o {
		values[p] = []byte(strconv.Itoa(v))
	}
	return splice(raw, values)
}

// splice returns raw with the values (strings, numbers, booleans, null) at
// the pointers replaced by the JSON texts given. It splices them into the
// original text so that the schema printed by "askuser schema" keeps its
// layout and key order.
func splice(raw []byte, values map[string][]byte) ([]byte, error) {
	type cut struct {
		start, end int64
		value      []byte
	}
	var cuts []cut
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	// path holds, per open container, the pointer token of the current value;
	// inObject tells whether the next string token is a key.
	var path []string
	var isObject []bool
	var expectKey []bool
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("patch schema: %w", err)
		}
		depth := len(isObject)
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				isObject = append(isObject, d == '{')
				expectKey = append(expectKey, d == '{')
				path = append(path, "")
			case '}', ']':
				isObject = isObject[:depth-1]
				expectKey = expectKey[:depth-1]
				path = path[:depth-1]
				if depth-1 > 0 && isObject[depth-2] {
					expectKey[depth-2] = true
				}
			}
			continue
		}
		if depth > 0 && isObject[depth-1] && expectKey[depth-1] {
			path[depth-1] = escapePointer(tok.(string))
			expectKey[depth-1] = false
			continue
		}
		if depth > 0 && isObject[depth-1] {
			expectKey[depth-1] = true
		}
		p := "/" + strings.Join(path, "/")
		if v, ok := values[p]; ok {
			// InputOffset before Token may sit before the separator and
			// whitespace; the value itself ends at the new offset.
			end := dec.InputOffset()
			s := start
			for s < end && strings.IndexByte(" \t\r\n:,", raw[s]) >= 0 {
				s++
			}
			cuts = append(cuts, cut{s, end, v})
		}
	}
	if len(cuts) != len(values) {
		return nil, fmt.Errorf("patch schema: %d of %d values found", len(cuts), len(values))
	}
	var out bytes.Buffer
	var at int64
	for _, c := range cuts {
		out.Write(raw[at:c.start])
		out.Write(c.value)
		at = c.end
	}
	out.Write(raw[at:])
	return out.Bytes(), nil
}

// escapePointer writes s as one token of a JSON pointer. It runs for every
// key of the schema and the input, so it does not allocate when there is
// nothing to escape.
func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// unescapePointer reads one token of a JSON pointer.
func unescapePointer(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// Limits are the numbers that the limit variables may change, as in effect.
// The inbox's protocol carries them, the limits an asker checked its
// questions against, with these names; 0 keeps the schema's own.
type Limits struct {
	MaxQuestions      int `json:"maxQuestions,omitempty"`
	MaxOptions        int `json:"maxOptions,omitempty"`
	HeaderMaxLength   int `json:"headerMaxLength,omitempty"`
	QuestionMaxLength int `json:"questionMaxLength,omitempty"`
}

// Limits reads the limits from the compiled schema.
func (s *Schema) Limits() Limits {
	get := func(env string) int {
		for _, l := range limits {
			if l.env == env {
				v, _ := s.lookup(l.pointer)
				return intOf(v)
			}
		}
		return 0
	}
	return Limits{
		MaxQuestions:      get("ASK_MAX_QUESTIONS"),
		MaxOptions:        get("ASK_MAX_OPTIONS"),
		HeaderMaxLength:   get("ASK_HEADER_MAX_LENGTH"),
		QuestionMaxLength: get("ASK_QUESTION_MAX_LENGTH"),
	}
}
