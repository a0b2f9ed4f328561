package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/iostreams"
)

// closedPipe is the writing end of a pipe whose reader has gone, as
// stdout is in askuser docs | head -1 once head has exited.
func closedPipe(t *testing.T) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Cleanup(func() { w.Close() })
	return w
}

// A command that prints text ends quietly, and well, when the reader of
// its output has gone, as git's do: the reader took what it wanted.
func TestReaderGoneQuiet(t *testing.T) {
	state := t.TempDir()
	record := `{"from":"deployer","asked":"2026-03-01T10:00:00Z","ended":"2026-03-01T10:00:12.5Z","outcome":"answered","via":"terminal","waited":12.5,"questions":["Database"]}` + "\n"
	if err := os.MkdirAll(filepath.Join(state, "askuser"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(state, "askuser", "history.jsonl"), []byte(record), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"docs"}, {"history"}, {"history", "--json"}, {"schema"}, {"version"}, {"tool", "--format", "mcp"}, {"--help"}, {"completion", "bash"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			env := testEnv(t)
			var stderr strings.Builder
			env.IO = &iostreams.Streams{In: strings.NewReader(""), Out: closedPipe(t), ErrOut: &stderr}
			none := env.Getenv
			env.Getenv = func(k string) string {
				if k == "XDG_STATE_HOME" {
					return state
				}
				return none(k)
			}
			if code := Run(context.Background(), env, args); code != 0 || stderr.Len() != 0 {
				t.Errorf("exit %d, stderr:\n%s", code, &stderr)
			}
		})
	}
}

// Where stdout carries the answer, its loss is an error that says the
// answer was given and not delivered.
func TestReaderGoneAnswer(t *testing.T) {
	for _, args := range [][]string{{"choose", "a", "b"}, {oneQuestion}} {
		t.Run(args[0], func(t *testing.T) {
			env := testEnv(t)
			var stderr strings.Builder
			env.IO = &iostreams.Streams{In: strings.NewReader("1\n"), Out: closedPipe(t), ErrOut: &stderr}
			code := Run(context.Background(), env, args)
			if want := "Error: The person answered, but the answer could not be written: the reader of stdout went away (write "; code != 1 || !strings.Contains(stderr.String(), want) {
				t.Errorf("exit %d, stderr:\n%s\nwant %q", code, &stderr, want)
			}
		})
	}
}
