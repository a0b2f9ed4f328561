package cmd

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/prompt"
)

// TestMain runs the tests with a home directory of their own: the inboxes
// they start keep their history under it (~/.local/state/askuser), not in
// the history of the person running the tests.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "askuser-cmd-home-")
	if err != nil {
		panic(err)
	}
	os.Setenv("HOME", home)
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// noInbox is an environment whose inbox address has nothing at it: a
// test's askuser never reaches an inbox of the person running the tests.
func noInbox(t *testing.T) func(string) string {
	none := filepath.Join(t.TempDir(), "no-inbox.sock")
	return func(k string) string {
		if k == "ASKUSER_INBOX" {
			return none
		}
		return ""
	}
}

// testEnv is an Env over the real schema with no terminal and an empty
// environment (but for an inbox address with nothing at it).
func testEnv(t *testing.T) *Env {
	t.Helper()
	raw, err := os.ReadFile("../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	ios, _, _, _ := iostreams.Test()
	return &Env{
		Streams: ask.Streams{IO: ios},
		Getenv:  noInbox(t),
		Schema:  raw,
		Build:   Build{Version: "1.0.0", Commit: "abcdef", Date: "2026-01-01"},
	}
}

// run runs askuser in-process, as Main would, and returns its exit code,
// stdout and stderr.
func run(t *testing.T, ctx context.Context, stdin io.Reader, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	raw, err := os.ReadFile("../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	ios, _, stdout, stderr := iostreams.Test()
	ios.In = stdin
	none := noInbox(t)
	env := &Env{
		Streams: ask.Streams{IO: ios},
		Getenv: func(k string) string {
			if v, ok := vars[k]; ok {
				return v
			}
			return none(k)
		},
		Schema: raw,
		Build:  Build{Version: "1.2.3", Commit: "abc", Date: "2026-01-02"},
	}
	code := Run(ctx, env, args)
	return code, stdout.String(), stderr.String()
}

func TestRunAnswers(t *testing.T) {
	code, stdout, stderr := run(t, context.Background(), strings.NewReader("2\n"), nil, oneQuestion)
	if code != 0 || stdout != `{"answers":{"Which":"B"}}`+"\n" {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	// Questions and answers on stdin.
	code, stdout, _ = run(t, context.Background(), strings.NewReader(oneQuestion+"\n2\n"), nil)
	if code != 0 || stdout != `{"answers":{"Which":"B"}}`+"\n" {
		t.Errorf("stdin: exit %d, stdout %q", code, stdout)
	}
}

func TestRunVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, stdout, _ := run(t, context.Background(), strings.NewReader(""), nil, args...)
		if code != 0 || stdout != "askuser 1.2.3 (commit abc, built 2026-01-02)\n" {
			t.Errorf("%v: exit %d, %q", args, code, stdout)
		}
	}
}

func TestRunCancelled(t *testing.T) {
	tests := []struct {
		cause error
		code  int
		msg   string
	}{
		{&ask.SignalError{Sig: syscall.SIGTERM}, 143, "Error: Stopped by SIGTERM\n"},
		{&ask.SignalError{Sig: syscall.SIGHUP}, 129, "Error: Stopped by SIGHUP\n"},
		{&ask.SignalError{Sig: os.Interrupt}, 130, "Error: Stopped by SIGINT\n"},
		{prompt.ErrCancelled, 130, "Error: Cancelled by the user\n"},
	}
	for _, tt := range tests {
		t.Run(tt.cause.Error(), func(t *testing.T) {
			r, w := io.Pipe()
			defer w.Close()
			ctx, cancel := context.WithCancelCause(context.Background())
			time.AfterFunc(20*time.Millisecond, func() { cancel(tt.cause) })
			code, stdout, stderr := run(t, ctx, r, nil, "--ui", "line", oneQuestion)
			if code != tt.code || stdout != "" || !strings.HasSuffix(stderr, ": \n"+tt.msg) {
				t.Errorf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
			}
		})
	}
}

func TestRunTimeout(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	code, stdout, stderr := run(t, context.Background(), r, nil, "--timeout", "20ms", oneQuestion)
	if code != 124 || stdout != "" || !strings.HasSuffix(stderr, "Error: Timed out after 20ms waiting for an answer\n") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}

// TestRunPresetsOnly checks that presets for every question need no input
// at all, so neither the input nor the timeout matters.
func TestRunPresetsOnly(t *testing.T) {
	input := strings.TrimSuffix(oneQuestion, "}") + `,"answers":{"Which":"b"}}`
	code, stdout, stderr := run(t, context.Background(), failingReader{}, nil, "--timeout", "1ns", input)
	if code != 0 || stdout != `{"answers":{"Which":"B"}}`+"\n" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}

// oneQuestion is a valid document of one question.
const oneQuestion = `{"questions":[{"question":"Which?","header":"Which","options":[{"label":"A","description":"a"},{"label":"B","description":"b"}],"multiSelect":false}]}`

// failingReader is a stdin whose every read fails.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("read from a terminal") }
