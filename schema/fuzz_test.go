package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse runs any bytes through the whole input path, Parse of the
// compiled embedded schema: the result is either questions that keep every
// promise of the contract, or a clean error (syntax, size or a list of
// problems) whose text can be printed on a terminal as it is. (The schema
// is compiled once: compiling it does not depend on the input, and the
// library's check of it against the meta-schema would take most of the
// time.)
func FuzzParse(f *testing.F) {
	for _, c := range validationCases {
		f.Add([]byte(c), false)
	}
	f.Add([]byte("{\"questions\":[{\"question\":\"q\",\"header\":\"h\",\n\"options\":[{\"label\":\"a\",\"description\":\"d\"},{\"label\":\"b\",\"description\":\"d\"}],\"multiSelect\":false}]} x"), false)
	f.Add([]byte(`{"questions":[{"question":"\u001b]0;t\u0007","header":"\u202e","options":[{"label":"a\u009b","description":"d"},{"label":"b","description":"d"}],"multiSelect":false}]}`), true)
	f.Add([]byte("{\"questions\":\n  [\xff"), false)
	f.Add([]byte(`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false,"header":"h2"}],"metadata":{"n":1e400,"a":[1,2.5,{"b":-0}]},"metadata":{"m":1}}`), false)
	f.Add([]byte(`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":true}],"answers":{"h":"a, B, typed, \u001b"}}`), true)
	f.Add([]byte(`{"questions":[{"question":"Why?","header":"Why","type":"text","placeholder":"because"},{"question":"q","header":"c","type":"choice","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false}],"answers":{"Why":"  typed\u001b "}}`), false)
	s := compileWith(f, Limits{})
	f.Fuzz(func(t *testing.T, data []byte, byQuestion bool) {
		key := KeyHeader
		if byQuestion {
			key = KeyQuestion
		}
		in, err := s.Parse(data, key)
		if err != nil {
			checkCleanError(t, data, err)
			return
		}
		checkInput(t, in, key)
		checkAsUnmarshal(t, data, in, key)
	})
}

// checkAsUnmarshal fails unless in is what json.Unmarshal makes of data,
// with the preset answers and notes keyed as key says.
func checkAsUnmarshal(t *testing.T, data []byte, in *Input, key KeyBy) {
	var want struct {
		Questions   []Question                        `json:"questions"`
		Answers     map[string]string                 `json:"answers"`
		Annotations map[string]struct{ Notes string } `json:"annotations"`
	}
	// A field given twice counts once, as its last value, as in every
	// decoder of JSON into maps (and the validator's): Unmarshal into a
	// struct would also try the first value. The input is decoded so
	// first, written again, and then unmarshalled.
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, []byte(BOM))))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		t.Fatalf("decode valid input: %v", err)
	}
	once, err := json.Marshal(generic)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(once, &want); err != nil {
		t.Fatalf("json.Unmarshal of valid input: %v", err)
	}
	// A key names the question whose answer key it is, else the one whose
	// other field it is.
	keyOf := func(k string) string {
		for _, q := range want.Questions {
			if key.Key(q) == k {
				return k
			}
		}
		for _, q := range want.Questions {
			if key.other().Key(q) == k {
				return key.Key(q)
			}
		}
		t.Fatalf("valid input with a preset for %q, which names no question", k)
		return ""
	}
	var answers, notes map[string]string
	if want.Answers != nil {
		answers = map[string]string{}
		for k, v := range want.Answers {
			answers[keyOf(k)] = v
		}
	}
	if want.Annotations != nil {
		notes = map[string]string{}
		for k, v := range want.Annotations {
			notes[keyOf(k)] = strings.TrimSpace(v.Notes)
		}
	}
	if !reflect.DeepEqual(in.Questions, want.Questions) || !reflect.DeepEqual(in.Answers, answers) ||
		!reflect.DeepEqual(in.Annotations, notes) {
		t.Fatalf("input %s\nParse:     %#v\nUnmarshal: %#v", data, in, &want)
	}
}

func checkCleanError(t *testing.T, data []byte, err error) {
	syntax, isSyntax := errors.AsType[*SyntaxError](err)
	invalid, isInvalid := errors.AsType[*ValidationError](err)
	_, isLarge := errors.AsType[*TooLargeError](err)
	switch {
	case isSyntax:
		if syntax.Line < 1 || syntax.Column < 1 || syntax.Line > strings.Count(string(data), "\n")+1 {
			t.Fatalf("syntax error at line %d, column %d of %q", syntax.Line, syntax.Column, data)
		}
	case isInvalid:
		if len(invalid.Problems) == 0 {
			t.Fatal("validation error with no problems")
		}
		for i, p := range invalid.Problems {
			if p.Path == "" || p.Message == "" {
				t.Fatalf("problem %d is incomplete: %+v", i, p)
			}
			if i > 0 && comparePath(p.tokens, invalid.Problems[i-1].tokens) < 0 {
				t.Fatalf("problems out of order: %q before %q", invalid.Problems[i-1], p)
			}
			if strings.Contains(p.Message, "jsonschema") || strings.Contains(p.Message, "#/") {
				t.Fatalf("library wording in %q", p)
			}
		}
	case isLarge:
		if len(data) <= MaxInputSize {
			t.Fatalf("%d bytes called too large", len(data))
		}
	default:
		t.Fatalf("unexpected error %T: %v", err, err)
	}
	// Error text is printed on stderr: it quotes what it shows of the
	// input, so nothing in it can drive the terminal.
	msg := err.Error()
	if !utf8.ValidString(msg) {
		t.Fatalf("error text is not UTF-8: %q", msg)
	}
	for _, r := range msg {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			t.Fatalf("error text holds %U: %q", r, msg)
		}
	}
}

// checkInput checks what the contract promises of valid questions.
func checkInput(t *testing.T, in *Input, key KeyBy) {
	if n := len(in.Questions); n < 1 || n > 4 {
		t.Fatalf("%d questions", n)
	}
	keys := map[string]bool{}
	for i, q := range in.Questions {
		text := func(s string, max int) bool {
			n := utf8.RuneCountInString(s)
			return n >= 1 && n <= max && !isBlank(s)
		}
		if !text(q.Question, 500) || !text(q.Header, 12) {
			t.Fatalf("question %d: bad question or header %q %q", i, q.Question, q.Header)
		}
		if keys[stripInvisible(key.Key(q))] {
			t.Fatalf("question %d: key %q twice", i, key.Key(q))
		}
		keys[stripInvisible(key.Key(q))] = true
		if q.Kind.Typed() {
			if len(q.Options) != 0 || q.MultiSelect || utf8.RuneCountInString(q.Placeholder) > 100 {
				t.Fatalf("text question %d: %+v", i, q)
			}
			continue
		}
		if n := len(q.Options); n < 2 || n > 4 || q.Placeholder != "" {
			t.Fatalf("question %d: %d options, placeholder %q", i, n, q.Placeholder)
		}
		labels := map[string]bool{}
		for j, o := range q.Options {
			if !text(o.Label, 50) || !text(o.Description, 200) || utf8.RuneCountInString(o.Preview) > 4000 || q.MultiSelect && o.Preview != "" {
				t.Fatalf("question %d option %d: bad %+v", i, j, o)
			}
			l := strings.ToLower(strings.TrimSpace(stripInvisible(o.Label)))
			if l == "other" || labels[l] {
				t.Fatalf("question %d option %d: label %q", i, j, o.Label)
			}
			labels[l] = true
		}
	}
	for k, v := range in.Answers {
		if !keys[stripInvisible(k)] || isBlank(v) {
			t.Fatalf("preset answer %q: %q", k, v)
		}
	}
	for k, v := range in.Annotations {
		if !keys[stripInvisible(k)] || isBlank(v) {
			t.Fatalf("note %q: %q", k, v)
		}
	}
}

// plainMessages are the forms of every message translate writes. A message
// of another form would be the library's wording, or a schema location.
var plainMessages = regexp.MustCompile(`^(` + strings.Join([]string{
	`required`,
	`unknown field; did you mean "[^"]+"\?`,
	`unknown field \(allowed: [A-Za-z]+(, [A-Za-z]+)*\)`,
	`must be (a string|a number|an object|an array|an integer|true or false|null)( or [a-z ]+)* \(got (null|boolean|number|string|array|object)\)`,
	`must not be empty`,
	`must not be blank`,
	`must be at (least|most) [0-9]+ characters \(got [0-9]+\)`,
	`must have at (least|most) [0-9]+ items? \(got [0-9]+\)`,
	`must be ("[^"]*"|true|false|null)( (when|unless) [A-Za-z]+ is ("[^"]*"|true|false|null))?`,
	`must be one of "[^"]*"(, "[^"]*")* \(got .*\)`,
	`not allowed( (when|unless) [A-Za-z]+ is ("[^"]*"|true|false|null))?`,
}, "|") + `)$`)

// FuzzTranslate: for any JSON document, under the default limits or the
// smallest, the library's verdict is translated into problems, one or more
// exactly when the library finds the document invalid, each at the path of
// a value of the document (or of a missing field of one), in plain words.
func FuzzTranslate(f *testing.F) {
	for _, c := range validationCases {
		f.Add([]byte(c), false)
	}
	schemas := []*Schema{compileWith(f, overrideSets[0]), compileWith(f, overrideSets[1])}
	f.Fuzz(func(t *testing.T, data []byte, small bool) {
		s := schemas[0]
		if small {
			s = schemas[1]
		}
		doc, err := decodeAll[any](data)
		if err != nil {
			return // not JSON: Parse says so before any validation
		}
		// The library's verdict on the document as written, metadata and
		// all.
		verdict := s.compiled.Validate(doc)
		// validate renames keys; it gets a copy.
		given, _ := decode(data, s.opaque)
		ps := s.validate(given)
		if (verdict == nil) != (len(ps) == 0) {
			t.Fatalf("input %s\nlibrary: %v\nproblems: %q", data, verdict, ps)
		}
		for _, p := range ps {
			if !plainMessages.MatchString(p.Message) {
				t.Fatalf("input %s\nproblem %q is not in plain words", data, p)
			}
			if p.Path == "" || p.Path != formatPath(p.tokens) {
				t.Fatalf("input %s\nproblem %q has path %q for %v", data, p, p.Path, p.tokens)
			}
			// The path leads to a value of the input, or to a field
			// missing from an object of it.
			at := p.tokens
			if p.Message == "required" {
				at = at[:len(at)-1]
			}
			if !exists(doc, at) {
				t.Fatalf("input %s\nproblem %q is at no value of the input", data, p)
			}
		}
	})
}

// exists reports whether the path tokens lead to a value in v.
func exists(v any, tokens []any) bool {
	for _, tok := range tokens {
		switch c := v.(type) {
		case map[string]any:
			k, ok := tok.(string)
			if !ok {
				return false
			}
			if v, ok = c[k]; !ok {
				return false
			}
		case []any:
			i, ok := tok.(int)
			if !ok || i < 0 || i >= len(c) {
				return false
			}
			v = c[i]
		default:
			return false
		}
	}
	return true
}
