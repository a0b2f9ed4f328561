package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Compile gives each limit that is not 0 as its keyword in the schema,
// and Check, and Compile, refuse a limit below its Min: the limits an
// asker sends the inbox mean what they meant to the asker.
func TestLimitsCheck(t *testing.T) {
	schemas := Limits{4, 4, 12, 500}
	for _, l := range []Limits{{}, {MaxQuestions: 6}, {MaxOptions: 2}, {HeaderMaxLength: 1}, {QuestionMaxLength: 800}, {1, 9, 40, 1000}} {
		if err := l.Check(); err != nil {
			t.Errorf("Check of %+v: %v", l, err)
		}
		s, err := Compile(embedded(t), l)
		if err != nil {
			t.Fatal(err)
		}
		want := schemas
		for _, f := range AllLimits {
			if n := *l.Field(f); n != 0 {
				*want.Field(f) = n
			}
		}
		if got := s.Limits(); got != want {
			t.Errorf("Compile with %+v: Limits() = %+v, want %+v", l, got, want)
		}
	}
	for _, tt := range []struct {
		l   Limits
		msg string
	}{
		{Limits{MaxOptions: 1}, "the limit maxOptions must be at least 2 (got 1)"},
		{Limits{MaxQuestions: -3}, "the limit maxQuestions must be at least 1 (got -3)"},
		{Limits{HeaderMaxLength: 12, QuestionMaxLength: -1}, "the limit questionMaxLength must be at least 1 (got -1)"},
	} {
		err := tt.l.Check()
		if le, ok := errors.AsType[*LimitError](err); !ok || err.Error() != tt.msg {
			t.Errorf("Check of %+v: err = %v (%+v), want %s", tt.l, err, le, tt.msg)
		}
		if _, err := Compile(embedded(t), tt.l); err == nil || err.Error() != tt.msg {
			t.Errorf("Compile with %+v: err = %v, want %s", tt.l, err, tt.msg)
		}
	}
}

// Each limit names its own field of Limits, and the fields' JSON names.
func TestLimitField(t *testing.T) {
	var ls Limits
	for i, l := range AllLimits {
		*ls.Field(l) = i + 1
	}
	if want := (Limits{1, 2, 3, 4}); ls != want {
		t.Errorf("fields set through Field: %+v, want %+v", ls, want)
	}
	b, err := json.Marshal(ls)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range AllLimits {
		if !strings.Contains(string(b), fmt.Sprintf(`"%s":%d`, l, i+1)) {
			t.Errorf("%s is not the JSON name of its field: %s", l, b)
		}
	}
}

func TestCompileWithoutOverrides(t *testing.T) {
	raw := embedded(t)
	s, err := Compile(raw, Limits{})
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
		set Limits
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
			Limits{MaxQuestions: 2},
			`      "maxItems": 4,`, `      "maxItems": 2,`,
			[2]string{`"description": "1-4 questions for`, `"description": "1-2 questions for`},
			Limits{2, 4, 12, 500},
			doc(q("A?", "A"), q("B?", "B")),
			doc(q("A?", "A"), q("B?", "B"), q("C?", "C")),
			"questions: must have at most 2 items (got 3)",
		},
		{
			Limits{MaxOptions: 5},
			`          "maxItems": 4,`, `          "maxItems": 5,`,
			[2]string{},
			Limits{4, 5, 12, 500},
			doc(qOpts("A?", "A", 5)),
			doc(qOpts("A?", "A", 6)),
			"questions[0].options: must have at most 5 items (got 6)",
		},
		{
			Limits{HeaderMaxLength: 20},
			`          "maxLength": 12`, `          "maxLength": 20`,
			[2]string{},
			Limits{4, 4, 20, 500},
			doc(q("A?", strings.Repeat("h", 20))),
			doc(q("A?", strings.Repeat("h", 21))),
			"questions[0].header: must be at most 20 characters (got 21)",
		},
		{
			Limits{QuestionMaxLength: 10},
			`          "maxLength": 500`, `          "maxLength": 10`,
			[2]string{},
			Limits{4, 4, 12, 10},
			doc(q("Which one?", "A")),
			doc(q("Which ones?", "A")),
			"questions[0].question: must be at most 10 characters (got 11)",
		},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.set), func(t *testing.T) {
			s, err := Compile(raw, tt.set)
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
	if _, err := Compile(raw, Limits{MaxQuestions: 7}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, keep) {
		t.Error("Compile changed the text it was given")
	}
}

func TestSpliceUnknownPointer(t *testing.T) {
	_, err := splice(embedded(t), map[string][]byte{"properties.nothing.maxItems": []byte("3")})
	if err == nil {
		t.Fatal("no error for an override the schema does not have")
	}
}

func TestSpliceLayout(t *testing.T) {
	raw := []byte("{\n  \"a\": {\"max\":  12 , \"b\": [1, {\"max\": 2}]},\n  \"c\":3\n}\n")
	got, err := splice(raw, map[string][]byte{"a.max": []byte("150"), "c": []byte("7")})
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
		max  int
		want string
	}{
		{0, `"description": "1-4 questions for the person at the keyboard: multiple-choice (an \"Other\" choice`},
		{9, `"description": "1-9 questions for the person at the keyboard: multiple-choice (an \"Other\" choice`},
		{1, `"description": "1 question for the person at the keyboard: multiple-choice (an \"Other\" choice`},
	} {
		s, err := Compile(raw, Limits{MaxQuestions: tt.max, MaxOptions: 6})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(s.Bytes()), tt.want) {
			t.Errorf("maxQuestions %d: the schema does not say\n%s\n%s", tt.max, tt.want, firstLines(s.Bytes(), 5))
		}
	}
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
