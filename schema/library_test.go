package schema

import (
	"bytes"
	"net/url"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// santhosh-tekuri/jsonschema is the reference for what schema.json means.
// askuser applies the schema with its own validator (see validate.go); these
// tests hold the two to the same answers.

func embedded(t testing.TB) []byte {
	t.Helper()
	raw, err := os.ReadFile("../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

var libraryCache sync.Map // patched schema text → *jsonschema.Schema

// librarySchema compiles raw with the library, which first checks it
// against the draft 2020-12 meta-schema.
func librarySchema(raw []byte) (*jsonschema.Schema, error) {
	if s, ok := libraryCache.Load(string(raw)); ok {
		return s.(*jsonschema.Schema), nil
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	const url = "askuser:schema.json"
	if err := c.AddResource(url, bytes.NewReader(raw)); err != nil {
		return nil, err
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, err
	}
	libraryCache.Store(string(raw), s)
	return s, nil
}

// libraryFaults validates doc with the library and returns the leaves of its
// error tree as faults.
func libraryFaults(t testing.TB, raw []byte, doc any) []fault {
	t.Helper()
	s, err := librarySchema(raw)
	if err != nil {
		t.Fatalf("library: compile schema: %v", err)
	}
	err = s.Validate(doc)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		t.Fatalf("library: %v", err)
	}
	var out []fault
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		_, fragment, _ := strings.Cut(e.AbsoluteKeywordLocation, "#")
		out = append(out, fault{keyword: fragment, instance: unescapeTokens(t, e.InstanceLocation), message: e.Message})
	}
	walk(ve)
	return out
}

// unescapeTokens undoes the URL escaping the library (v5.3.1) applies to
// each token of an instance location: it reports the value at
// {"answers":{" 0":null}} at /answers/%200, so its problem would name a key
// "%200" that the input does not have. askuser names the key as written.
// Found by FuzzValidateMatchesLibrary.
func unescapeTokens(t testing.TB, pointer string) string {
	if !strings.Contains(pointer, "%") {
		return pointer
	}
	tokens := strings.Split(pointer, "/")
	for i, tok := range tokens {
		u, err := url.PathUnescape(tok)
		if err != nil {
			t.Fatalf("library instance location %q: %v", pointer, err)
		}
		tokens[i] = u
	}
	return strings.Join(tokens, "/")
}

func faultKeys(fs []fault) []string {
	keys := make([]string, len(fs))
	for i, f := range fs {
		keys[i] = f.instance + " @ " + f.keyword
	}
	sort.Strings(keys)
	return keys
}

func problemLines(ps []Problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// checkMatchesLibrary fails unless askuser's validator and the library find
// the same failed keywords in data, and so the same problems.
func checkMatchesLibrary(t testing.TB, s *Schema, data []byte) {
	t.Helper()
	doc, err := decode(data)
	if err != nil {
		return // not JSON: neither validator sees it
	}
	ours := s.root.validate(doc, "", nil)
	theirs := libraryFaults(t, s.raw, doc)
	// The library (v5.3.1) leaves an empty key out of the instance
	// location: the value at {"answers":{"":1}} is reported at /answers,
	// the object, rather than at /answers/, so its problem would read
	// "answers: must be a string (got object)". askuser names the key
	// (answers[""]: must be a string (got number)). Only there do the two
	// differ, on purpose: compare the rest, and the locations as the
	// library writes them.
	oursAsLibrary := make([]fault, len(ours))
	for i, f := range ours {
		f.instance = dropEmptyTokens(f.instance)
		oursAsLibrary[i] = f
	}
	if got, want := faultKeys(oursAsLibrary), faultKeys(theirs); !reflect.DeepEqual(got, want) {
		t.Fatalf("input %s\nfailed keywords differ:\nours:    %q\nlibrary: %q", data, got, want)
	}
	if hasEmptyKey(doc) {
		return
	}
	got := problemLines(newValidationError(s.translate(ours, doc)).Problems)
	want := problemLines(newValidationError(s.translate(theirs, doc)).Problems)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("input %s\nproblems differ:\nours:    %q\nlibrary: %q", data, got, want)
	}
}

// dropEmptyTokens writes a JSON pointer as the library does, without its
// empty tokens.
func dropEmptyTokens(pointer string) string {
	var b strings.Builder
	for _, tok := range strings.Split(pointer, "/")[1:] {
		if tok != "" {
			b.WriteString("/" + tok)
		}
	}
	return b.String()
}

// hasEmptyKey reports whether an object in v has the key "".
func hasEmptyKey(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if k == "" || hasEmptyKey(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if hasEmptyKey(e) {
				return true
			}
		}
	}
	return false
}

// overrideSets are limit overrides the tests try: none, the smallest, and
// large ones.
var overrideSets = []map[string]string{
	{},
	{"ASK_MAX_QUESTIONS": "1", "ASK_MAX_OPTIONS": "2", "ASK_HEADER_MAX_LENGTH": "1", "ASK_QUESTION_MAX_LENGTH": "1"},
	{"ASK_MAX_QUESTIONS": "40", "ASK_MAX_OPTIONS": "26", "ASK_HEADER_MAX_LENGTH": "100", "ASK_QUESTION_MAX_LENGTH": "100000"},
}

func compileWith(t testing.TB, env map[string]string) *Schema {
	t.Helper()
	o, err := OverridesFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(embedded(t), o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The schema, patched by any limit override, is a valid draft 2020-12
// schema: the library checks it against the meta-schema as it compiles it.
func TestSchemaIsValidForTheLibrary(t *testing.T) {
	for _, env := range overrideSets {
		s := compileWith(t, env)
		if _, err := librarySchema(s.raw); err != nil {
			t.Errorf("overrides %v: %v", env, err)
		}
	}
}

// validationCases are inputs that fail (or pass) the schema in every way
// the tests could think of; they also seed the fuzzers.
var validationCases = []string{
	`{"questions":[{"question":"Which?","header":"H","options":[{"label":"A","description":"a"},{"label":"B","description":"b"}],"multiSelect":false}]}`,
	`{"questions":[{"question":"Which?","header":"H","options":[{"label":"A","description":"a","preview":"p"},{"label":"B","description":"b"}],"multiSelect":true}],"metadata":{"x":[1,{}]},"answers":{"H":"A"}}`,
	`{}`, `[]`, `null`, `1`, `"s"`, `true`,
	`{"questions":[]}`, `{"questions":{}}`, `{"questions":[1,"x",null,[],{}]}`,
	`{"questions":[{}],"extra":1,"Questions":2}`,
	`{"questions":[{"question":"","header":"   ","options":[],"multiSelect":"no"}]}`,
	`{"questions":[{"question":1,"header":true,"options":[1,{"label":""},{"label":"x","description":"y","preview":5,"z":0}],"multiselect":false}]}`,
	`{"questions":[{"question":"Which?","header":"A header that is too long","options":[{"label":"A","description":"a"}],"multiSelect":false}]}`,
	`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"},{"label":"c","description":"d"},{"label":"d","description":"d"},{"label":"e","description":"d"}],"multiSelect":false}]}`,
	`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false},{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"A","description":"d"}],"multiSelect":false},{"question":"q","header":"i","options":[{"label":"Other","description":"d"},{"label":"b","description":"d"}],"multiSelect":false},{"question":"q","header":"j","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false},{"question":"q","header":"k","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false}]}`,
	`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false}],"answers":{"h":1,"x":"","a/b~c":null},"metadata":[]}`,
	`{"questions":[{"question":"` + strings.Repeat("x", 501) + `","header":"数据库数据库数据库数据库","options":[{"label":"` + strings.Repeat("é", 51) + `","description":"` + strings.Repeat("d", 201) + `","preview":"` + strings.Repeat("p", 4001) + `"},{"label":"\t","description":"\n"}],"multiSelect":false}]}`,
	`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false,"options":5}]}`,
	`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":null,"type":"x","placeholder":1}]}`,
	`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false}],"answers":{"h":"\u001b[31m"}}`,
	`{"answers":{"":null,"x":{"":1}},"questions":[{"":1}]}`,
	`{"answers":{" 0":null,"a/b~c%d":1,"é":[]},"questions":[{"?#":1}]}`,
	// Text questions, and what each type allows.
	`{"questions":[{"question":"Why?","header":"Why","type":"text","placeholder":"because"},{"question":"q","header":"t2","type":"text","options":[],"multiSelect":true,"placeholder":""},{"question":"q","header":"c","type":"choice","placeholder":"x","options":[{"label":"a","description":"d","preview":"p"},{"label":"b","description":"d"}],"multiSelect":true},{"question":"q","header":"e","type":"essay"}]}`,
	`{"questions":[{"question":"q","header":"h","type":null,"multiSelect":false},{"question":"q","header":"i","type":"text","multiSelect":false,"placeholder":"` + strings.Repeat("p", 101) + `"},{"question":"q","header":"j","multiSelect":true,"options":[{"label":"a","description":"d","preview":""},{"label":"b","description":"d","preview":5}]}]}`,
	// Blank as \S reads it: ASCII spaces only; a vertical tab or a
	// no-break space is not blank.
	`{"questions":[{"question":"\t\n\f\r ","header":"\u000b","options":[{"label":"\u00a0","description":"\u2003"},{"label":"\u0085","description":"\ufeff"}],"multiSelect":false}]}`,
}

func TestValidatorMatchesLibrary(t *testing.T) {
	for _, env := range overrideSets {
		s := compileWith(t, env)
		for _, c := range validationCases {
			checkMatchesLibrary(t, s, []byte(c))
		}
	}
}

// FuzzValidateMatchesLibrary holds askuser's validator to the library's
// answers on any input, under the default limits and the smallest ones.
func FuzzValidateMatchesLibrary(f *testing.F) {
	for _, c := range validationCases {
		f.Add([]byte(c), false)
	}
	schemas := []*Schema{compileWith(f, overrideSets[0]), compileWith(f, overrideSets[1])}
	f.Fuzz(func(t *testing.T, data []byte, small bool) {
		s := schemas[0]
		if small {
			s = schemas[1]
		}
		checkMatchesLibrary(t, s, data)
	})
}

// The validator refuses keywords it does not implement rather than ignore
// them.
func TestCompileRefusesUnknownKeywords(t *testing.T) {
	for _, raw := range []string{
		`{"type":"object","minProperties":1}`,
		`{"type":"integer"}`,
		`{"$ref":"https://example.com/x"}`,
		`{"$ref":"#/$defs/missing"}`,
		`{"items":[{}]}`,
		`{"maxLength":-1}`,
		`{"pattern":"("}`,
		`{"pattern":"^a"}`,
		`{"properties":{"a":1}}`,
	} {
		if _, err := Compile([]byte(raw), nil); err == nil {
			t.Errorf("Compile(%s) = nil error", raw)
		}
	}
	for _, raw := range []string{`{}`, `true`, `{"$defs":{"a~/b":{}},"$ref":"#/$defs/a~0~1b"}`} {
		if _, err := Compile([]byte(raw), nil); err != nil {
			t.Errorf("Compile(%s): %v", raw, err)
		}
	}
}

// Where the library would point at the parent of an empty key (see
// checkMatchesLibrary) or at a URL-escaped key (see unescapeTokens),
// askuser names the key as written. Found by FuzzValidateMatchesLibrary.
func TestOddKeysAreNamed(t *testing.T) {
	s := compileWith(t, nil)
	for answers, want := range map[string]string{
		`{"":null}`:     `answers[""]: must be a string (got null)`,
		`{" 0":null}`:   `answers[" 0"]: must be a string (got null)`,
		`{"a/b~c%d":1}`: `answers["a/b~c%d"]: must be a string (got number)`,
	} {
		_, err := s.Parse([]byte(`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false}],"answers":`+answers+`}`), KeyHeader)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("answers %s: err = %v, want it to hold %q", answers, err, want)
		}
	}
}
