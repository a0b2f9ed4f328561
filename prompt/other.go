package prompt

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxOtherLength is the longest answer of the person's own, in characters.
// It is generous for an answer to a question and keeps the output a size an
// agent can take in.
const MaxOtherLength = 2000

// CleanOther makes the person's own answer fit to pass on: control
// characters and invalid bytes are dropped, except that tabs and line breaks
// become spaces, and surrounding space is trimmed. It also returns a problem
// to show instead when nothing is left or the answer is longer than
// MaxOtherLength; the answer is not to be used then.
func CleanOther(s string) (clean, problem string) {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && isInvalidAt(s, i):
		case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f':
			b.WriteByte(' ')
		case unicode.IsControl(r):
		default:
			b.WriteRune(r)
		}
	}
	clean = strings.TrimSpace(b.String())
	switch n := utf8.RuneCountInString(clean); {
	case n == 0:
		return "", "Type your own answer, or choose one of the options."
	case n > MaxOtherLength:
		return clean, fmt.Sprintf("Your answer is too long: at most %d characters (got %d).", MaxOtherLength, n)
	}
	return clean, ""
}

// isInvalidAt reports whether the utf8.RuneError decoded at s[i] stands for
// an invalid byte rather than a U+FFFD written in the text.
func isInvalidAt(s string, i int) bool {
	_, size := utf8.DecodeRuneInString(s[i:])
	return size == 1
}
