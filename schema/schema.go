package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// MaxInputSize is the largest input document accepted, in bytes.
const MaxInputSize = 1 << 20

// Schema is the compiled input schema, with any limit overrides applied.
type Schema struct {
	// CheckAnswer, when set, checks the part of each preset answer (the
	// input's "answers") that names no option, as a typed answer is
	// checked; its error becomes a problem at answers.KEY. The prompt
	// package's CheckOther is meant here: schema does not depend on it.
	CheckAnswer func(text string) (string, error)

	raw  []byte // the schema text, patched
	root *node  // raw, compiled

	docOnce sync.Once
	doc     any // raw, decoded, for looking up keyword values; see document
}

// Compile patches the schema text raw with the overrides and compiles it.
// The embedded schema without overrides, the common case, is compiled
// already (see embedded_tree.go): nothing is parsed.
func Compile(raw []byte, o Overrides) (*Schema, error) {
	if len(o) == 0 && string(raw) == embeddedText {
		return &Schema{raw: raw, root: &embeddedRoot}, nil
	}
	patched, err := patch(raw, o)
	if err != nil {
		return nil, err
	}
	doc, err := decode(patched)
	if err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	root, err := compileTree(doc)
	if err != nil {
		return nil, fmt.Errorf("compile schema: %w", err)
	}
	s := &Schema{raw: patched, root: root, doc: doc}
	s.docOnce.Do(func() {})
	return s, nil
}

// document returns the schema text decoded, decoding it on first use: only
// messages about invalid input and the limits need it.
func (s *Schema) document() any {
	s.docOnce.Do(func() {
		// Compile has read this text already or checked it is the
		// embedded schema: it decodes.
		s.doc, _ = decode(s.raw)
	})
	return s.doc
}

// Bytes returns the schema text with the overrides applied.
func (s *Schema) Bytes() []byte { return s.raw }

// Parse checks that data is one JSON document that is valid against the
// schema and the rules the schema cannot express, and returns it. Its
// errors are a *SyntaxError, a *TooLargeError or a *ValidationError.
func (s *Schema) Parse(data []byte, key KeyBy) (*Input, error) {
	if len(data) > MaxInputSize {
		return nil, &TooLargeError{Size: int64(len(data))}
	}
	doc, err := decode(data)
	if err != nil {
		return nil, syntaxError(data, err)
	}
	problems := s.translate(s.root.validate(doc, "", nil), doc)
	problems = append(problems, rules(doc, key, s.CheckAnswer)...)
	if len(problems) > 0 {
		return nil, newValidationError(problems)
	}
	in, ok := inputOf(doc)
	if !ok {
		// The schema admits only what Input can hold; this is a bug.
		return nil, fmt.Errorf("decode valid input: unexpected shape")
	}
	in.checkAnswer = s.CheckAnswer
	return in, nil
}

// inputOf reads a decoded document that the schema has accepted into an
// Input. It does what json.Unmarshal(data, &in) would, without parsing the
// input a second time and without the reflection over the struct types,
// which cost more than the rest of a run; FuzzParse checks that the two
// agree. Numbers in metadata become float64, as Unmarshal makes them (one
// too large for float64 becomes an infinity where Unmarshal fails).
func inputOf(doc any) (*Input, bool) {
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, false
	}
	qs, ok := root["questions"].([]any)
	if !ok {
		return nil, false
	}
	in := &Input{Questions: make([]Question, len(qs))}
	for i, v := range qs {
		q, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		out := &in.Questions[i]
		out.Question, _ = q["question"].(string)
		out.Header, _ = q["header"].(string)
		out.Type, _ = q["type"].(string)
		out.MultiSelect, _ = q["multiSelect"].(bool)
		out.Placeholder, _ = q["placeholder"].(string)
		v, ok := q["options"]
		if !ok {
			continue // a text question
		}
		opts, ok := v.([]any)
		if !ok {
			return nil, false
		}
		out.Options = make([]Option, len(opts))
		for j, v := range opts {
			o, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			out.Options[j].Label, _ = o["label"].(string)
			out.Options[j].Description, _ = o["description"].(string)
			out.Options[j].Preview, _ = o["preview"].(string)
		}
	}
	if m, ok := root["metadata"].(map[string]any); ok {
		in.Metadata = plain(m).(map[string]any)
	}
	if m, ok := root["answers"].(map[string]any); ok {
		in.Answers = make(map[string]string, len(m))
		for k, v := range m {
			if in.Answers[k], ok = v.(string); !ok {
				return nil, false
			}
		}
	}
	return in, true
}

// plain turns the json.Numbers in a decoded value into float64s.
func plain(v any) any {
	switch v := v.(type) {
	case json.Number:
		f, _ := strconv.ParseFloat(v.String(), 64)
		return f
	case map[string]any:
		for k, e := range v {
			v[k] = plain(e)
		}
	case []any:
		for i, e := range v {
			v[i] = plain(e)
		}
	}
	return v
}

// decode reads exactly one JSON value, keeping numbers as json.Number as
// the validator expects.
func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	rest := data[dec.InputOffset():]
	if trimmed := bytes.TrimLeft(rest, " \t\r\n"); len(trimmed) > 0 {
		return nil, &trailingError{offset: int64(len(data) - len(trimmed))}
	}
	return v, nil
}

// lookup returns the value at a JSON pointer (without the leading '#') in
// the schema document.
func (s *Schema) lookup(pointer string) (any, bool) {
	v := s.document()
	if pointer == "" || pointer == "/" {
		return v, true
	}
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		tok = unescapePointer(tok)
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}
