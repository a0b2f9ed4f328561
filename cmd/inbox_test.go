package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// confirmRequest is the request of askuser confirm's question, from from.
func confirmRequest(from, question string) *inbox.Request {
	raw, _ := json.Marshal([]schema.Question{schema.ConfirmQuestion(question, true)})
	return &inbox.Request{From: from, Questions: raw}
}

// personInbox serves an inbox in the test's process and answers each set
// that arrives with answer: the person at the inbox, played by the test.
func personInbox(t *testing.T, answer func(*inbox.Set) []prompt.Answer) inbox.SocketAddr {
	t.Helper()
	raw, err := os.ReadFile("../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	a := inbox.SocketAddr(filepath.Join(t.TempDir(), "inbox.sock"))
	ln, err := inbox.ListenSocket(string(a))
	if err != nil {
		t.Fatal(err)
	}
	q := inbox.NewQueue(inbox.QueueOptions{})
	srv := inbox.NewServer(q, raw)
	_ = inbox.SocketListener{Listener: ln}.Serve(context.Background(), srv)
	stop := make(chan struct{})
	go func() {
		for {
			v := q.Snapshot()
			if len(v.Sets) > 0 {
				_ = q.Answer(v.Sets[0], inbox.ViaHere, answer(v.Sets[0]))
				continue
			}
			select {
			case <-v.Changed:
			case <-stop:
				return
			}
		}
	}()
	t.Cleanup(func() {
		close(stop)
		srv.Close("the test is over")
	})
	return a
}

func varsEnv(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// A terminal on stdin whose stderr is captured: nobody would see the
// prompts, so the questions go to the inbox when one answers. When none
// does, a terminal that askuser is not in the foreground of (here, one that
// is no file at all) is nobody's: exit 66. (Asking on the terminal that
// is the person's is tested in a pseudo-terminal, in e2e.)
func TestRouteTerminalNobodySees(t *testing.T) {
	a := personInbox(t, func(*inbox.Set) []prompt.Answer {
		return []prompt.Answer{{Labels: []string{"A"}}}
	})
	for _, c := range []struct {
		inbox       string
		code        int
		out, errOut string
	}{
		{string(a), 0, `{"answers":{"Which":"A"}}` + "\n", "Waiting for an answer in the inbox"},
		{filepath.Join(t.TempDir(), "none.sock"), 66, "", "nobody can answer on stdin (a terminal, in whose foreground askuser does not run)"},
	} {
		env := testEnv(t)
		env.IO.In = strings.NewReader("2\n")
		env.IO.InTTY = true
		env.Getenv = varsEnv(map[string]string{"ASKUSER_INBOX": c.inbox})
		code := Run(context.Background(), env, []string{oneQuestion})
		out, errOut := env.IO.Out.(*bytes.Buffer).String(), env.IO.ErrOut.(*bytes.Buffer).String()
		if code != c.code || out != c.out || !strings.Contains(errOut, c.errOut) {
			t.Errorf("inbox %s: exit %d, stdout %q, stderr %q; want %d, %q, and %q in stderr", c.inbox, code, out, errOut, c.code, c.out, c.errOut)
		}
	}
	// Where the prompts are seen, or with --tty, the inbox is not used.
	env := testEnv(t)
	env.IO.In = strings.NewReader("2\n")
	env.IO.InTTY, env.IO.ErrTTY = true, true
	env.Getenv = varsEnv(map[string]string{"ASKUSER_INBOX": string(a), "ACCESSIBLE": "1"})
	if code := Run(context.Background(), env, []string{oneQuestion}); code != 0 || env.IO.Out.(*bytes.Buffer).String() != `{"answers":{"Which":"B"}}`+"\n" {
		t.Errorf("a terminal on both: exit %d, stdout %q", code, env.IO.Out)
	}
}

// An asker in the inbox leaves the bell and the notification command to
// the inbox, which is where the person looks.
func TestInboxAskerLeavesTheBellToTheInbox(t *testing.T) {
	a := personInbox(t, func(*inbox.Set) []prompt.Answer { return []prompt.Answer{{Labels: []string{"Yes"}}} })
	mark := filepath.Join(t.TempDir(), "notified")
	env := testEnv(t)
	env.Getenv = varsEnv(map[string]string{"ASKUSER_INBOX": string(a), "ASKUSER_NOTIFY_COMMAND": "touch " + mark})
	if code := Run(context.Background(), env, []string{"confirm", "--ui", "inbox", "--bell", "Deploy?"}); code != 0 {
		t.Fatalf("exit %d; stderr %q", code, env.IO.ErrOut)
	}
	_, err := os.Stat(mark)
	if stderr := env.IO.ErrOut.(*bytes.Buffer).String(); strings.Contains(stderr, "\a") || err == nil {
		t.Errorf("stderr %q, notification command run: %v", stderr, err == nil)
	}
}

// runInbox runs askuser inbox in the test's process with an input the test
// writes, until it returns.
type inboxRunning struct {
	in     *io.PipeWriter
	stderr *testutil.Buffer
	code   chan int
	addr   inbox.Addr
}

func startInboxCmd(t *testing.T, vars map[string]string, errTTY bool, ctx context.Context, watch func(context.Context) (context.Context, func())) *inboxRunning {
	t.Helper()
	raw, err := os.ReadFile("../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	a := inbox.SocketAddr(filepath.Join(t.TempDir(), "inbox.sock"))
	vars["ASKUSER_INBOX"] = string(a)
	pr, pw := io.Pipe()
	r := &inboxRunning{in: pw, stderr: new(testutil.Buffer), code: make(chan int, 1), addr: a}
	ios, _, _, _ := iostreams.Test()
	ios.In, ios.ErrOut, ios.ErrTTY = pr, r.stderr, errTTY
	env := &Env{
		Streams: ask.Streams{IO: ios, WatchSignals: watch},
		Getenv:  varsEnv(vars),
		Schema:  raw,
	}
	go func() { r.code <- Run(ctx, env, []string{"inbox"}) }()
	t.Cleanup(func() { pw.Close() })
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := a.Dial().Probe(context.Background()); err == nil {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("the inbox does not answer; stderr:\n%s", r.stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (r *inboxRunning) waitStderr(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(r.stderr.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("stderr lacks %q:\n%s", want, r.stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (r *inboxRunning) exit(t *testing.T) int {
	t.Helper()
	select {
	case code := <-r.code:
		return code
	case <-time.After(10 * time.Second):
		t.Fatalf("the inbox did not exit; stderr:\n%s", r.stderr)
	}
	return -1
}

// Each arrival rings the bell on the inbox's terminal and runs
// ASKUSER_NOTIFY_COMMAND with where the set came from and its first
// question.
func TestInboxNotifies(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "notified")
	r := startInboxCmd(t, map[string]string{
		"ASKUSER_NOTIFY_COMMAND": `printf '%s|%s|%s' "$ASKUSER_FROM" "$ASKUSER_HEADER" "$ASKUSER_QUESTION" > "` + mark + `.tmp" && mv "` + mark + `.tmp" "` + mark + `"`,
	}, true, context.Background(), nil)
	asked := make(chan error, 1)
	go func() {
		_, err := r.addr.Dial().Ask(context.Background(), confirmRequest("deployer", "Deploy now?"), nil)
		asked <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := os.ReadFile(mark)
		if err == nil {
			if string(got) != "deployer|Confirm|Deploy now?" {
				t.Errorf("the command saw %q", got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the notification command did not run; stderr:\n%s", r.stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.waitStderr(t, "Deploy now? [Y/n]: ")
	if !strings.Contains(r.stderr.String(), "\a") {
		t.Error("no bell on the inbox's terminal")
	}
	io.WriteString(r.in, "y\n")
	if err := <-asked; err != nil {
		t.Fatal(err)
	}
	r.in.Close()
	if code := r.exit(t); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// A notification command that fails is a warning on the inbox's screen.
func TestInboxNotifyFailureWarns(t *testing.T) {
	r := startInboxCmd(t, map[string]string{"ASKUSER_NOTIFY_COMMAND": "echo broken >&2; exit 3"}, false, context.Background(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.addr.Dial().Ask(ctx, confirmRequest("", "Go?"), nil)
	r.waitStderr(t, "Warning: ASKUSER_NOTIFY_COMMAND failed: exit status 3: broken\n")
	if strings.Contains(r.stderr.String(), "\a") {
		t.Error("a bell where stderr is not a terminal")
	}
}

// Ctrl+C quits the inbox (exit 0); SIGTERM and SIGHUP exit as for any
// command. Either way the waiting askers are told.
func TestInboxSignals(t *testing.T) {
	for _, c := range []struct {
		sig    os.Signal
		code   int
		reason string
	}{
		{os.Interrupt, 0, "the person quit the inbox"},
		{syscall.SIGTERM, 143, "the inbox was stopped by SIGTERM"},
		{syscall.SIGHUP, 129, "the inbox was stopped by SIGHUP"},
	} {
		t.Run(c.sig.String(), func(t *testing.T) {
			// The signal ends the context that the command runs in, with
			// the cause that ask.WatchSignals gives it.
			ctx, send := context.WithCancelCause(context.Background())
			r := startInboxCmd(t, map[string]string{}, false, ctx, nil)
			asked := make(chan inbox.Event, 1)
			go func() {
				e, err := r.addr.Dial().Ask(context.Background(), confirmRequest("", "Go?"), nil)
				if err != nil {
					t.Error(err)
				}
				asked <- e
			}()
			r.waitStderr(t, "Go? [Y/n]: ")
			send(&ask.SignalError{Sig: c.sig})
			if code := r.exit(t); code != c.code {
				t.Errorf("exit %d, want %d", code, c.code)
			}
			if e := <-asked; e.Event != inbox.EventClosed || e.Reason != c.reason {
				t.Errorf("the asker was told %+v", e)
			}
			r.waitStderr(t, "The inbox quits: the asker still waiting is told.\n")
		})
	}
}

// The inbox serves askers over TCP with --listen, and prints the address
// to give them, token included; beyond this machine it warns as --ui web
// does.
func TestInboxListen(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	raw, _ := os.ReadFile("../schema.json")
	pr, pw := io.Pipe()
	defer pw.Close()
	stderr := new(testutil.Buffer)
	sock := filepath.Join(t.TempDir(), "inbox.sock")
	ios, _, _, _ := iostreams.Test()
	ios.In, ios.ErrOut = pr, stderr
	env := &Env{Streams: ask.Streams{IO: ios}, Getenv: varsEnv(map[string]string{"ASKUSER_INBOX": sock}), Schema: raw}
	code := make(chan int, 1)
	go func() { code <- Run(ctx, env, []string{"inbox", "--listen", "0.0.0.0:0"}) }()
	deadline := time.Now().Add(10 * time.Second)
	var url string
	for url == "" {
		if _, rest, ok := strings.Cut(stderr.String(), "ASKUSER_INBOX='"); ok {
			url, _, _ = strings.Cut(rest, "'")
		}
		if time.Now().After(deadline) {
			t.Fatalf("no address printed:\n%s", stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if !strings.Contains(stderr.String(), "Warning: the inbox is served beyond this machine, on every interface, port ") {
		t.Errorf("no warning:\n%s", stderr)
	}
	parsed, err := inbox.ParseAddr(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := parsed.(inbox.TCPAddr)
	// The address may name this machine's outward address; reach it on
	// loopback, as the host check allows on every interface.
	_, port, _ := net.SplitHostPort(a.Host)
	a.Host = net.JoinHostPort("127.0.0.1", port)
	if st, err := a.Dial().Probe(context.Background()); err != nil || st.Inbox != "askuser" {
		t.Errorf("over TCP: %+v, %v", st, err)
	}
	a.Token = strings.Repeat("x", 43)
	if _, err := a.Dial().Probe(context.Background()); err == nil {
		t.Error("a wrong token was let in")
	}
	// The socket is served too.
	if _, err := inbox.SocketAddr(sock).Dial().Probe(context.Background()); err != nil {
		t.Errorf("the socket: %v", err)
	}
	pw.Close()
	if c := <-code; c != 0 {
		t.Errorf("exit %d:\n%s", c, stderr)
	}
}

// With ASKUSER_INBOX=http://HOST:PORT/?token=T on both sides, the inbox
// listens there with that token, and its askers reach it: one export pairs
// them over TCP too.
func TestInboxAtTCPAddress(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	url := "http://127.0.0.1:" + strconv.Itoa(port) + "/?token=" + strings.Repeat("k", 32)
	raw, _ := os.ReadFile("../schema.json")
	pr, pw := io.Pipe()
	stderr := new(testutil.Buffer)
	ios, _, _, _ := iostreams.Test()
	ios.In, ios.ErrOut = pr, stderr
	env := &Env{Streams: ask.Streams{IO: ios}, Getenv: varsEnv(map[string]string{"ASKUSER_INBOX": url}), Schema: raw}
	code := make(chan int, 1)
	go func() { code <- Run(context.Background(), env, []string{"inbox"}) }()

	asker := testEnv(t)
	asker.IO.In = failingReader{}
	asker.Getenv = varsEnv(map[string]string{"ASKUSER_INBOX": url, "ASKUSER_UI": "inbox"})
	asked := make(chan int, 1)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), "Waiting for questions at http://127.0.0.1:") {
		if time.Now().After(deadline) {
			t.Fatalf("the inbox does not wait:\n%s", stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
	go func() { asked <- Run(context.Background(), asker, []string{"confirm", "Go?"}) }()
	deadline = time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), "Go? [Y/n]: ") {
		if time.Now().After(deadline) {
			t.Fatalf("the question did not arrive:\n%s", stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
	io.WriteString(pw, "n\n")
	if c := <-asked; c != 1 {
		t.Errorf("confirm answered no: exit %d; stderr:\n%s", c, asker.IO.ErrOut)
	}
	if strings.Contains(asker.IO.ErrOut.(*bytes.Buffer).String(), "kkkk") {
		t.Error("the asker printed the token")
	}
	pw.Close()
	if c := <-code; c != 0 {
		t.Errorf("exit %d:\n%s", c, stderr)
	}
}
