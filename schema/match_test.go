package schema

import "testing"

func TestChoice(t *testing.T) {
	q := Question{Options: []Option{{Label: "PostgreSQL (Recommended)"}, {Label: " SQLite "}, {Label: "Yes, with tests"}}}
	for _, tc := range []struct {
		s     string
		index int
		ok    bool
	}{
		{"1", 0, true},
		{"3", 2, true},
		{"0", -1, true},
		{"4", 0, false},
		{"-1", 0, false},
		{"other", -1, true},
		{"OTHER", -1, true},
		{"sqlite", 1, true}, // the label's own spaces do not count
		{"postgresql (recommended)", 0, true},
		{"yes, with tests", 2, true},
		{"postgresql", 0, false},
		{" sqlite", 0, false}, // the caller trims what was typed
		{"", 0, false},
	} {
		if index, ok := q.Choice(tc.s); index != tc.index || ok != tc.ok {
			t.Errorf("Choice(%q) = %d, %v; want %d, %v", tc.s, index, ok, tc.index, tc.ok)
		}
	}
}

// Choice and Resolve, which presets go through, agree on what names an
// option.
func TestChoiceAgreesWithResolve(t *testing.T) {
	q := Question{Options: []Option{{Label: "Alpha"}, {Label: "Beta, Gamma"}}}
	for _, s := range []string{"alpha", "ALPHA", "beta, gamma", "Beta,Gamma", "delta"} {
		j, ok := q.Choice(s)
		labels, _ := q.Resolve(s)
		if ok != (len(labels) == 1) || ok && labels[0] != q.Options[j].Label {
			t.Errorf("%q: Choice says %d, %v; Resolve says %q", s, j, ok, labels)
		}
	}
}
