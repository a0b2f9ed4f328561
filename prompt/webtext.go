package prompt

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// webMaxText is the longest answer of the person's own that the page takes,
// in characters: generous for an answer, and a size an agent can take in.
const webMaxText = 2000

// webCleanText makes an answer typed on the page fit to pass on, as a typed
// answer is made fit anywhere: tabs and line breaks become spaces, other
// control characters (C0, DEL, C1) and the bidirectional controls that make
// text read otherwise than it is stored are dropped, and surrounding space
// is trimmed. It also returns a problem to show instead when nothing is
// left or the answer is longer than webMaxText; the answer is not to be
// used then. The form has been checked to be UTF-8.
func webCleanText(s string) (clean, problem string) {
	clean = strings.TrimSpace(strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029:
			return ' '
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || webBidiControl(r):
			return -1
		}
		return r
	}, s))
	switch n := utf8.RuneCountInString(clean); {
	case n == 0:
		return "", "Type your own answer, or choose one of the options."
	case n > webMaxText:
		return clean, fmt.Sprintf("Your answer is too long: at most %d characters (got %d).", webMaxText, n)
	}
	return clean, ""
}

// webBidiControl reports whether r is a Unicode bidirectional control.
func webBidiControl(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
