package prompt

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// How askuser words what it shows the person, the same way in every view.

// Waited says how long a set of questions has waited, as a person would
// read it: 12s, 3m, 1h5m. Every view of the inbox shows it the same way.
func Waited(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh%dm", int(d.Hours()), int(d.Minutes())%60)
}

// ShortHome returns path with the home directory home written ~, as shells show
// it: where a set of questions comes from reads shorter, and the same
// wherever it is shown.
func ShortHome(path, home string) string {
	home = strings.TrimSuffix(home, "/")
	switch {
	case home == "":
		return path
	case path == home:
		return "~"
	case strings.HasPrefix(path, home+"/"):
		return "~" + path[len(home):]
	}
	return path
}

// Capitalize returns s with its first letter upper case, to start a sentence
// with an error's text.
func Capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s // empty, or not UTF-8
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// Cut returns s in at most n characters (any number when n is 0): when it is
// longer, its end is cut and marked with "…".
func Cut(s string, n int) string {
	if r := []rune(s); n > 0 && len(r) > n {
		return strings.TrimRight(string(r[:n-1]), " ") + "…"
	}
	return s
}
