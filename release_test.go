package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReleaseConfig keeps the release builds what README promises: three
// systems on two architectures, static, reproducible, stamped with the
// version, with checksums and zip archives on Windows, man pages and
// completions made at release time in every archive, and Homebrew and
// Scoop manifests. "goreleaser check" validates the file itself, and the
// heavy suite builds a snapshot (e2e/release_test.go); goreleaser is too
// big a tool to build in every CI run.
func TestReleaseConfig(t *testing.T) {
	b, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`(?m)^version: 2$`,
		`goos: \[linux, darwin, windows\]`,
		`goarch: \[amd64, arm64\]`,
		`CGO_ENABLED=0`,
		`- -trimpath`,
		`- -s -w`,
		`-X main\.version=\{\{\.Version\}\}`,
		`-X main\.commit=\{\{\.FullCommit\}\}`,
		`-X main\.date=\{\{\.CommitDate\}\}`,
		`mod_timestamp: "\{\{ \.CommitTimestamp \}\}"`,
		`name_template: checksums\.txt`,
		`(?s)format_overrides:\s+- goos: windows\s+formats: \[zip\]`,
		`(?m)^    - go run \./scripts/gendocs -release build/release -version \{\{ \.Version \}\} -date \{\{ \.CommitTimestamp \}\}$`,
		`(?s)- src: build/release/man/askuser\*\.1\s+dst: man\s+strip_parent: true`,
		`(?s)- src: build/release/completions/askuser\.\*\s+dst: completions\s+strip_parent: true`,
		`(?s)homebrew_casks:.*repository:\s+owner: askuser\s+name: homebrew-tap`,
		`(?s)completions:\s+bash: completions/askuser\.bash\s+zsh: completions/askuser\.zsh\s+fish: completions/askuser\.fish`,
		`(?s)scoops:.*repository:\s+owner: askuser\s+name: scoop-bucket`,
	} {
		if !regexp.MustCompile(want).Match(b) {
			t.Errorf(".goreleaser.yaml lacks %s", want)
		}
	}
}

// TestReleaseCaskManPages keeps the Homebrew cask installing the man page
// of every command: it lists them one by one.
func TestReleaseCaskManPages(t *testing.T) {
	b, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)\n    manpages:\n((?:      - [^\n]+\n)+)`).FindSubmatch(b)
	if block == nil {
		t.Fatal(".goreleaser.yaml's cask lists no manpages")
	}
	var listed []string
	for _, line := range strings.Split(strings.TrimSpace(string(block[1])), "\n") {
		listed = append(listed, strings.TrimPrefix(strings.TrimSpace(line), "- "))
	}
	var want []string
	pages, _ := filepath.Glob("docs/commands/*.md")
	for _, p := range pages {
		want = append(want, "man/"+strings.ReplaceAll(strings.TrimSuffix(filepath.Base(p), ".md"), "_", "-")+".1")
	}
	slices.Sort(listed)
	slices.Sort(want)
	if len(want) == 0 || !slices.Equal(listed, want) {
		t.Errorf("the cask's manpages are\n%v\nwant one per page of docs/commands:\n%v", listed, want)
	}
}
