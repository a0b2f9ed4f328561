package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/tidwall/gjson"
)

// MaxInputSize is the largest input document accepted, in bytes.
const MaxInputSize = 1 << 20

// schemaURL names the embedded schema inside the compiler; it never leaves
// the process.
const schemaURL = "askuser:schema.json"

// BOM is the UTF-8 byte-order mark some editors write at the start of a
// file. It is not part of the JSON text: Parse skips it.
const BOM = "\ufeff"

// Schema is the compiled input schema, with any limit overrides applied.
type Schema struct {
	raw      []byte // the schema text, patched
	doc      any    // raw, decoded, for looking up keyword values
	compiled *jsonschema.Schema
	// opaque names the top-level fields that the schema only requires to
	// be of one JSON type (metadata): they are checked for that type
	// without being built. See decode.
	opaque map[string]bool
	limits Limits // read from doc by Compile
}

// Compile patches the schema text raw with the limits of l that are not 0
// (see Check) and compiles it with santhosh-tekuri/jsonschema, which first
// checks it against the meta-schema of draft 2020-12.
func Compile(raw []byte, l Limits) (*Schema, error) {
	if err := l.Check(); err != nil {
		return nil, err
	}
	patched, err := patch(raw, l)
	if err != nil {
		return nil, err
	}
	doc, err := decodeAll[any](patched)
	if err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	// The schema refers only to itself: nothing is to be loaded from
	// elsewhere, whatever a patched schema might say.
	c.LoadURL = func(url string) (_ io.ReadCloser, err error) {
		return nil, fmt.Errorf("load %s: the schema may refer only to itself", url)
	}
	if err := c.AddResource(schemaURL, bytes.NewReader(patched)); err != nil {
		return nil, fmt.Errorf("load schema: %w", err)
	}
	compiled, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("compile schema: %w", err)
	}
	s := &Schema{raw: patched, doc: doc, compiled: compiled, opaque: opaqueFields(doc)}
	for _, l := range AllLimits {
		*s.limits.Field(l) = int(gjson.GetBytes(patched, limitKeys[l].path).Int())
	}
	return s, nil
}

// opaqueFields finds the top-level properties whose schema says nothing but
// their type (and words for people): "metadata", which agents fill with
// whatever they like. Their values are checked by the library for that type
// only, so Parse need not build them (see decode). A property with any
// other keyword is decoded in full, so that a change to schema.json cannot
// be half-applied.
func opaqueFields(doc any) map[string]bool {
	root, _ := doc.(map[string]any)
	props, _ := root["properties"].(map[string]any)
	out := map[string]bool{}
	for name, p := range props {
		p, _ := p.(map[string]any)
		// What is left of it without its type and its words for people.
		rest := maps.Clone(p)
		maps.DeleteFunc(rest, func(k string, _ any) bool {
			return slices.Contains([]string{"type", "description", "title", "$comment"}, k)
		})
		if _, ok := p["type"].(string); ok && len(rest) == 0 {
			out[name] = true
		}
	}
	return out
}

// Bytes returns the schema text with the overrides applied.
func (s *Schema) Bytes() []byte { return s.raw }

// Parse checks that data is one JSON document that is valid against the
// schema and the rules the schema cannot express, and returns it. A leading
// UTF-8 byte-order mark is allowed (and counts toward MaxInputSize). Preset
// answers and annotations may be keyed by header or by question text;
// Input holds them keyed as key says. Its errors are a *SyntaxError, a
// *TooLargeError or a *ValidationError.
func (s *Schema) Parse(data []byte, key KeyBy) (*Input, error) {
	if len(data) > MaxInputSize {
		return nil, &TooLargeError{Size: int64(len(data))}
	}
	data = bytes.TrimPrefix(data, []byte(BOM))
	doc, err := decode(data, s.opaque)
	if err != nil {
		return nil, syntaxError(data, err)
	}
	// The rules read keys as written; validation may rename the key ""
	// (see validate), so the rules come first.
	in, problems := rules(doc, key, s.Limits())
	problems = append(s.validate(doc), problems...)
	if len(problems) > 0 {
		return nil, newValidationError(problems)
	}
	return in, nil
}

// validate applies the schema to doc with the library and translates what
// it finds.
func (s *Schema) validate(doc any) []Problem {
	// The library leaves the key "" out of the locations it reports (the
	// value at {"answers":{"":1}} is reported at /answers), which would
	// put the problem on the wrong value. Such a key is named emptyKey
	// while the library checks it, and given back its own name in the
	// problems.
	renameEmptyKeys(doc)
	err := s.compiled.Validate(s.withinLimits(doc))
	if err == nil {
		return nil
	}
	// The library fails otherwise only for a value that is not JSON, or a
	// schema that loops; decode makes neither.
	return s.translate(err.(*jsonschema.ValidationError), doc)
}

// withinLimits returns doc, or a copy of it (sharing what it does not
// change) whose questions, and options of each question, stop one past the
// most the limits allow. The one past keeps the "at most" problem, whose
// count translate reads from doc itself; what lies beyond cannot be asked
// and must go anyway, and checking it could list a million problems: 1 MiB
// of empty questions took the library 18 s and 1.5 GB.
func (s *Schema) withinLimits(doc any) any {
	root, _ := doc.(map[string]any)
	qs, _ := root["questions"].([]any) // none, when it is no array: nothing is cut
	l := s.Limits()
	// A copy of the few questions kept, which costs nothing beside them.
	short := slices.Clone(qs[:min(len(qs), l.MaxQuestions+1)])
	changed := len(short) < len(qs)
	for i, q := range short {
		q, _ := q.(map[string]any)
		if opts, _ := q["options"].([]any); len(opts) > l.MaxOptions+1 {
			q = maps.Clone(q)
			q["options"] = opts[:l.MaxOptions+1]
			short[i], changed = q, true
		}
	}
	if !changed {
		return doc
	}
	root = maps.Clone(root)
	root["questions"] = short
	return root
}

// decode reads data, which must be exactly one JSON value, keeping numbers
// as json.Number as the library expects. The top-level fields named in
// opaque (metadata) are checked for their JSON type without being built:
// an object or an array becomes an empty one, which the schema judges just
// as it would the value itself (see opaqueFields). A megabyte of small
// objects there would otherwise take twenty megabytes of maps, to be
// thrown away. Any other value costs no more built than its text.
func decode(data []byte, opaque map[string]bool) (any, error) {
	if len(opaque) == 0 || !bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) {
		return decodeAll[any](data)
	}
	fields, err := decodeAll[map[string]json.RawMessage](data)
	if err != nil {
		return nil, err
	}
	out := make(map[string]any, len(fields))
	for k, raw := range fields {
		// raw is a value as the decoder gives it, without the white space
		// around it.
		switch {
		case opaque[k] && raw[0] == '{':
			out[k] = map[string]any{}
		case opaque[k] && raw[0] == '[':
			out[k] = []any{}
		default:
			// The decoder has read raw as one valid value already, which
			// decodes again without fail.
			out[k], _ = decodeAll[any](raw)
		}
	}
	return out, nil
}

// decodeAll reads data, which must be exactly one JSON value, into a T,
// keeping numbers as json.Number.
func decodeAll[T any](data []byte) (T, error) {
	var v T
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return v, err
	}
	// Nothing but white space may follow the value.
	if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return v, &trailingError{offset: int64(len(data) - len(rest))}
	}
	return v, nil
}

// emptyKey is the name of the key "" while the library checks a document
// (see Schema.validate). It is not UTF-8, and the JSON decoder makes every
// key UTF-8, so no key of a document has it.
const emptyKey = "\xff"

// renameEmptyKeys renames the key "" of every object in v to emptyKey.
func renameEmptyKeys(v any) {
	switch v := v.(type) {
	case map[string]any:
		if e, ok := v[""]; ok {
			delete(v, "")
			v[emptyKey] = e
		}
		for _, e := range v {
			renameEmptyKeys(e)
		}
	case []any:
		for _, e := range v {
			renameEmptyKeys(e)
		}
	}
}

// lookup returns the value at a JSON pointer (without the leading '#'),
// written as the library writes one, in the schema document, or nil.
func (s *Schema) lookup(pointer string) any {
	_, v := locate(s.doc, pointer)
	return v
}
