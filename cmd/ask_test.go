package cmd

import (
	"regexp"
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
