package main

import (
	"io"
	"os"
	"path/filepath"
	"time"

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
	root := cmd.NewRootCmd(newEnv(raw, io.Discard, io.Discard))
	if err := cmd.WriteManPages(root, filepath.Join(dir, "man"), version, when); err != nil {
		return err
	}
	return writeCompletions(raw, filepath.Join(dir, "completions"))
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
