// Command gendocs writes the documentation that is made from askuser's
// commands: docs/agents.md, the guide that "askuser docs" prints with the
// default limits, docs/commands/*.md, cobra's page of each command, and
// the table of environment variables of docs/reference.md, from the one
// table of settings (cmd/env.go).
// Run it through "go generate ./cmd" after changing a command; its test
// fails while docs/ differs from what it would write.
//
// With -release DIR it writes instead what the release archives carry
// beside the program: the man pages and the shell completions (see
// release.go). goreleaser runs it before each release.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/askuser/askuser/cmd"
	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/iostreams"
)

func main() {
	schemaFile := flag.String("schema", "schema.json", "the JSON Schema that askuser embeds")
	out := flag.String("out", "docs", "the folder to write to")
	releaseDir := flag.String("release", "", "write the man pages and completions of a release to this folder instead")
	version := flag.String("version", "dev", "with -release: the version the man pages name")
	date := flag.Int64("date", 0, "with -release: the date of the man pages, in seconds since 1970 (default now)")
	flag.Parse()
	var err error
	if *releaseDir != "" {
		err = runRelease(*schemaFile, *releaseDir, *version, *date)
	} else {
		err = run(*schemaFile, *out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func run(schemaFile, out string) error {
	raw, err := os.ReadFile(schemaFile)
	if err != nil {
		return err
	}
	files, err := generate(raw, out)
	if err != nil {
		return err
	}
	// A page of a command that is gone must not stay behind.
	if err := os.RemoveAll(filepath.Join(out, "commands")); err != nil {
		return err
	}
	for name, b := range files {
		p := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// generate returns the documentation, by path under docs/, for askuser
// built with schemaJSON and run with an empty environment; the reference
// page is the one in docs, with its table of variables written again.
func generate(schemaJSON []byte, docs string) (map[string][]byte, error) {
	guide, err := output(schemaJSON, "docs")
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{"agents.md": guide}
	ref, err := os.ReadFile(filepath.Join(docs, referencePage))
	if err != nil {
		return nil, err
	}
	if files[referencePage], err = withVariables(ref); err != nil {
		return nil, err
	}
	root := cmd.NewRootCmd(newEnv(schemaJSON, io.Discard, io.Discard))
	root.DisableAutoGenTag = true
	if err := addPages(files, root); err != nil {
		return nil, err
	}
	return files, nil
}

// referencePage is the page under docs/ that holds the table of variables,
// between its two markers.
const referencePage = "reference.md"

// The markers around the table of variables on the reference page.
const (
	tableStart = "<!-- The table is written from cmd/env.go by go generate ./cmd: edit it there. -->\n"
	tableEnd   = "<!-- end of the table -->\n"
)

// withVariables is page with the table of variables between its markers
// written from the table of settings.
func withVariables(page []byte) ([]byte, error) {
	before, rest, ok := bytes.Cut(page, []byte(tableStart))
	_, after, ok2 := bytes.Cut(rest, []byte(tableEnd))
	if !ok || !ok2 {
		return nil, fmt.Errorf("docs/%s lacks the markers of the table of variables: %q and %q", referencePage, tableStart, tableEnd)
	}
	return slices.Concat(before, []byte(tableStart), []byte(cmd.EnvironmentTable()), []byte(tableEnd), after), nil
}

// newEnv is askuser built with schemaJSON, run with an empty environment
// and no input, writing to out and errOut.
func newEnv(schemaJSON []byte, out, errOut io.Writer) *cmd.Env {
	return &cmd.Env{
		Streams: ask.Streams{IO: &iostreams.Streams{In: strings.NewReader(""), Out: out, ErrOut: errOut}},
		Getenv:  func(string) string { return "" },
		Schema:  schemaJSON,
	}
}

// output runs askuser built with schemaJSON with args, and returns what it
// printed.
func output(schemaJSON []byte, args ...string) ([]byte, error) {
	var out, errOut bytes.Buffer
	if code := cmd.Run(context.Background(), newEnv(schemaJSON, &out, &errOut), args); code != 0 {
		return nil, fmt.Errorf("askuser %s: exit %d: %s", strings.Join(args, " "), code, errOut.String())
	}
	return out.Bytes(), nil
}

// addPages adds the page of c and of each command under it, named as
// cobra's GenMarkdownTree names them.
func addPages(files map[string][]byte, c *cobra.Command) error {
	for _, sub := range c.Commands() {
		if !sub.IsAvailableCommand() || sub.IsAdditionalHelpTopicCommand() {
			continue
		}
		if err := addPages(files, sub); err != nil {
			return err
		}
	}
	var b bytes.Buffer
	if err := doc.GenMarkdown(c, &b); err != nil {
		return fmt.Errorf("document %s: %w", c.CommandPath(), err)
	}
	files[path.Join("commands", strings.ReplaceAll(c.CommandPath(), " ", "_")+".md")] = b.Bytes()
	return nil
}
