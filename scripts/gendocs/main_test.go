package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDocsUpToDate keeps docs/ the output of the commands themselves: the
// agent guide is what "askuser docs" prints, and the command pages are
// cobra's.
func TestDocsUpToDate(t *testing.T) {
	raw, err := os.ReadFile("../../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := generate(raw, "../../docs")
	if err != nil {
		t.Fatal(err)
	}
	const fix = "run go generate ./cmd"
	for name, b := range want {
		got, err := os.ReadFile(filepath.Join("../../docs", filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("docs/%s: %v (%s)", name, err, fix)
			continue
		}
		if !bytes.Equal(got, b) {
			t.Errorf("docs/%s is out of date (%s)", name, fix)
		}
	}
	have, _ := filepath.Glob("../../docs/commands/*.md")
	for _, p := range have {
		if _, ok := want["commands/"+filepath.Base(p)]; !ok {
			t.Errorf("docs/commands/%s documents no command (%s)", filepath.Base(p), fix)
		}
	}
	if len(want) < 2 {
		t.Errorf("generated only %d files", len(want))
	}
}

// run writes the files that the test compares: a command added to the
// tree gets its page, a page of no command is removed, and the reference
// page's table of variables is written again from the table of settings.
func TestRunWritesEveryPage(t *testing.T) {
	out := t.TempDir()
	stale := filepath.Join(out, "commands", "askuser_gone.md")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	ref, err := os.ReadFile("../../docs/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	before, rest, _ := bytes.Cut(ref, []byte(tableStart))
	_, after, _ := bytes.Cut(rest, []byte(tableEnd))
	old := slices.Concat(before, []byte(tableStart+"| `ASKUSER_GONE` | | | a variable no more |\n"+tableEnd), after)
	if err := os.WriteFile(filepath.Join(out, "reference.md"), old, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run("../../schema.json", out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the page of a command that is gone was kept: %v", err)
	}
	for _, name := range []string{"agents.md", "reference.md", "commands/askuser.md", "commands/askuser_validate.md"} {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Error(err)
			continue
		}
		want, err := os.ReadFile(filepath.Join("../../docs", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s written differs from docs/%s", name, name)
		}
	}
}
