//go:build unix

package e2e

import (
	"context"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/testutil"
)

// headlessPageLine is the line that gives the page of an inbox without a
// terminal.
var headlessPageLine = regexp.MustCompile(`(?m)^Answer in your browser: (http://\S+)$`)

// askuser inbox --web with stdin from /dev/null, as a service or nohup runs
// it, serves until a signal: the page answers, stderr logs each set that
// arrives and how it ends, and SIGTERM ends it with 143.
func TestInboxWebWithoutTerminal(t *testing.T) {
	a := inbox.SocketAddr(filepath.Join(t.TempDir(), "inbox.sock"))
	cmd := exec.Command(askuserPath(t), "inbox", "--web")
	cmd.Env = inboxEnv(string(a))
	in := &inboxProcess{screen: newScreenOut(), addr: a, client: a.Dial()}
	cmd.Stderr = in.screen // stdin is /dev/null: cmd.Stdin is nil
	in.process = startProcess(t, cmd, (*exec.Cmd).Start)
	in.screen.waitFor(t, "Waiting for questions at "+string(a)+".\n", time.Minute)
	m := headlessPageLine.FindStringSubmatch(in.screen.String())
	if m == nil {
		t.Fatalf("no page address:\n%s", in.screen)
	}
	page, err := url.Parse(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(in.screen.String(), "askuser inbox: nothing can be typed here (no terminal), so the questions are answered on the web page only.") {
		t.Errorf("the inbox does not say how it serves:\n%s", in.screen)
	}
	// Still serving a moment later, where it used to quit at once.
	select {
	case <-in.done:
		t.Fatalf("askuser inbox --web without a terminal exited %d:\n%s", in.code(), in.screen)
	case <-time.After(300 * time.Millisecond):
	}

	dir := questionsDir(t)
	answered := startAsker(t, string(a), dir, "builder", "-f", "q.json")
	in.screen.waitFor(t, "Arrived: questions from builder · 1 waiting\n", time.Minute)
	answer := *page
	answer.Path = "/sets/1/answer"
	req, _ := http.NewRequest(http.MethodPost, answer.String(), strings.NewReader("q0=2"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://"+page.Host)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("answer on the page: status %d", resp.StatusCode)
	}
	answered.exited(t, 0, `{"answers":{"Database":"SQLite"}}`+"\n")
	in.screen.waitFor(t, "The questions from builder were answered on the web page.\n", time.Minute)

	withdrawn := startAsker(t, string(a), dir, "quitter", "-f", "q.json")
	in.screen.waitFor(t, "Arrived: questions from quitter · 1 waiting\n", time.Minute)
	withdrawn.cmd.Process.Signal(syscall.SIGTERM)
	in.screen.waitFor(t, "The questions from quitter were withdrawn (", 10*time.Second)

	waiting := startAsker(t, string(a), dir, "late", "confirm", "Deploy?")
	in.waitWaiting(t, 1, time.Minute)
	in.cmd.Process.Signal(syscall.SIGTERM)
	in.ended(t, 10*time.Second, 143, in.screen)
	in.screen.waitFor(t, "The inbox quits: the asker still waiting is told.\n", testutil.Slow)
	waiting.exited(t, 69, "")
	if _, err := in.client.Probe(context.Background()); err == nil {
		t.Error("the inbox still answers after SIGTERM")
	}
}
