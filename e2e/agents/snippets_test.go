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

// The snippets give the person a day to answer wherever the agent tool
// has a time limit of its own that they set: Gemini CLI's and Qwen Code's
// MCP timeout (milliseconds), the approval hooks' timeout (seconds, but
// Qwen Code's, which takes a day only in milliseconds).
func TestSnippetsWaitADay(t *testing.T) {
	const day = 24 * 60 * 60
	for name, want := range map[string]float64{"gemini": day * 1000, "qwen": day * 1000} {
		server := snippetJSON(t, name)["mcpServers"].(map[string]any)["askuser"].(map[string]any)
		if got := server["timeout"]; got != want {
			t.Errorf("%s's MCP timeout is %v, want a day, %v ms", name, got, want)
		}
	}
	for name, want := range map[string]float64{"claude-hook": day, "codex-hook": day, "qwen-hook": day * 1000} {
		hook := snippetJSON(t, name)["hooks"].(map[string]any)["PermissionRequest"].([]any)[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
		if hook["command"] != "askuser approve" || hook["timeout"] != want {
			t.Errorf("%s: %v, want askuser approve with a timeout of a day, %v", name, hook, want)
		}
	}
	hook := snippetJSON(t, "copilot-hook")["hooks"].(map[string]any)["permissionRequest"].([]any)[0].(map[string]any)
	if hook["bash"] != "askuser approve" || hook["timeoutSec"] != float64(day) {
		t.Errorf("copilot-hook: %v, want askuser approve with a timeout of a day", hook)
	}
}
