package prompt

import (
	"slices"
	"testing"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want []string
	}{
		{"one two three", 7, []string{"one two", "three"}},
		{"one two three", 80, []string{"one two three"}},
		{"abcdefghij kl", 4, []string{"abcd", "efgh", "ij", "kl"}},
		{"first\n\nthird", 10, []string{"first", "", "third"}},
		{"宽字符很宽", 4, []string{"宽字", "符很", "宽"}},
		{"", 5, []string{""}},
	}
	for _, tt := range tests {
		got := Wrap(tt.in, tt.w)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
		for _, l := range got {
			if Width(l) > tt.w {
				t.Errorf("Wrap(%q, %d): line %q is %d wide", tt.in, tt.w, l, Width(l))
			}
		}
	}
}
