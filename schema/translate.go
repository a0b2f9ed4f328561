package schema

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// translate turns the library's error tree into plain-language problems.
// Only the leaves say what is wrong; the inner nodes say which schema
// applied. The library's own messages are not used: they carry schema
// locations and library wording.
func (s *Schema) translate(e *jsonschema.ValidationError, doc any) []Problem {
	if len(e.Causes) == 0 {
		return s.leaf(e, doc)
	}
	var out []Problem
	for _, c := range e.Causes {
		out = append(out, s.translate(c, doc)...)
	}
	return out
}

// leaf explains one failed keyword.
func (s *Schema) leaf(e *jsonschema.ValidationError, doc any) []Problem {
	tokens, value := locate(doc, e.InstanceLocation)
	_, fragment, _ := strings.Cut(e.AbsoluteKeywordLocation, "#")
	kv := s.lookup(fragment)
	when := s.condition(fragment)
	i := strings.LastIndexByte(fragment, '/')
	parent, keyword := fragment[:max(i, 0)], fragment[i+1:]
	if kv == false && (keyword != "const" && keyword != "additionalProperties" || strings.HasSuffix(parent, "/properties")) {
		// A false schema: the value may not be here at all. (false is
		// also the value of a keyword: a const, or additionalProperties,
		// which the library reports as a keyword of its object.)
		return one(tokens, msgNotAllowed+"%s", when)
	}
	// The keyword's number, and the value's characters or items, for the
	// keywords that bound them.
	n := intOf(kv)
	text, _ := value.(string)
	array, _ := value.([]any)

	switch keyword {
	case "required":
		return missing(tokens, value, kv)
	case "additionalProperties":
		return s.unknownFields(tokens, value, parent)
	case "type":
		return one(tokens, "must be %s (got %s)", article(kv), jsonType(value))
	case "minLength":
		if n <= 1 {
			return one(tokens, msgEmpty)
		}
		return one(tokens, "must be at least %d characters (got %d)", n, utf8.RuneCountInString(text))
	case "maxLength":
		return one(tokens, "must be at most %d characters (got %d)", n, utf8.RuneCountInString(text))
	case "pattern":
		if parent == "/$defs/text" {
			// The "not blank" pattern of every text (see text.go).
			return one(tokens, msgBlank)
		}
		return one(tokens, "must match the pattern %s", quoteJSON(kv))
	case "minItems":
		return one(tokens, "must have at least %d %s (got %d)", n, items(n), len(array))
	case "maxItems":
		return one(tokens, "must have at most %d %s (got %d)", n, items(n), len(array))
	case "const":
		return one(tokens, "must be %s%s", quoteJSON(kv), when)
	case "enum":
		var vs []string
		for _, v := range kv.([]any) {
			vs = append(vs, quoteJSON(v))
		}
		return one(tokens, "must be one of %s (got %s)", strings.Join(vs, ", "), quoteJSON(value))
	}
	// A keyword that schema.json does not use today (a test checks that
	// every keyword it uses is known here): say that the value is wrong
	// without the library's wording, which names schema locations.
	return one(tokens, "is not valid here (%s)", keyword)
}

// missing names each of the fields required, listed by the keyword value
// kv, that the object value at tokens does not have.
func missing(tokens []any, value, kv any) []Problem {
	obj, _ := value.(map[string]any)
	var ps []Problem
	for _, name := range stringsOf(kv) {
		if _, ok := obj[name]; !ok {
			ps = append(ps, problem(with(tokens, name), "required"))
		}
	}
	return ps
}

// unknownFields names each field of the object value at tokens that the
// properties of the schema at parent do not list, with the field it may
// have been meant to be, or else the fields allowed.
func (s *Schema) unknownFields(tokens []any, value any, parent string) []Problem {
	obj, _ := value.(map[string]any)
	props, _ := s.lookup(parent + "/properties").(map[string]any)
	// In the order the schema text gives them, as far as rank knows it.
	allowed := slices.SortedFunc(maps.Keys(props), func(a, b string) int { return compareToken(a, b) })
	var ps []Problem
	for name := range obj {
		if _, ok := props[name]; ok {
			continue
		}
		if name == emptyKey {
			name = ""
		}
		hint := cmp.Or(didYouMean(name, allowed), " (allowed: "+strings.Join(allowed, ", ")+")")
		ps = append(ps, problem(with(tokens, name), "unknown field%s", hint))
	}
	return ps
}

// condition describes the if-then-else branch that the keyword at fragment
// sits in, as " when type is "text"" or " unless type is "text"", or ""
// outside one. It reads the condition from the schema's "if", which names
// one property and its const value.
func (s *Schema) condition(fragment string) string {
	i := max(strings.LastIndex(fragment, "/then/"), strings.LastIndex(fragment, "/else/"))
	if i < 0 {
		return ""
	}
	props, _ := s.lookup(fragment[:i] + "/if/properties").(map[string]any)
	if len(props) != 1 {
		return ""
	}
	for name, p := range props {
		p, _ := p.(map[string]any)
		v, ok := p["const"]
		if !ok {
			return ""
		}
		word := "when"
		if fragment[i+1:i+5] == "else" {
			word = "unless"
		}
		return fmt.Sprintf(" %s %s is %s", word, name, quoteJSON(v))
	}
	return ""
}

func one(tokens []any, format string, args ...any) []Problem {
	return []Problem{problem(tokens, format, args...)}
}

// locate resolves a location that the library reports, in the instance or
// in the schema, to path tokens (indexes as int) and the value there, or
// nil. The library writes each token of the pointer URL-escaped (with
// url.PathEscape, which PathUnescape reads back without fail); the key ""
// goes by emptyKey in doc. An index it reports is one of an array it
// checked: of doc, or of withinLimits' copy, whose arrays begin as doc's.
func locate(doc any, pointer string) ([]any, any) {
	tokens := []any{}
	v := doc
	// Each token follows a slash; "" points at the whole.
	for _, raw := range strings.Split(pointer, "/")[1:] {
		raw, _ = url.PathUnescape(raw)
		tok := unescapePointer(raw)
		switch c := v.(type) {
		case []any:
			i, _ := strconv.Atoi(tok)
			tokens = append(tokens, i)
			v = c[i]
		case map[string]any:
			v = c[tok]
			if tok == emptyKey {
				tok = ""
			}
			tokens = append(tokens, tok)
		default:
			tokens = append(tokens, tok)
			v = nil
		}
	}
	return tokens, v
}

// unescapePointer reads one token of a JSON pointer.
func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// with returns tokens extended by more, without sharing tokens' array.
func with(tokens []any, more ...any) []any {
	return slices.Concat(tokens, more)
}

func intOf(v any) int {
	n, _ := v.(json.Number) // "", which reads as 0, when v is none
	i, _ := n.Int64()
	return int(i)
}

func stringsOf(v any) []string {
	var out []string
	vs, _ := v.([]any)
	for _, s := range vs {
		if s, ok := s.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func items(n int) string {
	if n == 1 {
		return "item"
	}
	return "items"
}

// article names the JSON type(s) of a "type" keyword value, with an
// article: "a string", "an object".
func article(v any) string {
	names := stringsOf(v)
	if t, ok := v.(string); ok {
		names = []string{t}
	}
	// The types that "a" does not name.
	other := map[string]string{"object": "an object", "array": "an array", "integer": "an integer", "boolean": "true or false"}
	for i, n := range names {
		names[i] = cmp.Or(other[n], "a "+n)
	}
	return strings.Join(names, " or ")
}

// jsonType names the JSON type of v, a value that decode made: one of
// those below, or else a map[string]any, an object.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

// quoteJSON writes v, a value that the JSON decoder made, as JSON; such a
// value always can be.
func quoteJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
