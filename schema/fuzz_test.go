package schema

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse runs any bytes through the whole input path, Compile and Parse:
// the result is either questions that keep every promise of the contract,
// or a clean error (syntax, size or a list of problems) whose text can be
// printed on a terminal as it is.
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
	raw := embedded(f)
	f.Fuzz(func(t *testing.T, data []byte, byQuestion bool) {
		s, err := Compile(raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.CheckAnswer = func(text string) (string, error) {
			if utf8.RuneCountInString(text) > 2000 {
				return "", errors.New("must be at most 2000 characters")
			}
			return text, nil
		}
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
		checkAsUnmarshal(t, data, in)
	})
}

// checkAsUnmarshal fails unless in is what json.Unmarshal makes of data.
func checkAsUnmarshal(t *testing.T, data []byte, in *Input) {
	var want Input
	if err := json.Unmarshal(data, &want); err != nil {
		// Only a number in metadata too large for float64 gets here.
		var ute *json.UnmarshalTypeError
		if !errors.As(err, &ute) || !strings.HasPrefix(ute.Field, "metadata") {
			t.Fatalf("json.Unmarshal of valid input: %v", err)
		}
		want.Metadata = in.Metadata
	}
	if !reflect.DeepEqual(in.Questions, want.Questions) || !reflect.DeepEqual(in.Answers, want.Answers) ||
		!reflect.DeepEqual(in.Metadata, want.Metadata) {
		t.Fatalf("input %s\nParse:     %#v\nUnmarshal: %#v", data, in, &want)
	}
}

func checkCleanError(t *testing.T, data []byte, err error) {
	var (
		syntax  *SyntaxError
		invalid *ValidationError
		large   *TooLargeError
	)
	switch {
	case errors.As(err, &syntax):
		if syntax.Line < 1 || syntax.Column < 1 || syntax.Line > strings.Count(string(data), "\n")+1 {
			t.Fatalf("syntax error at line %d, column %d of %q", syntax.Line, syntax.Column, data)
		}
	case errors.As(err, &invalid):
		if len(invalid.Problems) == 0 {
			t.Fatal("validation error with no problems")
		}
		for i, p := range invalid.Problems {
			if p.Path == "" || p.Message == "" {
				t.Fatalf("problem %d is incomplete: %+v", i, p)
			}
			if i > 0 && lessPath(p.tokens, invalid.Problems[i-1].tokens) {
				t.Fatalf("problems out of order: %q before %q", invalid.Problems[i-1], p)
			}
			if strings.Contains(p.Message, "jsonschema") || strings.Contains(p.Message, "#/") {
				t.Fatalf("library wording in %q", p)
			}
		}
	case errors.As(err, &large):
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
			return n >= 1 && n <= max && strings.TrimSpace(s) != ""
		}
		if !text(q.Question, 500) || !text(q.Header, 12) {
			t.Fatalf("question %d: bad question or header %q %q", i, q.Question, q.Header)
		}
		if keys[key.Key(q)] {
			t.Fatalf("question %d: key %q twice", i, key.Key(q))
		}
		keys[key.Key(q)] = true
		if q.IsText() {
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
			l := strings.ToLower(strings.TrimSpace(o.Label))
			if l == "other" || labels[l] {
				t.Fatalf("question %d option %d: label %q", i, j, o.Label)
			}
			labels[l] = true
		}
	}
	for k, v := range in.Answers {
		if !keys[k] || strings.TrimSpace(v) == "" {
			t.Fatalf("preset answer %q: %q", k, v)
		}
	}
}
