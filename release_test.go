package main

import (
	"os"
	"regexp"
	"testing"
)

// TestReleaseConfig keeps the release builds what README promises: three
// systems on two architectures, static, reproducible, stamped with the
// version, with checksums and zip archives on Windows. "goreleaser check"
// validates the file itself; it is too big a tool to build in every CI run.
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
	} {
		if !regexp.MustCompile(want).Match(b) {
			t.Errorf(".goreleaser.yaml lacks %s", want)
		}
	}
}
