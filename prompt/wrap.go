package prompt

import (
	"strings"
	"unicode/utf8"

	"github.com/AlecAivazis/survey/v2/terminal"
)

// The columns text takes on a terminal, and text broken to fit them: the
// terminal UI lays out its screens with them, and the command line its
// help.

// Width counts the terminal columns s takes; its escape sequences
// (colours) take none. It may overestimate (a combining mark counts as
// one), which only ever truncates early.
func Width(s string) int {
	return terminal.StringWidth(s)
}

// Fit returns the longest prefix of s that fits in w columns.
func Fit(s string, w int) string {
	used := 0
	for i, r := range s {
		rw := Width(string(r))
		if used+rw > w {
			return s[:i]
		}
		used += rw
	}
	return s
}

// Wrap breaks s into lines of at most w columns, at spaces where it can
// and inside words that are longer than a line. Newlines in s start new
// lines.
func Wrap(s string, w int) []string {
	w = max(w, 1)
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			if line != "" && Width(line)+1+Width(word) <= w {
				line += " " + word
				continue
			}
			if line != "" {
				lines = append(lines, line)
			}
			for Width(word) > w {
				head := Fit(word, w)
				if head == "" { // a character wider than the line
					_, size := utf8.DecodeRuneInString(word)
					head = word[:size]
				}
				lines = append(lines, head)
				word = word[len(head):]
			}
			line = word
		}
		lines = append(lines, line)
	}
	return lines
}
