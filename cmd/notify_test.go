package cmd

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
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

// docs/away.md's push recipe, run as the page prints it against a local server in
// ntfy's place: each set that arrives at askuser inbox --web is sent with
// where it came from, its question, and ASKUSER_URL, the address of its
// own page, which shows it.
func TestPushRecipe(t *testing.T) {
	readme, err := os.ReadFile("../docs/away.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("<!-- setup: ntfy -->\n```sh\nexport ASKUSER_NOTIFY_COMMAND='([^'\n]*)'\n```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("docs/away.md has no ntfy recipe: an export of ASKUSER_NOTIFY_COMMAND under <!-- setup: ntfy -->")
	}
	type push struct {
		path, title, click, body string
	}
	pushed := make(chan push, 1)
	ntfy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		pushed <- push{r.Method + " " + r.URL.Path, r.Header.Get("Title"), r.Header.Get("Click"), string(body)}
	}))
	defer ntfy.Close()
	command := strings.Replace(string(m[1]), "https://ntfy.sh/", ntfy.URL+"/", 1)
	if command == string(m[1]) {
		t.Fatalf("the recipe does not push to https://ntfy.sh/: %s", m[1])
	}

	r := startWebInbox(t, map[string]string{"ASKUSER_NOTIFY_COMMAND": command}, "--web")
	go func() {
		_, _ = inbox.SocketAddr(r.sock).Dial().Ask(context.Background(), confirmRequest("deployer", "@/etc/passwd: deploy now?"), nil)
	}()
	var got push
	select {
	case got = <-pushed:
	case <-time.After(10 * time.Second):
		t.Fatalf("nothing was pushed; stderr:\n%s", r.stderr)
	}
	want := push{"POST /your-secret-topic", "askuser: deployer", r.page.Scheme + "://" + r.page.Host + "/sets/1/?token=" + r.page.Query().Get("token"), "@/etc/passwd: deploy now?"}
	if got != want {
		t.Fatalf("pushed %+v\nwant   %+v", got, want)
	}
	if code, body := fetch(t, http.MethodGet, got.click, ""); code != http.StatusOK || !strings.Contains(body, "@/etc/passwd: deploy now?") || !strings.Contains(body, `action="/sets/1/answer?token=`) {
		t.Errorf("the pushed address shows: %d\n%s", code, body)
	}
}
