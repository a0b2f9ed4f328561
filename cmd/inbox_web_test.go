package cmd

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/schema"
)

// webInbox is askuser inbox --web run in the test's process, with an input
// the test writes.
type webInbox struct {
	in     *io.PipeWriter
	stderr *testutil.Buffer
	code   chan int
	sock   string
	page   *url.URL // the page's address, as printed
}

func startWebInbox(t *testing.T, vars map[string]string, args ...string) *webInbox {
	t.Helper()
	r := startInbox(t, vars, args...)
	line := r.waitLine(t, "Answer in your browser too: ")
	var err error
	if r.page, err = url.Parse(line); err != nil {
		t.Fatal(err)
	}
	return r
}

// startInbox runs askuser inbox with args and vars, as startWebInbox does,
// with or without its page.
func startInbox(t *testing.T, vars map[string]string, args ...string) *webInbox {
	t.Helper()
	raw, err := os.ReadFile("../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	r := &webInbox{stderr: new(testutil.Buffer), code: make(chan int, 1), sock: filepath.Join(t.TempDir(), "inbox.sock")}
	vars["ASKUSER_INBOX"] = r.sock
	pr, pw := io.Pipe()
	r.in = pw
	ios, _, _, _ := iostreams.Test()
	ios.In, ios.ErrOut = pr, r.stderr
	env := &Env{Streams: ask.Streams{IO: ios}, Getenv: varsEnv(vars), Schema: raw}
	go func() { r.code <- Run(context.Background(), env, append([]string{"inbox"}, args...)) }()
	t.Cleanup(func() {
		pw.Close()
		select {
		case <-r.code:
		case <-time.After(10 * time.Second):
			t.Error("the inbox did not quit")
		}
	})
	return r
}

// waitLine waits for a line of stderr that starts with prefix, and returns
// the rest of it.
func (r *webInbox) waitLine(t *testing.T, prefix string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, l := range strings.Split(r.stderr.String(), "\n") {
			if rest, ok := strings.CutPrefix(l, prefix); ok {
				return rest
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("stderr has no line %q…:\n%s", prefix, r.stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (r *webInbox) waitStderr(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(r.stderr.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("stderr lacks %q:\n%s", want, r.stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// at is the address of path on the page's server, with its token; the page
// is reached on loopback, which its host check allows on every interface.
func (r *webInbox) at(path string) string {
	_, port, _ := net.SplitHostPort(r.page.Host)
	return "http://" + net.JoinHostPort("127.0.0.1", port) + path + "?token=" + r.page.Query().Get("token")
}

func fetch(t *testing.T, method, u, form string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, u, strings.NewReader(form))
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", "http://"+req.URL.Host)
	}
	return send(t, req)
}

// send sends req, and returns the reply's status and text.
func send(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// askuser inbox --web serves the queue on a page on this machine, at the
// address it prints with the page's token; the page answers, and the
// terminal's screen moves on.
func TestInboxWeb(t *testing.T) {
	r := startWebInbox(t, map[string]string{}, "--web")
	if r.page.Scheme != "http" || !strings.HasPrefix(r.page.Host, "127.0.0.1:") || r.page.Path != "/" || len(r.page.Query().Get("token")) < 43 {
		t.Errorf("the page's address: %s", r.page)
	}
	if strings.Contains(r.stderr.String(), "Warning") || strings.Contains(r.stderr.String(), "ASKUSER_INBOX=") {
		t.Errorf("a page on this machine only:\n%s", r.stderr)
	}
	if code, body := fetch(t, http.MethodGet, r.page.String(), ""); code != http.StatusOK || !strings.Contains(body, "Nothing is waiting") {
		t.Fatalf("the page: %d\n%s", code, body)
	}
	asked := make(chan inbox.Event, 1)
	go func() {
		e, err := inbox.SocketAddr(r.sock).Dial().Ask(context.Background(), confirmRequest("deployer", "Deploy now?"), nil)
		if err != nil {
			t.Error(err)
		}
		asked <- e
	}()
	r.waitStderr(t, "Deploy now? [Y/n]: ")
	code, body := fetch(t, http.MethodGet, r.at("/"), "")
	if code != http.StatusOK || !strings.Contains(body, `<strong class="source">deployer</strong>`) {
		t.Fatalf("the page with a set: %d\n%s", code, body)
	}
	if code, body := fetch(t, http.MethodPost, r.at("/sets/1/answer"), "q0=2"); code != http.StatusOK || !strings.Contains(body, "Sent to deployer.") {
		t.Fatalf("answer on the page: %d\n%s", code, body)
	}
	select {
	case e := <-asked:
		if e.Event != inbox.EventAnswered || len(e.Answers) != 1 || schema.IsYes(e.Answers[0]) {
			t.Errorf("the asker got %+v", e)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the asker got no answer")
	}
	// The inbox's own view records the answer given on the page, as one
	// given there, and a cancel there.
	r.waitStderr(t, "Deploy now? [Y/n]: \n✔ deployer, on the web page · Deploy now? No\n")
	go func() {
		e, err := inbox.SocketAddr(r.sock).Dial().Ask(context.Background(), confirmRequest("dropper", "Drop the table?"), nil)
		if err != nil {
			t.Error(err)
		}
		asked <- e
	}()
	r.waitStderr(t, "Drop the table? [Y/n]: ")
	if code, body := fetch(t, http.MethodPost, r.at("/sets/2/cancel"), ""); code != http.StatusOK || !strings.Contains(body, "Cancelled the questions from dropper.") {
		t.Fatalf("cancel on the page: %d\n%s", code, body)
	}
	if e := <-asked; e.Event != inbox.EventCancelled {
		t.Errorf("the asker got %+v", e)
	}
	r.waitStderr(t, "Drop the table? [Y/n]: \nThe questions from dropper were cancelled on the web page.\n")
	// The askers' socket knows nothing of the page, and the page nothing
	// of the askers' protocol.
	if code, _ := fetch(t, http.MethodGet, r.at(inbox.PathStatus), ""); code != http.StatusNotFound {
		t.Errorf("the protocol on the page's port: %d", code)
	}
}

// With --listen, the page is served on that address beside the askers, each
// behind its own token, with --ui web's warning when it is beyond this
// machine.
func TestInboxWebListen(t *testing.T) {
	r := startWebInbox(t, map[string]string{}, "--web", "--listen", "0.0.0.0:0")
	parsed, err := inbox.ParseAddr(strings.TrimSuffix(r.waitLine(t, "Askers elsewhere reach this inbox with ASKUSER_INBOX='"), "'"), nil)
	if err != nil {
		t.Fatal(err)
	}
	askers := parsed.(inbox.TCPAddr)
	if !strings.Contains(r.stderr.String(), "Warning: the inbox, with its page, is served beyond this machine, on every interface, port ") {
		t.Errorf("no warning:\n%s", r.stderr)
	}
	_, askersPort, _ := net.SplitHostPort(askers.Host)
	_, pagePort, _ := net.SplitHostPort(r.page.Host)
	if askersPort != pagePort || askers.Host != r.page.Host {
		t.Errorf("askers at %s, the page at %s: not one server", askers.Host, r.page.Host)
	}
	pageToken := r.page.Query().Get("token")
	if askers.Token == pageToken {
		t.Fatal("the askers hold the page's token")
	}
	local := inbox.TCPAddr{Host: net.JoinHostPort("127.0.0.1", askersPort), Token: askers.Token}
	if _, err := local.Dial().Probe(context.Background()); err != nil {
		t.Errorf("the askers' protocol: %v", err)
	}
	if code, body := fetch(t, http.MethodGet, r.at("/"), ""); code != http.StatusOK || !strings.Contains(body, "Nothing is waiting") {
		t.Errorf("the page: %d\n%s", code, body)
	}
	if code, _ := fetch(t, http.MethodGet, "http://"+local.Host+"/?token="+askers.Token, ""); code != http.StatusForbidden {
		t.Errorf("the page with the askers' token: %d", code)
	}
}

// --open opens the page in $BROWSER.
func TestInboxWebOpen(t *testing.T) {
	dir := t.TempDir()
	opened := filepath.Join(dir, "opened")
	script := filepath.Join(dir, "browser")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s' \"$1\" > '"+opened+".tmp' && mv '"+opened+".tmp' '"+opened+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := startWebInbox(t, map[string]string{"BROWSER": script}, "--web", "--open")
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := os.ReadFile(opened)
		if err == nil {
			if string(got) != r.page.String() {
				t.Errorf("the browser opened %q, want %q", got, r.page)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no browser opened; stderr:\n%s", r.stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A browser that cannot be opened is said on the inbox's screen; the page
// is still served.
func TestInboxWebOpenFails(t *testing.T) {
	r := startWebInbox(t, map[string]string{"BROWSER": "false"}, "--web", "--open")
	r.waitStderr(t, "Could not open a browser (false: exit status 1); open the address above.\n")
	if code, _ := fetch(t, http.MethodGet, r.page.String(), ""); code != http.StatusOK {
		t.Errorf("the page: %d", code)
	}
}
