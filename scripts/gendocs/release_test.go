package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runRelease writes a man page for every command that docs/commands
// documents, dated and versioned as asked, with the command lines whole,
// and the completion scripts that "askuser completion" prints; and it
// leaves nothing of an earlier run behind.
func TestRunReleaseWritesManPagesAndCompletions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "release")
	stale := filepath.Join(dir, "man", "askuser-gone.1")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := runRelease("../../schema.json", dir, "1.2.3", 1700000000); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the page of an earlier run was kept: %v", err)
	}

	pages, _ := filepath.Glob("../../docs/commands/*.md")
	if len(pages) < 2 {
		t.Fatalf("docs/commands holds %d pages", len(pages))
	}
	for _, md := range pages {
		name := strings.ReplaceAll(strings.TrimSuffix(filepath.Base(md), ".md"), "_", "-") + ".1"
		b, err := os.ReadFile(filepath.Join(dir, "man", name))
		if err != nil {
			t.Errorf("no man page for %s: %v", filepath.Base(md), err)
			continue
		}
		title := strings.ToUpper(strings.TrimSuffix(name, ".1"))
		if head := `.TH "` + title + `" "1" "Nov 2023" "askuser 1.2.3" "askuser manual"`; !bytes.Contains(b, []byte(head)) {
			t.Errorf("man/%s lacks the header %s:\n%.300s", name, head, b)
		}
	}
	root, err := os.ReadFile(filepath.Join(dir, "man", "askuser.1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`\fBaskuser [flags] ['<json>']\fP`, `{"answers":{"<header>":"<label>",...}}`} {
		if !bytes.Contains(root, []byte(want)) {
			t.Errorf("man/askuser.1 lacks %s", want)
		}
	}

	for shell, name := range map[string]string{"bash": "askuser.bash", "zsh": "askuser.zsh", "fish": "askuser.fish"} {
		got, err := os.ReadFile(filepath.Join(dir, "completions", name))
		if err != nil {
			t.Error(err)
			continue
		}
		want, err := output(mustRead(t, "../../schema.json"), "completion", shell)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 || !bytes.Equal(got, want) {
			t.Errorf("completions/%s differs from askuser completion %s", name, shell)
		}
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
