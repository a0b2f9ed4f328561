package tui

import (
	"strings"
	"testing"
)

func TestFrameCrop(t *testing.T) {
	tests := []struct {
		focus, h  int
		want      string
		wantFocus int
	}{
		{focus: 5, h: 3, want: "a e f", wantFocus: 2},
		{focus: 6, h: 3, want: "a f g", wantFocus: 2},
		{focus: 1, h: 4, want: "a b c d", wantFocus: 1},
		{focus: 3, h: 1, want: "d", wantFocus: 0},
		{focus: 3, h: 9, want: "a b c d e f g", wantFocus: 3},
	}
	for _, tt := range tests {
		f := frame{lines: strings.Fields("a b c d e f g"), focus: tt.focus}
		got := f.crop(tt.h)
		if strings.Join(got.lines, " ") != tt.want || got.focus != tt.wantFocus {
			t.Errorf("crop(focus %d, %d) = %q focus %d, want %q focus %d", tt.focus, tt.h, got.lines, got.focus, tt.want, tt.wantFocus)
		}
	}
}
