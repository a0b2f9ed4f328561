package cmd

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestIsWord(t *testing.T) {
	re := regexp.MustCompile(`^[a-z][a-z-]*$`)
	for _, s := range []string{"", "a", "schema", "shcema", "dry-run", "-x", "Schema", "a1", "{}", "a b", "é", "a-", "z-z", "`"} {
		if got, want := isWord(s), re.MatchString(s); got != want {
			t.Errorf("isWord(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestParseKey(t *testing.T) {
	for _, s := range []string{"header", "question"} {
		if k, err := parseKey(s); err != nil || string(k) != s {
			t.Errorf("parseKey(%q) = %q, %v", s, k, err)
		}
	}
	for _, s := range []string{"", "Header", "label", "questions"} {
		want := `invalid --key "` + s + `": must be header or question`
		if _, err := parseKey(s); err == nil || err.Error() != want {
			t.Errorf("parseKey(%q): %v, want %s", s, err, want)
		}
	}
}

// A switch takes what strconv.ParseBool takes, in any case, and yes/no,
// on/off and empty; nothing else.
func TestBoolean(t *testing.T) {
	for _, v := range []string{"1", "t", "T", "true", "TRUE", "True", "tRUE", "yes", "On", " on ", "0", "f", "F", "false", "FALSE", "no", "OFF", "", " "} {
		want := slices.Contains([]string{"1", "t", "true", "yes", "on"}, strings.ToLower(strings.TrimSpace(v)))
		if b, err := strconv.ParseBool(v); err == nil && b != want {
			t.Fatalf("%q: strconv.ParseBool says %v", v, b)
		}
		if got, err := (given{value: v, from: "X"}).boolean(); err != nil || got != want {
			t.Errorf("boolean(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	for _, v := range []string{"2", "y", "n", "maybe", "truee", "of"} {
		want := `invalid X "` + v + `": must be true or false (also 1/0, yes/no, on/off)`
		if _, err := (given{value: v, from: "X"}).boolean(); err == nil || err.Error() != want {
			t.Errorf("boolean(%q): %v, want %s", v, err, want)
		}
	}
}
