package schema

import (
	"reflect"
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
		if got := suggest(tt.name, tt.allowed); got != tt.want {
			t.Errorf("suggest(%q, %q) = %q, want %q", tt.name, tt.allowed, got, tt.want)
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

func TestParseKeyBy(t *testing.T) {
	for _, s := range []string{"header", "question"} {
		if k, err := ParseKeyBy(s); err != nil || string(k) != s {
			t.Errorf("ParseKeyBy(%q) = %q, %v", s, k, err)
		}
	}
	for _, s := range []string{"", "Header", "label", "questions"} {
		if _, err := ParseKeyBy(s); err == nil {
			t.Errorf("ParseKeyBy(%q): no error", s)
		}
	}
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
