package cmd

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waitingReader blocks its first read until ready reports true, then reads
// from r: an answer typed only after something else has happened.
type waitingReader struct {
	ready func() bool
	r     io.Reader
}

func (w *waitingReader) Read(p []byte) (int, error) {
	deadline := time.Now().Add(10 * time.Second)
	for !w.ready() {
		if time.Now().After(deadline) {
			return 0, errors.New("gave up waiting")
		}
		time.Sleep(5 * time.Millisecond)
	}
	return w.r.Read(p)
}

// The notification command runs while the question waits for its answer,
// with the question in its environment, and never on stdout.
func TestNotifyCommandRunsWhileAsking(t *testing.T) {
	dir := t.TempDir()
	mark := filepath.Join(dir, "notified")
	env := testEnv(t)
	env.Getenv = func(k string) string {
		if k == "ASKUSER_NOTIFY_COMMAND" {
			return `printf '%s|%s' "$ASKUSER_HEADER" "$ASKUSER_QUESTION" > "` + mark + `.tmp" && mv "` + mark + `.tmp" "` + mark + `"; echo noise`
		}
		return ""
	}
	env.IO.In = &waitingReader{
		ready: func() bool { _, err := os.Stat(mark); return err == nil },
		r:     strings.NewReader("2\n"),
	}
	code := Run(context.Background(), env, []string{`{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"PostgreSQL","description":"a"},{"label":"SQLite","description":"b"}],"multiSelect":false}]}`})
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, env.IO.ErrOut)
	}
	if got, want := env.IO.Out.(*bytes.Buffer).String(), `{"answers":{"Database":"SQLite"}}`+"\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
	got, _ := os.ReadFile(mark)
	if string(got) != "Database|Which database?" {
		t.Errorf("the command saw %q, want the header and question", got)
	}
}
