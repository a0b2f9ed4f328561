package schema

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestOverridesFromEnv(t *testing.T) {
	tests := []struct {
		name string
		vars map[string]string
		want Overrides
	}{
		{"unset", nil, Overrides{}},
		{"empty", map[string]string{"ASKUSER_MAX_QUESTIONS": ""}, Overrides{}},
		{"blank", map[string]string{"ASKUSER_MAX_QUESTIONS": "  "}, Overrides{}},
		{"questions", map[string]string{"ASKUSER_MAX_QUESTIONS": "6"},
			Overrides{"/properties/questions/maxItems": 6}},
		{"options", map[string]string{"ASKUSER_MAX_OPTIONS": "2"},
			Overrides{"/$defs/question/properties/options/maxItems": 2}},
		{"header", map[string]string{"ASKUSER_HEADER_MAX_LENGTH": "1"},
			Overrides{"/$defs/question/properties/header/maxLength": 1}},
		{"question, spaces around", map[string]string{"ASKUSER_QUESTION_MAX_LENGTH": " 800\n"},
			Overrides{"/$defs/question/properties/question/maxLength": 800}},
		{"all", map[string]string{
			"ASKUSER_MAX_QUESTIONS": "1", "ASKUSER_MAX_OPTIONS": "9",
			"ASKUSER_HEADER_MAX_LENGTH": "40", "ASKUSER_QUESTION_MAX_LENGTH": "1000",
		}, Overrides{
			"/properties/questions/maxItems":                1,
			"/$defs/question/properties/options/maxItems":   9,
			"/$defs/question/properties/header/maxLength":   40,
			"/$defs/question/properties/question/maxLength": 1000,
		}},
		{"older names", map[string]string{
			"ASK_MAX_QUESTIONS": "2", "ASK_MAX_OPTIONS": "3",
			"ASK_HEADER_MAX_LENGTH": "20", "ASK_QUESTION_MAX_LENGTH": " 700",
		}, Overrides{
			"/properties/questions/maxItems":                2,
			"/$defs/question/properties/options/maxItems":   3,
			"/$defs/question/properties/header/maxLength":   20,
			"/$defs/question/properties/question/maxLength": 700,
		}},
		{"both names, one number", map[string]string{"ASKUSER_MAX_OPTIONS": "6", "ASK_MAX_OPTIONS": " 6 "},
			Overrides{"/$defs/question/properties/options/maxItems": 6}},
		{"both names, older one empty", map[string]string{"ASKUSER_MAX_OPTIONS": "6", "ASK_MAX_OPTIONS": ""},
			Overrides{"/$defs/question/properties/options/maxItems": 6}},
		{"both names, newer one empty", map[string]string{"ASKUSER_MAX_OPTIONS": "", "ASK_MAX_OPTIONS": "5"},
			Overrides{"/$defs/question/properties/options/maxItems": 5}},
		{"each name for another limit", map[string]string{"ASKUSER_MAX_QUESTIONS": "3", "ASK_MAX_OPTIONS": "5"},
			Overrides{"/properties/questions/maxItems": 3, "/$defs/question/properties/options/maxItems": 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := OverridesFromEnv(env(tt.vars))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %d, want %d", k, got[k], v)
				}
			}
		})
	}
}

func TestOverridesFromEnvBad(t *testing.T) {
	tests := []struct {
		env, value string
		min        int
		msg        string
	}{
		{"ASKUSER_MAX_QUESTIONS", "abc", 1, `ASKUSER_MAX_QUESTIONS must be a positive integer (got "abc")`},
		{"ASKUSER_MAX_QUESTIONS", "0", 1, `ASKUSER_MAX_QUESTIONS must be a positive integer (got "0")`},
		{"ASKUSER_MAX_QUESTIONS", "-2", 1, `ASKUSER_MAX_QUESTIONS must be a positive integer (got "-2")`},
		{"ASKUSER_MAX_QUESTIONS", "1.5", 1, `ASKUSER_MAX_QUESTIONS must be a positive integer (got "1.5")`},
		{"ASKUSER_MAX_QUESTIONS", "4x", 1, `ASKUSER_MAX_QUESTIONS must be a positive integer (got "4x")`},
		{"ASKUSER_MAX_OPTIONS", "1", 2, `ASKUSER_MAX_OPTIONS must be an integer of at least 2 (got "1")`},
		{"ASKUSER_MAX_OPTIONS", "abc", 2, `ASKUSER_MAX_OPTIONS must be an integer of at least 2 (got "abc")`},
		{"ASKUSER_HEADER_MAX_LENGTH", "0", 1, `ASKUSER_HEADER_MAX_LENGTH must be a positive integer (got "0")`},
		{"ASKUSER_QUESTION_MAX_LENGTH", "abc", 1, `ASKUSER_QUESTION_MAX_LENGTH must be a positive integer (got "abc")`},
		{"ASKUSER_QUESTION_MAX_LENGTH", " 0 ", 1, `ASKUSER_QUESTION_MAX_LENGTH must be a positive integer (got " 0 ")`},
		// The older names are checked alike, and the error names the
		// variable that is set.
		{"ASK_MAX_QUESTIONS", "abc", 1, `ASK_MAX_QUESTIONS must be a positive integer (got "abc")`},
		{"ASK_MAX_OPTIONS", "1", 2, `ASK_MAX_OPTIONS must be an integer of at least 2 (got "1")`},
		{"ASK_HEADER_MAX_LENGTH", "0", 1, `ASK_HEADER_MAX_LENGTH must be a positive integer (got "0")`},
		{"ASK_QUESTION_MAX_LENGTH", " 0 ", 1, `ASK_QUESTION_MAX_LENGTH must be a positive integer (got " 0 ")`},
	}
	for _, tt := range tests {
		t.Run(tt.env+"="+tt.value, func(t *testing.T) {
			_, err := OverridesFromEnv(env(map[string]string{tt.env: tt.value}))
			le, ok := errors.AsType[*LimitError](err)
			if !ok {
				t.Fatalf("err = %v, want a *LimitError", err)
			}
			if le.Env != tt.env || le.Value != tt.value || le.Min != tt.min {
				t.Errorf("got %+v", le)
			}
			if err.Error() != tt.msg {
				t.Errorf("message\n got %s\nwant %s", err, tt.msg)
			}
		})
	}
}

// A limit set to two numbers under its two names is refused, whichever is
// valid: taking either would ignore the other setting without a word.
func TestLimitsFromEnvBothNamesDisagree(t *testing.T) {
	tests := []struct {
		vars map[string]string
		msg  string
	}{
		{map[string]string{"ASKUSER_MAX_OPTIONS": "6", "ASK_MAX_OPTIONS": "5"},
			"ASKUSER_MAX_OPTIONS=6 and ASK_MAX_OPTIONS=5 disagree: ASK_MAX_OPTIONS is the older name of ASKUSER_MAX_OPTIONS; unset it or give both the same value"},
		{map[string]string{"ASKUSER_QUESTION_MAX_LENGTH": " 800 ", "ASK_QUESTION_MAX_LENGTH": "80"},
			"ASKUSER_QUESTION_MAX_LENGTH=800 and ASK_QUESTION_MAX_LENGTH=80 disagree: ASK_QUESTION_MAX_LENGTH is the older name of ASKUSER_QUESTION_MAX_LENGTH; unset it or give both the same value"},
		{map[string]string{"ASKUSER_MAX_QUESTIONS": "6", "ASK_MAX_QUESTIONS": "0"},
			`ASK_MAX_QUESTIONS must be a positive integer (got "0")`},
	}
	for _, tt := range tests {
		l, err := LimitsFromEnv(env(tt.vars))
		_, ok := errors.AsType[*LimitError](err)
		if !ok {
			t.Fatalf("%v: err = %v, limits %+v, want a *LimitError", tt.vars, err, l)
		}
		if err.Error() != tt.msg {
			t.Errorf("message\n got %s\nwant %s", err, tt.msg)
		}
		if _, err := OverridesFromEnv(env(tt.vars)); err == nil || err.Error() != tt.msg {
			t.Errorf("OverridesFromEnv: err = %v, want %s", err, tt.msg)
		}
	}
}

// LimitsFromEnv fills each limit from its variable, and leaves 0 for the
// schema's own; Overrides turns them back into the same overrides as the
// variables give, so the limits an asker sends the inbox mean what they
// meant to the asker.
func TestLimitsFromEnvAndOverrides(t *testing.T) {
	vars := map[string]string{"ASKUSER_MAX_QUESTIONS": "7", "ASK_HEADER_MAX_LENGTH": "30"}
	l, err := LimitsFromEnv(env(vars))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Limits{MaxQuestions: 7, HeaderMaxLength: 30}); l != want {
		t.Fatalf("LimitsFromEnv = %+v, want %+v", l, want)
	}
	o, err := l.Overrides()
	if err != nil {
		t.Fatal(err)
	}
	fromEnv, _ := OverridesFromEnv(env(vars))
	if len(o) != 2 || len(fromEnv) != 2 || o["/properties/questions/maxItems"] != 7 ||
		o["/$defs/question/properties/header/maxLength"] != 30 || fromEnv["/properties/questions/maxItems"] != 7 {
		t.Errorf("Overrides() = %v, OverridesFromEnv = %v", o, fromEnv)
	}
	_, err = Limits{MaxOptions: 1}.Overrides()
	if err == nil || err.Error() != `ASKUSER_MAX_OPTIONS must be an integer of at least 2 (got "1")` {
		t.Errorf("Overrides of MaxOptions 1: err = %v", err)
	}
	if _, err := (Limits{MaxQuestions: -3}).Overrides(); err == nil {
		t.Error("Overrides of MaxQuestions -3: no error")
	}
}

func TestCompileWithoutOverrides(t *testing.T) {
	raw := embedded(t)
	s, err := Compile(raw, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(s.Bytes(), raw) {
		t.Error("Bytes() differs from the schema text")
	}
	want := Limits{MaxQuestions: 4, MaxOptions: 4, HeaderMaxLength: 12, QuestionMaxLength: 500}
	if got := s.Limits(); got != want {
		t.Errorf("Limits() = %+v, want %+v", got, want)
	}
}

// TestCompileOverrides checks each variable: the limit in effect, the
// schema text (the same layout, with only the one number changed, and
// the description that names it), and validation at the new limit.
func TestCompileOverrides(t *testing.T) {
	raw := embedded(t)
	tests := []struct {
		env, value string
		// old and new are the schema line before and after.
		old, new string
		// also is a text that changes with the limit, before and after.
		also   [2]string
		limits Limits
		// valid is at the new limit; invalid is one past it.
		valid, invalid string
		problem        string
	}{
		{
			"ASKUSER_MAX_QUESTIONS", "2",
			`      "maxItems": 4,`, `      "maxItems": 2,`,
			[2]string{`"description": "1-4 questions for`, `"description": "1-2 questions for`},
			Limits{2, 4, 12, 500},
			doc(q("A?", "A"), q("B?", "B")),
			doc(q("A?", "A"), q("B?", "B"), q("C?", "C")),
			"questions: must have at most 2 items (got 3)",
		},
		{
			"ASKUSER_MAX_OPTIONS", "5",
			`          "maxItems": 4,`, `          "maxItems": 5,`,
			[2]string{},
			Limits{4, 5, 12, 500},
			doc(qOpts("A?", "A", 5)),
			doc(qOpts("A?", "A", 6)),
			"questions[0].options: must have at most 5 items (got 6)",
		},
		{
			"ASKUSER_HEADER_MAX_LENGTH", "20",
			`          "maxLength": 12`, `          "maxLength": 20`,
			[2]string{},
			Limits{4, 4, 20, 500},
			doc(q("A?", strings.Repeat("h", 20))),
			doc(q("A?", strings.Repeat("h", 21))),
			"questions[0].header: must be at most 20 characters (got 21)",
		},
		{
			"ASKUSER_QUESTION_MAX_LENGTH", "10",
			`          "maxLength": 500`, `          "maxLength": 10`,
			[2]string{},
			Limits{4, 4, 12, 10},
			doc(q("Which one?", "A")),
			doc(q("Which ones?", "A")),
			"questions[0].question: must be at most 10 characters (got 11)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.env, func(t *testing.T) {
			o, err := OverridesFromEnv(env(map[string]string{tt.env: tt.value}))
			if err != nil {
				t.Fatal(err)
			}
			s, err := Compile(raw, o)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Limits(); got != tt.limits {
				t.Errorf("Limits() = %+v, want %+v", got, tt.limits)
			}
			if strings.Count(string(raw), "\n"+tt.old+"\n") != 1 {
				t.Fatalf("schema.json has no single line %q", tt.old)
			}
			want := strings.Replace(string(raw), "\n"+tt.old+"\n", "\n"+tt.new+"\n", 1)
			want = strings.Replace(want, tt.also[0], tt.also[1], 1)
			if got := string(s.Bytes()); got != want {
				t.Errorf("Bytes() is not schema.json with %q for %q:\n%s", tt.new, tt.old, got)
			}
			if _, err := s.Parse([]byte(tt.valid), KeyHeader); err != nil {
				t.Errorf("at the limit: %v", err)
			}
			got := problems(t, s, tt.invalid, KeyHeader)
			if len(got) != 1 || got[0] != tt.problem {
				t.Errorf("past the limit: got %q, want %q", got, tt.problem)
			}
		})
	}
}

func TestCompileKeepsTheRawText(t *testing.T) {
	raw := embedded(t)
	keep := bytes.Clone(raw)
	if _, err := Compile(raw, Overrides{"/properties/questions/maxItems": 7}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, keep) {
		t.Error("Compile changed the text it was given")
	}
}

func TestPatchUnknownPointer(t *testing.T) {
	_, err := Compile(embedded(t), Overrides{"/properties/nothing/maxItems": 3})
	if err == nil {
		t.Fatal("no error for an override the schema does not have")
	}
}

func TestPatchLayout(t *testing.T) {
	raw := []byte("{\n  \"a\": {\"max\":  12 , \"b\": [1, {\"max\": 2}]},\n  \"c\":3\n}\n")
	got, err := patch(raw, Overrides{"/a/max": 150, "/c": 7})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": {\"max\":  150 , \"b\": [1, {\"max\": 2}]},\n  \"c\":7\n}\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// The schema's description says how many questions it takes: it follows
// the limit, so that the schema does not contradict its own maxItems.
func TestDescriptionFollowsQuestionLimit(t *testing.T) {
	raw := embedded(t)
	for _, tt := range []struct {
		max  string
		want string
	}{
		{"", `"description": "1-4 questions for the person at the keyboard: multiple-choice (an \"Other\" choice`},
		{"9", `"description": "1-9 questions for the person at the keyboard: multiple-choice (an \"Other\" choice`},
		{"1", `"description": "1 question for the person at the keyboard: multiple-choice (an \"Other\" choice`},
	} {
		o, err := OverridesFromEnv(env(map[string]string{"ASKUSER_MAX_QUESTIONS": tt.max, "ASKUSER_MAX_OPTIONS": "6"}))
		if err != nil {
			t.Fatal(err)
		}
		s, err := Compile(raw, o)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(s.Bytes()), tt.want) {
			t.Errorf("ASKUSER_MAX_QUESTIONS=%q: the schema does not say\n%s\n%s", tt.max, tt.want, firstLines(s.Bytes(), 5))
		}
	}
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
