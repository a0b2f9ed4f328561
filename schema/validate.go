package schema

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The schema is applied by a small validator of our own rather than by
// santhosh-tekuri/jsonschema. The library compiles the meta-schemas of five
// drafts when the program starts, whether or not it is used (about 8 ms and
// 1 MB, more than the rest of a run), and it checks the schema against its
// meta-schema on every compile. askuser runs in an agent's loop, so that
// cost is paid on every question.
//
// The library stays the reference: the tests check schema.json against its
// meta-schema with every limit override, and check that this validator
// finds exactly the library's failures on the same inputs, both on a table
// of inputs and under the fuzzer (FuzzValidateMatchesLibrary). This
// validator knows only the keywords schema.json uses, and refuses to
// compile a schema with any other, so that a change to schema.json cannot
// be silently half-applied.

// fault is one failed keyword: where in the schema, where in the input.
// Only leaves of the library's error tree are faults; the $ref chain that
// led there is not kept.
type fault struct {
	keyword  string // JSON pointer to the keyword in the schema, e.g. /$defs/text/minLength
	instance string // JSON pointer to the value in the input, e.g. /questions/0/header
	message  string // what failed, for keywords translate does not know
}

// node is one compiled schema object.
type node struct {
	loc                  string // JSON pointer of this schema in the document
	never                bool   // the schema false
	types                []string
	required             []string
	properties           []property // in name order
	noAdditional         bool       // additionalProperties: false
	additional           *node      // additionalProperties: {schema}
	items                *node
	minItems, maxItems   int  // -1 when absent
	minLength, maxLength int  // -1 when absent
	nonBlank             bool // pattern: \S
	ref                  *node
	refTo                string   // the pointer of ref, until it is resolved
	constant             *scalar  // const
	enum                 []scalar // enum
	allOf                []*node  // allOf
	ifThen               *node    // if
	then, otherwise      *node    // then, else
}

// scalar is a JSON string, boolean or null, as const and enum give them.
// (schema.json compares with nothing else, and this validator refuses
// other values there rather than compare numbers or objects its own way.)
type scalar struct {
	kind string // "string", "boolean" or "null"
	str  string
	b    bool
}

func scalarOf(v any, at string) (scalar, error) {
	switch v := v.(type) {
	case string:
		return scalar{kind: "string", str: v}, nil
	case bool:
		return scalar{kind: "boolean", b: v}, nil
	case nil:
		return scalar{kind: "null"}, nil
	}
	return scalar{}, fmt.Errorf("%s: only strings, booleans and null are supported by askuser's validator", at)
}

// is reports whether the decoded JSON value v equals c.
func (c scalar) is(v any) bool {
	switch v := v.(type) {
	case string:
		return c.kind == "string" && c.str == v
	case bool:
		return c.kind == "boolean" && c.b == v
	case nil:
		return c.kind == "null"
	}
	return false
}

// property is one entry of a "properties" keyword. A slice of them rather
// than a map, so that the embedded schema's tree is static data.
type property struct {
	name   string
	schema *node
}

// property returns the schema of the property name, if n declares one.
func (n *node) property(name string) (*node, bool) {
	for _, p := range n.properties {
		if p.name == name {
			return p.schema, true
		}
	}
	return nil, false
}

// isAnnotation reports whether k is a keyword that says something about a
// schema to people and tools without affecting validation.
func isAnnotation(k string) bool {
	switch k {
	case "$schema", "$comment", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly":
		return true
	}
	return false
}

// compileTree compiles the decoded schema document doc.
func compileTree(doc any) (*node, error) {
	c := &treeCompiler{byLoc: map[string]*node{}}
	root, err := c.compile(doc, "")
	if err != nil {
		return nil, err
	}
	for _, n := range c.refs {
		target, ok := c.byLoc[n.refTo]
		if !ok {
			return nil, fmt.Errorf("%s/$ref: no schema at #%s", n.loc, n.refTo)
		}
		n.ref = target
	}
	return root, nil
}

type treeCompiler struct {
	byLoc map[string]*node
	refs  []*node
}

func (c *treeCompiler) compile(v any, loc string) (*node, error) {
	n := &node{loc: loc, minItems: -1, maxItems: -1, minLength: -1, maxLength: -1}
	c.byLoc[loc] = n
	switch v := v.(type) {
	case bool:
		n.never = !v
		return n, nil
	case map[string]any:
		// Keywords in a fixed order, so that errors name the same one each
		// time.
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := c.keyword(n, k, v[k], loc+"/"+escapePointer(k)); err != nil {
				return nil, err
			}
		}
		return n, nil
	}
	return nil, fmt.Errorf("%s: a schema must be an object or a boolean", pointerName(loc))
}

func (c *treeCompiler) keyword(n *node, k string, v any, at string) error {
	var err error
	switch k {
	case "type":
		n.types, err = typesOf(v, at)
	case "required":
		vs, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: must be an array of strings", at)
		}
		for _, s := range vs {
			s, ok := s.(string)
			if !ok {
				return fmt.Errorf("%s: must be an array of strings", at)
			}
			n.required = append(n.required, s)
		}
	case "properties", "$defs":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: must be an object", at)
		}
		names := make([]string, 0, len(m))
		for name := range m {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			child, err := c.compile(m[name], at+"/"+escapePointer(name))
			if err != nil {
				return err
			}
			if k == "properties" {
				n.properties = append(n.properties, property{name, child})
			}
		}
	case "additionalProperties":
		if b, ok := v.(bool); ok && !b {
			n.noAdditional = true
			return nil
		}
		n.additional, err = c.compile(v, at)
	case "items":
		n.items, err = c.compile(v, at)
	case "if":
		n.ifThen, err = c.compile(v, at)
	case "then":
		n.then, err = c.compile(v, at)
	case "else":
		n.otherwise, err = c.compile(v, at)
	case "allOf":
		vs, ok := v.([]any)
		if !ok || len(vs) == 0 {
			return fmt.Errorf("%s: must be a non-empty array of schemas", at)
		}
		for i, sub := range vs {
			child, err := c.compile(sub, at+"/"+strconv.Itoa(i))
			if err != nil {
				return err
			}
			n.allOf = append(n.allOf, child)
		}
	case "const":
		var c scalar
		c, err = scalarOf(v, at)
		n.constant = &c
	case "enum":
		vs, ok := v.([]any)
		if !ok || len(vs) == 0 {
			return fmt.Errorf("%s: must be a non-empty array", at)
		}
		for i, e := range vs {
			c, err := scalarOf(e, at+"/"+strconv.Itoa(i))
			if err != nil {
				return err
			}
			n.enum = append(n.enum, c)
		}
	case "minItems":
		n.minItems, err = count(v, at)
	case "maxItems":
		n.maxItems, err = count(v, at)
	case "minLength":
		n.minLength, err = count(v, at)
	case "maxLength":
		n.maxLength, err = count(v, at)
	case "pattern":
		// Only \S ("not blank") is used, and a regexp costs more to
		// compile in a fresh process than the rest of validation.
		if v != `\S` {
			return fmt.Errorf("%s: pattern %q is not supported by askuser's validator (only \\S)", at, v)
		}
		n.nonBlank = true
	case "$ref":
		s, ok := v.(string)
		if !ok || !strings.HasPrefix(s, "#") {
			return fmt.Errorf("%s: only references within the schema (#/...) are supported", at)
		}
		n.refTo = unescapeFragment(s[1:])
		c.refs = append(c.refs, n)
	default:
		if !isAnnotation(k) {
			return fmt.Errorf("%s: keyword %q is not supported by askuser's validator", at, k)
		}
	}
	return err
}

func typesOf(v any, at string) ([]string, error) {
	var names []string
	switch t := v.(type) {
	case string:
		names = []string{t}
	case []any:
		for _, s := range t {
			s, ok := s.(string)
			if !ok {
				return nil, fmt.Errorf("%s: must be a type name or an array of them", at)
			}
			names = append(names, s)
		}
	default:
		return nil, fmt.Errorf("%s: must be a type name or an array of them", at)
	}
	for _, name := range names {
		switch name {
		case "object", "array", "string", "number", "boolean", "null":
		default:
			return nil, fmt.Errorf("%s: type %q is not supported by askuser's validator", at, name)
		}
	}
	return names, nil
}

func count(v any, at string) (int, error) {
	n, ok := v.(json.Number)
	if ok {
		if i, err := strconv.Atoi(n.String()); err == nil && i >= 0 {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%s: must be a non-negative integer", at)
}

// unescapeFragment decodes the percent-escapes a URI fragment may hold.
func unescapeFragment(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func pointerName(loc string) string {
	if loc == "" {
		return "schema"
	}
	return loc
}

// validate appends to out every keyword of n (and of the schemas it leads
// to) that v, found at the pointer at, fails. It follows the library: a
// wrong type stops the checks of that schema; then const, enum, the
// object, array and string keywords; then $ref, allOf and if/then/else, in
// that order.
func (n *node) validate(v any, at string, out []fault) []fault {
	if n.never {
		return append(out, fault{n.loc, at, "not allowed"})
	}
	if len(n.types) > 0 && !hasType(n.types, v) {
		return append(out, fault{n.loc + "/type", at, fmt.Sprintf("expected %s, but got %s", strings.Join(n.types, " or "), jsonType(v))})
	}
	if n.constant != nil && !n.constant.is(v) {
		out = append(out, fault{n.loc + "/const", at, "const failed"})
	}
	if len(n.enum) > 0 {
		found := false
		for _, e := range n.enum {
			found = found || e.is(v)
		}
		if !found {
			out = append(out, fault{n.loc + "/enum", at, "enum failed"})
		}
	}
	switch v := v.(type) {
	case map[string]any:
		var missing []string
		for _, name := range n.required {
			if _, ok := v[name]; !ok {
				missing = append(missing, strconv.Quote(name))
			}
		}
		if len(missing) > 0 {
			out = append(out, fault{n.loc + "/required", at, "missing properties: " + strings.Join(missing, ", ")})
		}
		extra := false
		for name, pv := range v {
			if p, ok := n.property(name); ok {
				out = p.validate(pv, at+"/"+escapePointer(name), out)
				continue
			}
			extra = true
			if n.additional != nil {
				out = n.additional.validate(pv, at+"/"+escapePointer(name), out)
			}
		}
		if extra && n.noAdditional {
			out = append(out, fault{n.loc + "/additionalProperties", at, "additional properties not allowed"})
		}
	case []any:
		if n.minItems >= 0 && len(v) < n.minItems {
			out = append(out, fault{n.loc + "/minItems", at, fmt.Sprintf("minimum %d items required, but found %d items", n.minItems, len(v))})
		}
		if n.maxItems >= 0 && len(v) > n.maxItems {
			out = append(out, fault{n.loc + "/maxItems", at, fmt.Sprintf("maximum %d items required, but found %d items", n.maxItems, len(v))})
		}
		if n.items != nil {
			for i, item := range v {
				out = n.items.validate(item, at+"/"+strconv.Itoa(i), out)
			}
		}
	case string:
		if n.minLength >= 0 || n.maxLength >= 0 {
			length := utf8.RuneCountInString(v)
			if n.minLength >= 0 && length < n.minLength {
				out = append(out, fault{n.loc + "/minLength", at, fmt.Sprintf("length must be >= %d, but got %d", n.minLength, length)})
			}
			if n.maxLength >= 0 && length > n.maxLength {
				out = append(out, fault{n.loc + "/maxLength", at, fmt.Sprintf("length must be <= %d, but got %d", n.maxLength, length)})
			}
		}
		if n.nonBlank && strings.IndexFunc(v, isNotSpace) < 0 {
			out = append(out, fault{n.loc + "/pattern", at, `does not match pattern "\\S"`})
		}
	}
	if n.ref != nil {
		out = n.ref.validate(v, at, out)
	}
	for _, sub := range n.allOf {
		out = sub.validate(v, at, out)
	}
	if n.ifThen != nil {
		// The condition's own failures are not reported: they choose
		// between then and else.
		if len(n.ifThen.validate(v, at, nil)) == 0 {
			if n.then != nil {
				out = n.then.validate(v, at, out)
			}
		} else if n.otherwise != nil {
			out = n.otherwise.validate(v, at, out)
		}
	}
	return out
}

// isNotSpace is \S as Go's regexp (and so the library) reads it: anything
// but ASCII tab, newline, form feed, carriage return and space.
func isNotSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\f', '\r', ' ':
		return false
	}
	return true
}

func hasType(types []string, v any) bool {
	t := jsonType(v)
	for _, want := range types {
		if want == t {
			return true
		}
	}
	return false
}
