package tui

import (
	"slices"
	"testing"
)

// A preview is shown without the blank lines around it, nor the spaces
// that end its lines; the indentation of its first line stays.
func TestPreviewLines(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"\n \n  code\n  more  \n\n \n", []string{"  code", "  more"}},
		{"one\n\ntwo", []string{"one", "", "two"}},
		{"\tx", []string{"    x"}},
		{"", nil},
		{" \n \n", nil},
	}
	for _, tt := range tests {
		if got := previewLines(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("previewLines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
