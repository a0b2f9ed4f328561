package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// MaxInputSize is the largest input document accepted, in bytes.
const MaxInputSize = 1 << 20

// schemaURL names the embedded schema inside the compiler; it never leaves
// the process.
const schemaURL = "askuser:schema.json"

// Schema is the compiled input schema, with any limit overrides applied.
type Schema struct {
	raw      []byte // the schema text, patched
	doc      any    // raw, decoded, for looking up keyword values
	compiled *jsonschema.Schema
}

// Compile patches the schema text raw with the overrides and compiles it.
func Compile(raw []byte, o Overrides) (*Schema, error) {
	patched, err := patch(raw, o)
	if err != nil {
		return nil, err
	}
	doc, err := decode(patched)
	if err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(schemaURL, bytes.NewReader(patched)); err != nil {
		return nil, fmt.Errorf("load schema: %w", err)
	}
	compiled, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("compile schema: %w", err)
	}
	return &Schema{raw: patched, doc: doc, compiled: compiled}, nil
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
	var problems []Problem
	if err := s.compiled.Validate(doc); err != nil {
		ve, ok := err.(*jsonschema.ValidationError)
		if !ok {
			return nil, fmt.Errorf("validate: %w", err)
		}
		problems = s.translate(ve, doc)
	}
	problems = append(problems, rules(doc, key)...)
	if len(problems) > 0 {
		return nil, newValidationError(problems)
	}
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		// The schema admits only what Input can hold; this is a bug.
		return nil, fmt.Errorf("decode valid input: %w", err)
	}
	return &in, nil
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
	v := s.doc
	if pointer == "" || pointer == "/" {
		return v, true
	}
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
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
