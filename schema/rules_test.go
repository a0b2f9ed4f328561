package schema

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"header", "header", 0},
		{"multiselect", "multiSelect", 1},
		{"heder", "header", 1},
		{"haeder", "header", 2},
		{"kitten", "sitting", 3},
		{"数据库", "数据", 1},
		{"naïve", "naive", 1},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := distance(tt.b, tt.a); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	question := []string{"question", "header", "options", "multiSelect"}
	option := []string{"label", "description", "preview"}
	root := []string{"questions", "metadata", "answers"}
	tests := []struct {
		name    string
		allowed []string
		want    string
	}{
		{"multiselect", question, "multiSelect"},
		{"multi_select", question, "multiSelect"},
		{"MULTISELECT", question, "multiSelect"},
		{"multiple", question, ""},
		{"headers", question, "header"},
		{"title", question, ""},
		{"option", question, "options"},
		{"choices", question, ""},
		{"desc", option, ""},
		{"descripton", option, "description"},
		{"lable", option, "label"},
		{"previews", option, "preview"},
		{"answer", root, "answers"},
		{"meta", root, ""},
		{"question", root, "questions"},
		{"Databse", []string{"Database", "Region"}, "Database"},
		{"Colour", []string{"Database", "Region"}, ""},
		// Short names: a distance of 2 is a different word, not a typo.
		{"x", []string{"CI"}, ""},
		{"id", []string{"CI", "UI"}, ""},
		{"Cl", []string{"CI"}, "CI"},
		{"anything", nil, ""},
	}
	for _, tt := range tests {
		if got := Suggest(tt.name, tt.allowed); got != tt.want {
			t.Errorf("Suggest(%q, %q) = %q, want %q", tt.name, tt.allowed, got, tt.want)
		}
	}
}

func TestResolve(t *testing.T) {
	single := Question{Options: []Option{{Label: "PostgreSQL (Recommended)"}, {Label: "SQLite"}, {Label: "Yes, please"}}}
	multi := single
	multi.MultiSelect = true
	tests := []struct {
		name   string
		q      Question
		text   string
		labels []string
		other  string
	}{
		{"label", single, "SQLite", []string{"SQLite"}, ""},
		{"label in another case, spaced", single, "  sqlite ", []string{"SQLite"}, ""},
		{"label with a comma", single, "yes, PLEASE", []string{"Yes, please"}, ""},
		{"not a label", single, "MySQL", nil, "MySQL"},
		{"not a label, spaced", single, "  My own  ", nil, "My own"},
		{"several labels in a single-select are text", single, "SQLite, PostgreSQL (Recommended)", nil, "SQLite, PostgreSQL (Recommended)"},
		{"a number is text, not an index", single, "2", nil, "2"},
		{"multi: one label", multi, "postgresql (recommended)", []string{"PostgreSQL (Recommended)"}, ""},
		{"multi: labels in option order", multi, "sqlite, PostgreSQL (Recommended)", []string{"PostgreSQL (Recommended)", "SQLite"}, ""},
		{"multi: label with a comma, whole", multi, "Yes, please", []string{"Yes, please"}, ""},
		{"multi: labels and text", multi, "Redis, SQLite,  , Memcached", []string{"SQLite"}, "Redis, Memcached"},
		{"multi: repeated label", multi, "SQLite, sqlite", []string{"SQLite"}, ""},
		{"multi: only text", multi, "Nothing yet", nil, "Nothing yet"},
		{"multi: label with a comma among others", multi, "SQLite, yes,  please, Redis", []string{"SQLite", "Yes, please"}, "Redis"},
		{"multi: label with a comma first", multi, "Yes, please, sqlite", []string{"SQLite", "Yes, please"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			labels, other := tt.q.Resolve(tt.text)
			if !reflect.DeepEqual(labels, tt.labels) || other != tt.other {
				t.Errorf("Resolve(%q) = %q, %q; want %q, %q", tt.text, labels, other, tt.labels, tt.other)
			}
		})
	}
}

func TestKeyBy(t *testing.T) {
	q := Question{Question: "Which?", Header: "H"}
	if KeyHeader.Key(q) != "H" || KeyQuestion.Key(q) != "Which?" {
		t.Error("Key does not pick the field")
	}
}

func TestRecommended(t *testing.T) {
	for label, want := range map[string]bool{
		"PostgreSQL (Recommended)":  true,
		"PostgreSQL (Recommended) ": true,
		"PostgreSQL (recommended)":  false,
		"(Recommended) PostgreSQL":  false,
		"PostgreSQL":                false,
	} {
		if got := (Option{Label: label}).Recommended(); got != want {
			t.Errorf("Recommended(%q) = %v", label, got)
		}
	}
}

// twoQuestions is an input of two single-select questions, "Which
// database?" (Database) and "Which region?" (Region).
var twoQuestions = `{"questions":[` + q("Which database?", "Database") + `,` + q("Which region?", "Region") + `]`

func TestParseKeysPresetsAndNotes(t *testing.T) {
	s := compileDefault(t)
	input := twoQuestions + `,"answers":{"Which database?":"Option 1","Region":"Option 2"},` +
		`"annotations":{"Database":{"notes":" small\u001b data "},"Which region?":{"notes":"near users"}}}`
	for _, tt := range []struct {
		key            KeyBy
		answers, notes map[string]string
	}{
		{KeyHeader,
			map[string]string{"Database": "Option 1", "Region": "Option 2"},
			map[string]string{"Database": "small data", "Region": "near users"}},
		{KeyQuestion,
			map[string]string{"Which database?": "Option 1", "Which region?": "Option 2"},
			map[string]string{"Which database?": "small data", "Which region?": "near users"}},
	} {
		in, err := s.Parse([]byte(input), tt.key)
		if err != nil {
			t.Fatalf("--key %s: %v", tt.key, err)
		}
		if !reflect.DeepEqual(in.Answers, tt.answers) || !reflect.DeepEqual(in.Annotations, tt.notes) {
			t.Errorf("--key %s: answers %q, notes %q; want %q, %q", tt.key, in.Answers, in.Annotations, tt.answers, tt.notes)
		}
	}
	// Notes are checked as typed answers are.
	got := problems(t, s, twoQuestions+`,"annotations":{"Database":{"notes":"`+strings.Repeat("n", MaxOtherLength+1)+`"},"Region":{"notes":"\u00a0"}}}`, KeyHeader)
	want := []string{
		"annotations.Database.notes: must be at most 2000 characters (got 2001)",
		"annotations.Region.notes: must not be blank",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
	// Without notes, there are no annotations.
	in, err := s.Parse([]byte(twoQuestions+`}`), KeyHeader)
	if err != nil || in.Annotations != nil || in.Answers != nil {
		t.Errorf("no presets: %v, %v, %v", err, in.Answers, in.Annotations)
	}
}

func TestAddPresets(t *testing.T) {
	s := compileDefault(t)
	long := strings.Repeat("x", MaxOtherLength+1)
	tests := []struct {
		name    string
		own     string // the input's own answers
		key     KeyBy
		presets map[string]string
		want    map[string]string
		errs    []string
	}{
		{"by header", "", KeyHeader, map[string]string{"Database": "Option 1"},
			map[string]string{"Database": "Option 1"}, nil},
		{"by question text", "", KeyHeader, map[string]string{"Which database?": "Option 1", "Region": "Option 2"},
			map[string]string{"Database": "Option 1", "Region": "Option 2"}, nil},
		{"keyed as --key question says", "", KeyQuestion, map[string]string{"Database": "Option 1", "Which region?": "x"},
			map[string]string{"Which database?": "Option 1", "Which region?": "x"}, nil},
		{"unknown keys are refused as in the input", "", KeyHeader, map[string]string{"Databse": "Option 1", "Colour": "red", "": "x"}, nil,
			[]string{`ASKUSER_ANSWERS[""]: no question has this header or question text`,
				"ASKUSER_ANSWERS.Colour: no question has this header or question text",
				`ASKUSER_ANSWERS.Databse: no question has this header or question text; did you mean "Database"?`}},
		{"the input's own answer wins, however either is keyed", `"Which database?":"Option 2"`, KeyHeader,
			map[string]string{"Database": "Option 1", "Which region?": "Option 1"},
			map[string]string{"Database": "Option 2", "Region": "Option 1"}, nil},
		{"one question named twice", "", KeyHeader, map[string]string{"Database": "Option 1", "Which database?": "Option 2"}, nil,
			[]string{`ASKUSER_ANSWERS["Which database?"]: names the same question as ASKUSER_ANSWERS.Database; keep one of the two`}},
		{"blank and refused", "", KeyHeader, map[string]string{"Database": "\u3000", "Which region?": long}, nil,
			[]string{"ASKUSER_ANSWERS.Database: must not be blank", `ASKUSER_ANSWERS["Which region?"]: must be at most 2000 characters (got 2001)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := twoQuestions + `}`
			if tt.own != "" {
				input = twoQuestions + `,"answers":{` + tt.own + `}}`
			}
			in, err := s.Parse([]byte(input), tt.key)
			if err != nil {
				t.Fatal(err)
			}
			err = in.AddPresets("ASKUSER_ANSWERS", tt.presets, tt.key)
			if tt.errs != nil {
				ve, ok := errors.AsType[*ValidationError](err)
				if !ok {
					t.Fatalf("err = %v, want a *ValidationError", err)
				}
				var got []string
				for _, p := range ve.Problems {
					got = append(got, p.String())
				}
				if !reflect.DeepEqual(got, tt.errs) {
					t.Errorf("problems %q, want %q", got, tt.errs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(in.Answers, tt.want) {
				t.Errorf("answers %q, want %q", in.Answers, tt.want)
			}
		})
	}
}
