package tui

import (
	"strings"

	"github.com/askuser/askuser/prompt"
)

// truncate shortens s to at most w columns, ending it with "…" when
// something was cut.
func truncate(s string, w int) string {
	if prompt.Width(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	return strings.TrimRight(prompt.Fit(s, w-1), " ") + "…"
}

// tail keeps the end of s that fits in w columns, at least one, starting
// it with "…" when something was cut. The text prompt uses it so the
// cursor end of a long answer stays visible.
func tail(s string, w int) string {
	if prompt.Width(s) <= w {
		return s
	}
	rs := []rune(s)
	used := 0
	i := len(rs)
	for i > 0 && used+prompt.Width(string(rs[i-1])) <= w-1 {
		i--
		used += prompt.Width(string(rs[i]))
	}
	return "…" + string(rs[i:])
}

// window shows as much of text as fits in w columns with the cursor at
// pos in view, marking a cut at either end with "…", and says which column
// the cursor is at. The cursor itself may be at column w, after the text.
func window(text []rune, pos, w int) (shown string, col int) {
	s, before, after := string(text), string(text[:pos]), string(text[pos:])
	if prompt.Width(s) <= w {
		return s, prompt.Width(before)
	}
	// Keep a little of what follows the cursor in view: at least the
	// character under it, and the "…" after that when more is cut.
	keep := min(prompt.Width(after), max(2, w/4))
	left := tail(before, max(1, w-keep))
	return truncate(left+after, w), prompt.Width(left)
}

// clip keeps at most n lines, all of them when n is negative (as a
// layout says), marking the last kept one with "…" when lines were
// dropped.
func clip(lines []string, n, w int) []string {
	if n < 0 || len(lines) <= n {
		return lines
	}
	if n == 0 {
		return nil
	}
	out := append([]string(nil), lines[:n]...)
	out[n-1] = strings.TrimRight(prompt.Fit(out[n-1], w-1), " ") + "…"
	return out
}
