package tui

import (
	"slices"
	"testing"

	"github.com/askuser/askuser/prompt"
)

func TestTruncate(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want string
	}{
		{"PostgreSQL", 10, "PostgreSQL"},
		{"PostgreSQL", 9, "PostgreS…"},
		{"Postgre SQL", 9, "Postgre…"},
		{"数据库选择", 6, "数据…"},
		{"abc", 0, ""},
	}
	for _, tt := range tests {
		got := truncate(tt.in, tt.w)
		if got != tt.want || prompt.Width(got) > tt.w {
			t.Errorf("truncate(%q, %d) = %q (width %d), want %q", tt.in, tt.w, got, prompt.Width(got), tt.want)
		}
	}
}

func TestTail(t *testing.T) {
	if got, want := tail("hello world", 6), "…world"; got != want {
		t.Errorf("tail = %q, want %q", got, want)
	}
	if got, want := tail("short", 6), "short"; got != want {
		t.Errorf("tail = %q, want %q", got, want)
	}
}

func TestWindow(t *testing.T) {
	tests := []struct {
		text string
		pos  int
		w    int
		want string
		col  int
	}{
		{"hello", 5, 10, "hello", 5},
		{"hello", 2, 10, "hello", 2},
		{"hello world", 11, 6, "…world", 6},
		{"hello world", 0, 6, "hello…", 0},
		{"hello world", 6, 6, "…lo w…", 4},
		{"hello world", 10, 6, "…world", 5},
		{"数据库选择", 5, 6, "…选择", 5},
	}
	for _, tt := range tests {
		got, col := window([]rune(tt.text), tt.pos, tt.w)
		if got != tt.want || col != tt.col {
			t.Errorf("window(%q, %d, %d) = %q, %d; want %q, %d", tt.text, tt.pos, tt.w, got, col, tt.want, tt.col)
		}
		if prompt.Width(got) > tt.w {
			t.Errorf("window(%q, %d, %d) = %q, wider than %d", tt.text, tt.pos, tt.w, got, tt.w)
		}
	}
}

func TestClip(t *testing.T) {
	got := clip([]string{"one", "two", "three"}, 2, 10)
	if want := []string{"one", "two…"}; !slices.Equal(got, want) {
		t.Errorf("clip = %q, want %q", got, want)
	}
	got = clip([]string{"0123456789", "x"}, 1, 10)
	if want := []string{"012345678…"}; !slices.Equal(got, want) {
		t.Errorf("clip = %q, want %q", got, want)
	}
	got = clip([]string{"one", "two", "three"}, -1, 10)
	if want := []string{"one", "two", "three"}; !slices.Equal(got, want) {
		t.Errorf("clip with no limit = %q, want %q", got, want)
	}
	if got = clip([]string{"one"}, 0, 10); len(got) != 0 {
		t.Errorf("clip to no lines = %q, want none", got)
	}
}
