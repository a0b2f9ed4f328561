package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeLayout keeps the layout in README's Development section true
// to the tree: every name it lists exists, and every package is listed, so
// that a reader who goes by it finds each room where it says.
func TestReadmeLayout(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)Where things live:\n\n```\n(.*?)```").FindSubmatch(b)
	if block == nil {
		t.Fatal("README.md has no layout under \"Where things live:\"")
	}
	listed := map[string]bool{}
	parent := ""
	for _, line := range strings.Split(string(block[1]), "\n") {
		indented := strings.HasPrefix(line, "  ")
		// The names are the first column: up to a run of two spaces.
		names, _, _ := strings.Cut(strings.TrimSpace(line), "  ")
		if names == "" || (indented && strings.HasPrefix(line, "   ")) {
			continue // a description carried on to the next line
		}
		for _, name := range strings.Fields(names) {
			path := name
			if indented {
				path = parent + name
			} else if strings.HasSuffix(name, "/") {
				parent = name
			}
			path = strings.TrimSuffix(path, "/")
			if _, err := os.Stat(path); err != nil {
				t.Errorf("README lists %s: %v", path, err)
			}
			listed[path] = true
		}
	}
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || path == "." {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if gofiles, _ := filepath.Glob(filepath.Join(path, "*.go")); len(gofiles) > 0 && !listed[filepath.ToSlash(path)] {
			t.Errorf("README's layout does not list the package in %s/", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadmeSetupNPX keeps the npx form beside every MCP snippet of "Set up
// your agent tool": the snippet with its askuser command (the suite in
// e2e/agents runs those as written), then a line giving the same server
// started through npx, for machines without askuser installed.
func TestReadmeSetupNPX(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"claude", "codex", "gemini", "opencode", "qwen", "copilot", "kilo", "crush", "auggie", "cursor", "vscode"} {
		// The snippet holds no backquote, so that the match ends at its fence.
		re := regexp.MustCompile("<!-- setup: " + name + " -->\n```[a-z]*\n([^`]*)```\n\n(With npx: [^\n]*)\n")
		m := re.FindSubmatch(b)
		if m == nil {
			t.Errorf("README: the setup snippet %q is not followed by a \"With npx:\" line", name)
			continue
		}
		snippet, npx := string(m[1]), string(m[2])
		if !strings.Contains(snippet, "askuser") || !strings.Contains(snippet, "mcp") {
			t.Errorf("README: the setup snippet %q does not start askuser mcp:\n%s", name, snippet)
		}
		// The same server: askuser mcp, through npx -y, in the snippet's
		// own syntax (a command line, TOML or JSON; Crush and Auggie take
		// the arguments with --args).
		flat := strings.NewReplacer(`"`, "", ",", "", "[", "", "]", "", "--args ", "").Replace(npx)
		if !strings.Contains(flat, "npx") || !strings.Contains(flat, "-y askuser mcp") {
			t.Errorf("README: %q's npx line does not run npx -y askuser mcp: %s", name, npx)
		}
	}
}
