package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/AlecAivazis/survey/v2/terminal"
)

// width is the number of terminal columns s takes; its escape sequences
// (colours) take none. It may overestimate (a combining mark counts as
// one), which only ever truncates early.
func width(s string) int {
	return terminal.StringWidth(s)
}

func runeWidth(r rune) int {
	if r < 0x80 {
		return 1
	}
	return terminal.StringWidth(string(r))
}

// cut returns the longest prefix of s that fits in w columns.
func cut(s string, w int) string {
	used := 0
	for i, r := range s {
		rw := runeWidth(r)
		if used+rw > w {
			return s[:i]
		}
		used += rw
	}
	return s
}

// truncate shortens s to at most w columns, ending it with "…" when
// something was cut.
func truncate(s string, w int) string {
	if width(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	return strings.TrimRight(cut(s, w-1), " ") + "…"
}

// tail keeps the end of s that fits in w columns, starting it with "…"
// when something was cut. The text prompt uses it so the cursor end of a
// long answer stays visible.
func tail(s string, w int) string {
	if width(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	rs := []rune(s)
	used := 0
	i := len(rs)
	for i > 0 && used+runeWidth(rs[i-1]) <= w-1 {
		i--
		used += runeWidth(rs[i])
	}
	return "…" + string(rs[i:])
}

// window shows as much of text as fits in w columns with the cursor at
// pos in view, marking a cut at either end with "…", and says which column
// the cursor is at. The cursor itself may be at column w, after the text.
func window(text []rune, pos, w int) (shown string, col int) {
	s, before, after := string(text), string(text[:pos]), string(text[pos:])
	if width(s) <= w {
		return s, width(before)
	}
	// Keep a little of what follows the cursor in view: at least the
	// character under it, and the "…" after that when more is cut.
	keep := min(width(after), max(2, w/4))
	left := tail(before, max(1, w-keep))
	return truncate(left+after, w), width(left)
}

// Wrap breaks s into lines of at most w columns, at spaces where it can
// and inside words that are longer than a line. Newlines in s start new
// lines.
func Wrap(s string, w int) []string {
	w = max(w, 1)
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line, lineW := "", 0
		for _, word := range strings.Fields(para) {
			ww := width(word)
			switch {
			case lineW > 0 && lineW+1+ww <= w:
				line += " " + word
				lineW += 1 + ww
				continue
			case lineW > 0:
				lines = append(lines, line)
				line, lineW = "", 0
			}
			for ww > w {
				head := cut(word, w)
				if head == "" { // a character wider than the line
					_, size := utf8.DecodeRuneInString(word)
					head = word[:size]
				}
				lines = append(lines, head)
				word = word[len(head):]
				ww = width(word)
			}
			line, lineW = word, ww
		}
		lines = append(lines, line)
	}
	return lines
}

// clip keeps at most n lines, marking the last kept one with "…" when
// lines were dropped.
func clip(lines []string, n, w int) []string {
	if len(lines) <= n {
		return lines
	}
	if n <= 0 {
		return nil
	}
	out := append([]string(nil), lines[:n]...)
	out[n-1] = strings.TrimRight(cut(out[n-1], w-1), " ") + "…"
	return out
}
