package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/askuser/askuser/cmd"
)

// completionFiles names the completion script of each shell as the
// archives carry it, under completions/.
var completionFiles = map[string]string{
	"bash": "askuser.bash",
	"zsh":  "askuser.zsh",
	"fish": "askuser.fish",
}

// runRelease writes what a release archive carries beside the program into
// dir, which it empties first: man/askuser*.1, a man page per command, and
// completions/, the scripts of "askuser completion" for bash, zsh and fish.
// The pages name version and are dated at date (seconds since 1970; 0 or
// less is now), so that a release built twice from one commit is the same.
func runRelease(schemaFile, dir, version string, date int64) error {
	raw, err := os.ReadFile(schemaFile)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	when := time.Now()
	if date > 0 {
		when = time.Unix(date, 0).UTC()
	}
	if err := writeManPages(raw, filepath.Join(dir, "man"), version, when); err != nil {
		return err
	}
	return writeCompletions(raw, filepath.Join(dir, "completions"))
}

// writeManPages writes cobra's man page of every command into dir.
func writeManPages(schemaJSON []byte, dir, version string, date time.Time) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root := cmd.NewRootCmd(newEnv(schemaJSON, io.Discard, io.Discard))
	root.DisableAutoGenTag = true
	escapeAngles(root)
	// No title: cobra names each page after its command (ASKUSER-MCP).
	header := &doc.GenManHeader{
		Section: "1",
		Date:    &date,
		Source:  "askuser " + version,
		Manual:  "askuser manual",
	}
	if err := doc.GenManTree(root, header, dir); err != nil {
		return fmt.Errorf("man pages: %w", err)
	}
	return nil
}

// escapeAngles keeps the <json> and <header> of the commands' texts on the
// man pages: cobra writes a page as Markdown, where <...> would be HTML and
// be dropped.
func escapeAngles(c *cobra.Command) {
	escape := strings.NewReplacer("<", `\<`).Replace
	c.Use, c.Short, c.Long = escape(c.Use), escape(c.Short), escape(c.Long)
	for _, sub := range c.Commands() {
		escapeAngles(sub)
	}
}

// writeCompletions writes what "askuser completion SHELL" prints for each
// shell of completionFiles into dir.
func writeCompletions(schemaJSON []byte, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for shell, name := range completionFiles {
		script, err := output(schemaJSON, "completion", shell)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), script, 0o644); err != nil {
			return err
		}
	}
	return nil
}
