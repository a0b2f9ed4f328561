package cmd

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra/doc"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/ from the commands")

// TestGeneratedDocs keeps docs/ the output of the commands themselves: the
// agent guide is what "askuser docs" prints, and the command pages are
// cobra's. Run "go test ./cmd -run TestGeneratedDocs -update" after changing
// a command.
func TestGeneratedDocs(t *testing.T) {
	env := testEnv(t)
	want := map[string][]byte{}

	var guide bytes.Buffer
	sch, err := loadSchema(env)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeDocs(&guide, sch.Limits()); err != nil {
		t.Fatal(err)
	}
	want["agents.md"] = guide.Bytes()

	root := NewRootCmd(env)
	root.DisableAutoGenTag = true
	tmp := t.TempDir()
	if err := doc.GenMarkdownTree(root, tmp); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(tmp, "*.md"))
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want[filepath.Join("commands", filepath.Base(p))] = b
	}

	if *updateDocs {
		os.RemoveAll("../docs/commands")
		for name, b := range want {
			path := filepath.Join("../docs", name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, b := range want {
		got, err := os.ReadFile(filepath.Join("../docs", name))
		if err != nil {
			t.Errorf("docs/%s: %v (run go test ./cmd -run TestGeneratedDocs -update)", name, err)
			continue
		}
		if !bytes.Equal(got, b) {
			t.Errorf("docs/%s is out of date (run go test ./cmd -run TestGeneratedDocs -update)", name)
		}
	}
	have, _ := filepath.Glob("../docs/commands/*.md")
	for _, p := range have {
		if _, ok := want[filepath.Join("commands", filepath.Base(p))]; !ok {
			t.Errorf("docs/commands/%s documents no command; remove it", filepath.Base(p))
		}
	}
}
