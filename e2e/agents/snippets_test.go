//go:build heavy

package agents

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// readme is the page where the set-up snippets live, each a fenced block under a
// line <!-- setup: NAME -->.
const readme = "../../docs/setup.md"

// snippets are docs/setup.md's set-up snippets by name, read by TestMain.
var snippets map[string]string

var setupMark = regexp.MustCompile(`^<!-- setup: ([a-z-]+) -->$`)

// readSnippets reads the fenced block that follows each setup mark.
func readSnippets(name string) (map[string]string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	found := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		m := setupMark.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if !sc.Scan() || !strings.HasPrefix(sc.Text(), "```") {
			return nil, fmt.Errorf("%s: no fenced block right after the mark of %q", name, m[1])
		}
		var body strings.Builder
		for sc.Scan() && sc.Text() != "```" {
			body.WriteString(sc.Text() + "\n")
		}
		if _, dup := found[m[1]]; dup {
			return nil, fmt.Errorf("%s: two snippets named %q", name, m[1])
		}
		found[m[1]] = body.String()
	}
	return found, sc.Err()
}

// snippet is docs/setup.md's snippet called name.
func snippet(t *testing.T, name string) string {
	t.Helper()
	s, ok := snippets[name]
	if !ok {
		t.Fatalf("docs/setup.md has no snippet marked <!-- setup: %s -->", name)
	}
	return s
}

// snippetJSON is docs/setup.md's JSON snippet called name, decoded.
func snippetJSON(t *testing.T, name string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(snippet(t, name)), &v); err != nil {
		t.Fatalf("docs/setup.md's %s snippet is not JSON: %v", name, err)
	}
	return v
}

// exports reads the export NAME=VALUE lines of a shell snippet.
func exports(t *testing.T, name string) []string {
	t.Helper()
	var env []string
	for _, line := range strings.Split(strings.TrimSpace(snippet(t, name)), "\n") {
		kv, ok := strings.CutPrefix(line, "export ")
		if !ok || !strings.Contains(kv, "=") {
			t.Fatalf("docs/setup.md's %s snippet: %q is not export NAME=VALUE", name, line)
		}
		env = append(env, kv)
	}
	return env
}
