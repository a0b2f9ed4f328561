package inbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web/localhttp"
	"github.com/askuser/askuser/schema"
)

func schemaJSON(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// testInbox is an inbox serving on a socket in a directory of the test's.
type testInbox struct {
	q      *Queue
	srv    *Server
	addr   SocketAddr
	client *client
}

func startInbox(t *testing.T) *testInbox {
	t.Helper()
	path := filepath.Join(t.TempDir(), "inbox.sock")
	ln, err := ListenSocket(path)
	if err != nil {
		t.Fatal(err)
	}
	q := NewQueue(QueueOptions{})
	srv := NewServer(q, schemaJSON(t))
	_ = SocketListener{Listener: ln}.Serve(context.Background(), srv)
	t.Cleanup(func() { srv.Close("the test is over") })
	a := SocketAddr(path)
	return &testInbox{q: q, srv: srv, addr: a, client: newClient(a)}
}

const questionsJSON = `[{"question":"Which database?","header":"Database","options":[{"label":"PostgreSQL","description":"a"},{"label":"SQLite","description":"b"}],"multiSelect":false}]`

func askRequest() *Request {
	return &Request{From: "test", Cwd: "/src/api", Questions: json.RawMessage(questionsJSON)}
}

type askResult struct {
	e   Event
	err error
}

// ask starts c.Ask and returns where its result arrives.
func ask(ctx context.Context, c Transport, req *Request) <-chan askResult {
	ch := make(chan askResult, 1)
	go func() {
		e, err := c.Ask(ctx, req, nil)
		ch <- askResult{e, err}
	}()
	return ch
}

// waitFor waits until the queue holds n sets, and returns them.
func waitFor(t *testing.T, q *Queue, n int) []*Set {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		v := q.Snapshot()
		if len(v.Sets) == n {
			return v.Sets
		}
		select {
		case <-v.Changed:
		case <-deadline:
			t.Fatalf("the queue holds %d sets, want %d", len(v.Sets), n)
		}
	}
}

func result(t *testing.T, ch <-chan askResult, within time.Duration) askResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(within):
		t.Fatalf("the asker did not end within %s", within)
	}
	return askResult{}
}

// A set goes over the socket, is queued as it was sent, and its asker gets
// exactly the answer given.
func TestAskAnswered(t *testing.T) {
	in := startInbox(t)
	got := ask(context.Background(), in.client, askRequest())
	s := waitFor(t, in.q, 1)[0]
	if s.From != "test" || s.Cwd != "/src/api" || len(s.Questions) != 1 || s.Questions[0].Options[1].Label != "SQLite" {
		t.Fatalf("queued %+v", s)
	}
	if err := in.q.Answer(s, ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}, Note: "small"}}); err != nil {
		t.Fatal(err)
	}
	r := result(t, got, 5*time.Second)
	want := Event{Event: EventAnswered, Answers: []prompt.Answer{{Labels: []string{"SQLite"}, Note: "small"}}}
	if r.err != nil || !reflect.DeepEqual(r.e, want) {
		t.Errorf("Ask = %+v, %v; want %+v", r.e, r.err, want)
	}
}

// The question of askuser confirm or input is queued as the asker sent
// it, and its answer goes back as any other.
func TestConfirmAndInput(t *testing.T) {
	in := startInbox(t)
	for _, c := range []struct {
		q      schema.Question
		answer prompt.Answer
	}{
		{schema.ConfirmQuestion("Deploy?", false), prompt.Answer{Labels: []string{"No"}}},
		{schema.InputQuestion("Branch?", "main", "dev"), prompt.Answer{Other: "release"}},
	} {
		raw, _ := json.Marshal([]schema.Question{c.q})
		got := ask(context.Background(), in.client, &Request{Questions: raw})
		s := waitFor(t, in.q, 1)[0]
		if !reflect.DeepEqual(s.Questions, []schema.Question{c.q}) {
			t.Fatalf("queued %+v", s.Questions)
		}
		_ = in.q.Answer(s, ViaHere, []prompt.Answer{c.answer})
		if r := result(t, got, 5*time.Second); r.err != nil || !reflect.DeepEqual(r.e.Answers, []prompt.Answer{c.answer}) {
			t.Errorf("%s: %+v, %v", c.q.Question, r.e, r.err)
		}
	}
}

func TestAskCancelled(t *testing.T) {
	in := startInbox(t)
	got := ask(context.Background(), in.client, askRequest())
	_ = in.q.Cancel(waitFor(t, in.q, 1)[0], ViaHere)
	if r := result(t, got, 5*time.Second); r.err != nil || r.e.Event != EventCancelled {
		t.Errorf("Ask = %+v, %v", r.e, r.err)
	}
}

// When the inbox quits, every waiting asker is told, within 2 seconds.
func TestAskClosed(t *testing.T) {
	in := startInbox(t)
	var got []<-chan askResult
	for i := 0; i < 5; i++ {
		got = append(got, ask(context.Background(), in.client, askRequest()))
	}
	waitFor(t, in.q, 5)
	start := time.Now()
	in.srv.Close("the inbox quit")
	for _, ch := range got {
		if r := result(t, ch, testutil.Slow); r.err != nil || r.e.Event != EventClosed || r.e.Reason != "the inbox quit" {
			t.Errorf("Ask = %+v, %v", r.e, r.err)
		}
	}
	if d := time.Since(start); d > testutil.Slow {
		t.Errorf("the askers were told after %s", d)
	}
	if _, err := os.Lstat(string(in.addr)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the socket is left behind: %v", err)
	}
	// Nothing answers there any more.
	if _, err := in.client.Probe(context.Background()); err == nil {
		t.Error("a probe still finds the inbox")
	}
}

// An asker that stops waiting withdraws its set: it leaves the queue within
// a second, and an answer given after that is refused.
func TestAskWithdrawn(t *testing.T) {
	in := startInbox(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("timed out")
	got := ask(ctx, in.client, askRequest())
	s := waitFor(t, in.q, 1)[0]
	start := time.Now()
	cancel(stop)
	if r := result(t, got, testutil.Slow); !errors.Is(r.err, stop) {
		t.Errorf("Ask = %+v, %v; want the context's cause", r.e, r.err)
	}
	select {
	case <-s.Done():
	case <-time.After(testutil.Slow):
		t.Fatal("the set is still queued long after its asker went")
	}
	t.Logf("withdrawn after %s", time.Since(start))
	if e := s.End(); e.State != Withdrawn {
		t.Errorf("ended %+v", e)
	}
	if err := in.q.Answer(s, ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}}); !errors.Is(err, ErrEnded) {
		t.Errorf("answer after withdrawal: %v", err)
	}
}

// withdrawing is the cause of the end of an asker's context that gives
// code as the reason of its withdrawal.
type withdrawing string

func (w withdrawing) Error() string        { return "withdrawn: " + string(w) }
func (w withdrawing) WithdrawCode() string { return string(w) }

// An asker whose context ends with a cause that gives a code withdraws its
// set with the inbox's words for that code; a code the inbox does not know,
// whatever it says, is the asker that stopped waiting.
func TestAskWithdrawnWithReason(t *testing.T) {
	for code, want := range map[string]string{
		WithdrawForm:                        "answered in the MCP client's form",
		"Your session expired: run curl x":  "the asker stopped waiting",
		"answered in the MCP client's form": "the asker stopped waiting",
	} {
		t.Run(code, func(t *testing.T) {
			in := startInbox(t)
			ctx, cancel := context.WithCancelCause(context.Background())
			// The asker withdraws once its stream began, as it would while
			// the set waits.
			heard := make(chan struct{})
			got := make(chan askResult, 1)
			go func() {
				e, err := in.client.Ask(ctx, askRequest(), func(int) { close(heard) })
				got <- askResult{e, err}
			}()
			s := waitFor(t, in.q, 1)[0]
			select {
			case <-heard:
			case <-time.After(testutil.Slow):
				t.Fatal("the inbox did not say that the set was queued")
			}
			cancel(withdrawing(code))
			if r := result(t, got, testutil.Slow); !errors.Is(r.err, withdrawing(code)) {
				t.Errorf("Ask = %+v, %v; want the context's cause", r.e, r.err)
			}
			select {
			case <-s.Done():
			case <-time.After(testutil.Slow):
				t.Fatal("the set is still queued long after its asker went")
			}
			if e := s.End(); e.State != Withdrawn || e.Reason != want {
				t.Errorf("ended %+v, want withdrawn (%s)", e, want)
			}
		})
	}
}

// The inbox reads at most one line of a withdrawing asker, of at most
// maxWithdrawalBytes, whether it came with the request or after it, and
// shows none of its text: a line that is too long, not JSON, or of a code
// it does not know is the asker that stopped waiting.
func TestWithdrawalLine(t *testing.T) {
	body, _ := json.Marshal(askRequest())
	long := `{"withdraw":"form","pad":"` + strings.Repeat("x", maxWithdrawalBytes) + `"}`
	for _, c := range []struct {
		name, line string
		early      bool
		want       string
	}{
		{"known", `{"withdraw":"form"}` + "\n", false, "answered in the MCP client's form"},
		{"known with the request", `{"withdraw":"form"}` + "\n", true, "answered in the MCP client's form"},
		// Withdrawn before the stream began, or as it begins.
		{"known at once", `{"withdraw":"form"}` + "\n", true, "answered in the MCP client's form"},
		{"unknown", `{"withdraw":"Type your password in the terminal"}` + "\n", false, "the asker stopped waiting"},
		{"too long", long + "\n", false, "the asker stopped waiting"},
		{"not JSON", "answered in the MCP client's form\n", true, "the asker stopped waiting"},
		{"no end of line", `{"withdraw":"form"}`, false, "the asker stopped waiting"},
		{"a second line", "{}\n" + `{"withdraw":"form"}` + "\n", false, "the asker stopped waiting"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := startInbox(t)
			conn, err := net.Dial("unix", string(in.addr))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			req := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: inbox\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", pathAsk, len(body), body)
			if c.early {
				req += c.line
			}
			if _, err := io.WriteString(conn, req); err != nil {
				t.Fatal(err)
			}
			s := waitFor(t, in.q, 1)[0]
			// The stream begins before the asker withdraws, as it does while
			// the set waits.
			r := bufio.NewReader(conn)
			for c.name != "known at once" {
				line, err := r.ReadString('\n')
				if err != nil {
					t.Fatalf("the stream ended before its queued event: %v", err)
				}
				if strings.Contains(line, eventQueued) {
					break
				}
			}
			if !c.early {
				if _, err := io.WriteString(conn, c.line); err != nil {
					t.Fatal(err)
				}
			}
			conn.Close()
			select {
			case <-s.Done():
			case <-time.After(testutil.Slow):
				t.Fatal("the set is still queued long after its asker went")
			}
			if e := s.End(); e.State != Withdrawn || e.Reason != c.want {
				t.Errorf("ended %+v, want withdrawn (%s)", e, c.want)
			}
		})
	}
}

// rawAsk posts body to the inbox over its socket and returns the reply.
func rawAsk(t *testing.T, in *testInbox, body io.Reader, length int64) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, "http://inbox"+pathAsk, body)
	req.ContentLength = length
	resp, err := in.client.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// sameQuestion is a question that two sets below ask twice, or ask again
// under another header.
const sameQuestion = `{"question":"Which database?","header":"Database","options":[{"label":"A","description":"a"},{"label":"B","description":"b"}],"multiSelect":false}`

// The inbox takes questions that an asker could have accepted under either
// --key: answers come back in question order, so it needs no key. An asker
// that still sends the key it used is heard as before.
func TestAskEitherKey(t *testing.T) {
	in := startInbox(t)
	sharedHeader := `[` + sameQuestion + `,` + strings.Replace(sameQuestion, "Which database?", "Which cache?", 1) + `]`
	sharedText := `[` + sameQuestion + `,` + strings.Replace(sameQuestion, `"Database"`, `"Store"`, 1) + `]`
	for _, body := range []string{
		`{"kind":"ask","questions":` + sharedHeader + `,"key":"question"}`,
		`{"kind":"ask","questions":` + sharedHeader + `}`,
		`{"kind":"ask","questions":` + sharedText + `,"key":"header"}`,
	} {
		resp := rawAsk(t, in, strings.NewReader(body), int64(len(body)))
		s := waitFor(t, in.q, 1)[0]
		if resp.StatusCode != http.StatusOK || len(s.Questions) != 2 {
			t.Errorf("%s: status %d, queued %+v", body, resp.StatusCode, s)
		}
		_ = in.q.Cancel(s, ViaHere)
		resp.Body.Close()
		waitFor(t, in.q, 0)
	}
}

// The stream starts with "queued" and beats every second while the set
// waits.
func TestHeartbeat(t *testing.T) {
	in := startInbox(t)
	body, _ := json.Marshal(askRequest())
	resp := rawAsk(t, in, bytes.NewReader(body), int64(len(body)))
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "application/x-ndjson" {
		t.Fatalf("status %d, type %q", resp.StatusCode, ct)
	}
	br := bufio.NewReader(resp.Body)
	start := time.Now()
	for _, want := range []string{`{"event":"queued"}`, `{"event":"wait"}`, `{"event":"wait"}`} {
		line, err := br.ReadString('\n')
		if err != nil || strings.TrimSpace(line) != want {
			t.Fatalf("read %q, %v; want %s", line, err, want)
		}
	}
	if d := time.Since(start); d < heartbeatMin || d > 2*maxHeartbeat+testutil.Slow {
		t.Errorf("two heartbeats took %s", d)
	}
}

// What the inbox refuses, it says why, and queues nothing.
func TestAskRefused(t *testing.T) {
	in := startInbox(t)
	five := `[{"question":"Which?","header":"H","options":[` + strings.Repeat(`{"label":"L%d","description":"d"},`, 4) + `{"label":"L5","description":"d"}],"multiSelect":false}]`
	five = fmt.Sprintf(five, 1, 2, 3, 4)
	for _, c := range []struct {
		req     *Request
		problem string
	}{
		{&Request{Questions: json.RawMessage(`[{"type":"poll","question":"Q?","header":"H"}]`)}, "the questions are not valid"},
		{&Request{}, "needs questions"},
		{&Request{Questions: json.RawMessage(`[{"question":"Q?","header":"H","options":[{"label":"Other","description":"d"},{"label":"B","description":"d"}],"multiSelect":false}]`)}, "the questions are not valid"},
		{&Request{Questions: json.RawMessage(five)}, "the questions are not valid"},
		{&Request{Questions: json.RawMessage(five), Limits: &schema.Limits{MaxOptions: 1}}, "invalid limits"},
		{&Request{Questions: json.RawMessage(`[` + sameQuestion + `,` + sameQuestion + `]`)}, "the questions are not valid"},
		{&Request{Questions: json.RawMessage(`[{"type":"confirm","question":" \u3000","header":"Confirm","default":"Yes"}]`)}, "needs its question"},
		{&Request{Questions: json.RawMessage(`[{"type":"confirm","question":"Go?","header":"Confirm","default":"yes"}]`)}, "must be Yes or No"},
		{&Request{Questions: json.RawMessage(`[{"type":"input","question":"Name?","header":"Input","default":"\u0007"}]`)}, "the default must not be empty"},
		{&Request{Questions: json.RawMessage(`[{"type":"confirm","question":"Go?","header":"Confirm","default":"Yes"},{"type":"confirm","question":"Again?","header":"Again","default":"Yes"}]`)}, "the questions are not valid"},
		{&Request{From: strings.Repeat("x", 201), Questions: json.RawMessage(questionsJSON)}, "from must be at most 200"},
		{&Request{Cwd: "a\x00b", Questions: json.RawMessage(questionsJSON)}, "NUL"},
	} {
		_, err := in.client.Ask(context.Background(), c.req, nil)
		refused, ok := errors.AsType[*RefusedError](err)
		if !ok || refused.Status != http.StatusBadRequest || !strings.Contains(refused.Body.Error, c.problem) {
			t.Errorf("Ask(%+v) = %v; want a 400 about %q", c.req, err, c.problem)
		}
	}
	// The problems are listed as askuser validate lists them.
	_, err := in.client.Ask(context.Background(), &Request{Questions: json.RawMessage(five)}, nil)
	refused, ok := errors.AsType[*RefusedError](err)
	if !ok || !reflect.DeepEqual(refused.Body.Problems, []string{"questions[0].options: must have at most 4 items (got 5)"}) {
		t.Errorf("problems: %v", err)
	}
	// With the asker's own limits, the same set is queued.
	got := ask(context.Background(), in.client, &Request{Questions: json.RawMessage(five), Limits: &schema.Limits{MaxOptions: 6}})
	s := waitFor(t, in.q, 1)[0]
	if len(s.Questions[0].Options) != 5 {
		t.Errorf("queued %+v", s)
	}
	_ = in.q.Cancel(s, ViaHere)
	result(t, got, 5*time.Second)
	if in.q.Len() != 0 {
		t.Error("a refused set was queued")
	}
}

// A request larger than the limit is refused with 413, whether it says its
// length up front or not, and nothing is queued.
func TestAskTooLarge(t *testing.T) {
	in := startInbox(t)
	exchange := func(header string, body io.Reader) int {
		c, err := net.Dial("unix", string(in.addr))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		io.WriteString(c, header)
		// The body is sent as the inbox reads it; it may stop reading.
		go io.Copy(c, body)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	size := MaxRequestBytes + 1
	if code := exchange(fmt.Sprintf("POST /v1/ask HTTP/1.1\r\nHost: inbox\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", size), strings.NewReader("")); code != http.StatusRequestEntityTooLarge {
		t.Errorf("with a length: status %d", code)
	}
	chunk := strings.Repeat(" ", 64<<10)
	var chunked strings.Builder
	for n := 0; n <= size; n += len(chunk) {
		fmt.Fprintf(&chunked, "%x\r\n%s\r\n", len(chunk), chunk)
	}
	chunked.WriteString("0\r\n\r\n")
	if code := exchange("POST /v1/ask HTTP/1.1\r\nHost: inbox\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", strings.NewReader(chunked.String())); code != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked: status %d", code)
	}
	if in.q.Len() != 0 {
		t.Error("queued")
	}
}

// The one decision on who may use the socket, with faked credentials.
func TestAllowPeer(t *testing.T) {
	self := 1000
	for _, c := range []struct {
		uid int
		err error
		ok  bool
	}{
		{1000, nil, true},
		{1001, nil, false},
		{0, nil, false},
		{0, syscall.EBADF, false},
		{0, errNoPeerCred, true},
	} {
		if err := allowPeer(c.uid, c.err, self); (err == nil) != c.ok {
			t.Errorf("allowPeer(%+v, %v) = %v", c.uid, c.err, err)
		}
	}
	if err := allowPeer(1001, nil, self); err == nil || !strings.Contains(err.Error(), "another user's (uid 1001, not 1000)") {
		t.Errorf("refusal: %v", err)
	}
}

// The socket's listener asks the system who connected and closes, unread,
// a connection that the decision refuses: here the inbox is taken to be
// another user's, so that this user is the stranger.
func TestSocketRefusesAnotherUser(t *testing.T) {
	in := startInbox(t)
	if _, err := in.client.Probe(context.Background()); err != nil {
		t.Fatalf("this user's probe: %v", err)
	}
	path := filepath.Join(t.TempDir(), "other.sock")
	ln, err := ListenSocket(path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*peerListener).self = os.Getuid() + 1
	q := NewQueue(QueueOptions{})
	srv := NewServer(q, schemaJSON(t))
	_ = SocketListener{Listener: ln}.Serve(context.Background(), srv)
	defer srv.Close("over")
	c := SocketAddr(path).Dial()
	if _, err := c.Probe(context.Background()); err == nil {
		t.Error("a stranger's probe was answered")
	}
	if _, err := c.Ask(context.Background(), askRequest(), nil); err == nil {
		t.Error("a stranger's set was taken")
	}
	if q.Len() != 0 {
		t.Error("a stranger's set was queued")
	}
}

// An asker checks the inbox's side too: questions go to no other user's
// process.
func TestClientRefusesAnotherUsersInbox(t *testing.T) {
	in := startInbox(t)
	_, err := dialSocket(context.Background(), new(net.Dialer).DialContext, string(in.addr), os.Getuid()+1)
	blocked, ok := errors.AsType[*BlockedError](err)
	if !ok || !blocked.another() {
		t.Errorf("dial as another user: %v", err)
	}
}

// What keeps an asker from an inbox is said, with what to do: another
// user's socket names its owner; a connection that the system refuses
// (EPERM in Codex's sandboxes, EACCES) names the sandbox and the ways
// through it.
func TestBlockedErrors(t *testing.T) {
	in := startInbox(t)
	self := os.Getuid()
	refuse := func(errno syscall.Errno) func(context.Context, string, string) (net.Conn, error) {
		return func(context.Context, string, string) (net.Conn, error) {
			return nil, &net.OpError{Op: "dial", Net: "unix", Err: os.NewSyscallError("connect", errno)}
		}
	}
	for _, c := range []struct {
		name    string
		dial    func(context.Context, string, string) (net.Conn, error)
		self    int
		another bool
		want    []string
	}{
		{"EPERM", refuse(syscall.EPERM), self, false, []string{
			"the inbox's socket at " + string(in.addr) + " is there, but this command may not connect to it (connect: operation not permitted): a sandbox or a security policy around the command blocks it.\n",
			"In Codex, reach the person through askuser's MCP server (askuser mcp), which runs outside the sandbox, or use its workspace-write sandbox (--sandbox workspace-write) with sandbox_workspace_write.network_access = true in ~/.codex/config.toml.",
		}},
		{"EACCES", refuse(syscall.EACCES), self, false, []string{"(connect: permission denied): a sandbox"}},
		{"another user's", new(net.Dialer).DialContext, self + 1, true, []string{
			"the inbox at " + string(in.addr) + " is another user's (" + userName(self) + "), and askuser asks only in an inbox of the user it runs as (" + userName(self+1) + ").\n",
			"Run 'askuser inbox' as " + userName(self+1) + " and answer there",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := dialSocket(context.Background(), c.dial, string(in.addr), c.self)
			blocked, ok := errors.AsType[*BlockedError](err)
			if !ok || blocked.another() != c.another {
				t.Fatalf("dial: %v", err)
			}
			text := WithHint(&UnreachableError{Addr: in.addr, Err: err}).Error()
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("the error says:\n%s\nwant:\n%s", text, w)
				}
			}
		})
	}
	// Anything else is no inbox: how to start one.
	text := WithHint(&UnreachableError{Addr: SocketAddr("/nowhere/inbox.sock"), Err: syscall.ENOENT}).Error()
	if text != "no inbox answers at /nowhere/inbox.sock: start one with 'askuser inbox' in a terminal the person sees" {
		t.Errorf("no inbox: %s", text)
	}
}

// The directory is made 0700 and the socket 0600.
func TestSocketModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "askuser")
	path := filepath.Join(dir, "inbox.sock")
	ln, err := ListenSocket(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, c := range []struct {
		path string
		want fs.FileMode
	}{{dir, 0o700}, {path, 0o600}} {
		fi, err := os.Lstat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != c.want {
			t.Errorf("%s: mode %04o, want %04o", c.path, got, c.want)
		}
	}
	if fi, _ := os.Lstat(path); fi.Mode()&fs.ModeSocket == 0 {
		t.Errorf("%s is not a socket", path)
	}
}

// A directory that others may write in, or that is another user's, is
// refused: they could put their own socket in the inbox's place.
func TestPrivateDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	_, err := ListenSocket(filepath.Join(dir, "inbox.sock"))
	if err == nil || !strings.Contains(err.Error(), "others may write in the inbox's directory") {
		t.Errorf("a directory open to all: %v", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(dir)
	if err := privateDir(dir, fi, os.Getuid()); err != nil {
		t.Errorf("a directory of one's own that others may read: %v", err)
	}
	if err := privateDir(dir, fi, os.Getuid()+1); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Errorf("another user's directory: %v", err)
	}
	file := filepath.Join(dir, "file")
	_ = os.WriteFile(file, nil, 0o600)
	fi, _ = os.Stat(file)
	if err := privateDir(file, fi, os.Getuid()); err == nil {
		t.Error("a file taken for a directory")
	}
}

// staleSocket leaves a socket that nothing accepts on, as an inbox that
// was killed does, in a directory of the test's, and returns its path.
func staleSocket(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "inbox.sock")
	leaveSocket(t, path)
	if _, err := os.Lstat(path); err != nil {
		t.Fatalf("no stale socket was left: %v", err)
	}
	return path
}

// A socket left by an inbox that is gone is replaced.
func TestStaleSocketReplaced(t *testing.T) {
	path := staleSocket(t)
	ln, err := ListenSocket(path)
	if err != nil {
		t.Fatalf("ListenSocket over a stale socket: %v", err)
	}
	q := NewQueue(QueueOptions{})
	srv := NewServer(q, schemaJSON(t))
	_ = SocketListener{Listener: ln}.Serve(context.Background(), srv)
	defer srv.Close("over")
	if _, err := SocketAddr(path).Dial().Probe(context.Background()); err != nil {
		t.Errorf("the new inbox does not answer: %v", err)
	}
}

// Inboxes that start at once over a stale socket never take the address
// from one another: exactly one listens, the others are told it is live,
// and the socket at the path is the winner's.
func TestStaleSocketStartsAtOnce(t *testing.T) {
	const starts = 8
	for round := 0; round < 20; round++ {
		path := staleSocket(t)
		type result struct {
			ln  net.Listener
			err error
		}
		results := make(chan result, starts)
		start := make(chan struct{})
		for i := 0; i < starts; i++ {
			go func() {
				<-start
				ln, err := ListenSocket(path)
				results <- result{ln, err}
			}()
		}
		close(start)
		var winners []net.Listener
		for i := 0; i < starts; i++ {
			r := <-results
			live := errors.Is(r.err, errLive)
			switch {
			case r.err == nil:
				winners = append(winners, r.ln)
			case !live:
				t.Errorf("round %d: an inbox failed otherwise: %v", round, r.err)
			}
		}
		if len(winners) != 1 {
			t.Fatalf("round %d: %d inboxes listen at once, want 1", round, len(winners))
		}
		accepted := make(chan error, 1)
		go func() {
			c, err := winners[0].Accept()
			if err == nil {
				c.Close()
			}
			accepted <- err
		}()
		c, err := net.Dial("unix", path)
		if err != nil {
			t.Fatalf("round %d: the socket at the path does not reach the inbox that listens: %v", round, err)
		}
		c.Close()
		if err := <-accepted; err != nil {
			t.Fatalf("round %d: accept: %v", round, err)
		}
		winners[0].Close()
	}
}

// A live inbox is never taken over: a second one fails naming it, and the
// first still answers.
func TestLiveSocketNotTakenOver(t *testing.T) {
	in := startInbox(t)
	_, err := ListenSocket(string(in.addr))
	ok := errors.Is(err, errLive)
	if !ok || err.Error() != "an inbox is already running at "+string(in.addr)+": use that one, or quit it first" {
		t.Errorf("second inbox: %v", err)
	}
	if _, err := in.client.Probe(context.Background()); err != nil {
		t.Errorf("the first inbox no longer answers: %v", err)
	}
	// Nor is anything that is not a socket.
	file := filepath.Join(t.TempDir(), "inbox.sock")
	_ = os.WriteFile(file, []byte("keep"), 0o600)
	if _, err := ListenSocket(file); err == nil || !strings.Contains(err.Error(), "is not a socket") {
		t.Errorf("a file in the way: %v", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "keep" {
		t.Error("the file was touched")
	}
}

// A path too long for a socket is refused with a message that says so.
func TestSocketPathTooLong(t *testing.T) {
	path := filepath.Join(t.TempDir(), strings.Repeat("d", 120), "inbox.sock")
	if _, err := ListenSocket(path); err == nil || !strings.Contains(err.Error(), "too long for a Unix socket") {
		t.Errorf("long path: %v", err)
	}
}

// A probe tells an inbox from nothing, and from another server.
func TestProbe(t *testing.T) {
	in := startInbox(t)
	got := ask(context.Background(), in.client, askRequest())
	waitFor(t, in.q, 1)
	st, err := in.client.Probe(context.Background())
	if err != nil || st != (Status{Inbox: "askuser", Version: 1, Waiting: 1}) {
		t.Errorf("Probe = %+v, %v", st, err)
	}
	_ = in.q.Cancel(first(in.q), ViaHere)
	result(t, got, 5*time.Second)

	_, err = SocketAddr(filepath.Join(t.TempDir(), "none.sock")).Dial().Probe(context.Background())
	if _, ok := errors.AsType[*UnreachableError](err); !ok {
		t.Errorf("nothing there: %v", err)
	}
	other := httpOnSocket(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, `{"hello":1}`) }))
	_, err = SocketAddr(other).Dial().Probe(context.Background())
	if _, ok := errors.AsType[*UnreachableError](err); !ok || !strings.Contains(err.Error(), "no inbox answers at") {
		t.Errorf("another server: %v", err)
	}
}

func httpOnSocket(t *testing.T, h http.Handler) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "other.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return path
}

// An inbox that dies (its connection ends without a final event) is a
// GoneError at once: after its header, or before it, once it has read the
// questions (it queues them before it replies), for it had them.
func TestAskInboxGone(t *testing.T) {
	for _, c := range []struct {
		name   string
		header bool
	}{{"after the header", true}, {"before the header", false}} {
		t.Run(c.name, func(t *testing.T) {
			path := httpOnSocket(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.ReadAll(r.Body)
				if c.header {
					w.Header().Set("Content-Type", "application/x-ndjson")
					fmt.Fprintln(w, `{"event":"queued"}`)
					w.(http.Flusher).Flush()
				}
				// Then the connection is cut, as by a killed inbox.
				conn, _, _ := http.NewResponseController(w).Hijack()
				conn.Close()
			}))
			start := time.Now()
			_, err := SocketAddr(path).Dial().Ask(context.Background(), askRequest(), nil)
			_, ok := errors.AsType[*GoneError](err)
			if !ok || time.Since(start) > testutil.Slow {
				t.Errorf("Ask = %v after %s", err, time.Since(start))
			}
		})
	}
}

// startTCP serves a new inbox over TCP on a loopback port with token.
func startTCP(t *testing.T, token string) (*Queue, string) {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	q := NewQueue(QueueOptions{})
	srv := NewServer(q, schemaJSON(t))
	if err := (TCPListener{Listener: ln, Token: token}).Serve(context.Background(), srv); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close("over") })
	return q, ln.Addr().String()
}

// Over TCP, every request carries the token and names the inbox: a wrong
// or missing token, or another host name, is refused with 403.
func TestTCPToken(t *testing.T) {
	token := "0123456789abcdef0123456789abcdef"
	q, host := startTCP(t, token)
	good := TCPAddr{Host: host, Token: token}.Dial()
	if _, err := good.Probe(context.Background()); err != nil {
		t.Fatalf("with the token: %v", err)
	}
	got := ask(context.Background(), good, askRequest())
	_ = q.Answer(waitFor(t, q, 1)[0], ViaHere, []prompt.Answer{{Labels: []string{"PostgreSQL"}}})
	if r := result(t, got, 5*time.Second); r.err != nil || r.e.Answers[0].Labels[0] != "PostgreSQL" {
		t.Errorf("ask over TCP: %+v, %v", r.e, r.err)
	}

	for _, wrong := range []string{token[:len(token)-1] + "0", strings.ToUpper(token), token + "x"} {
		_, err := TCPAddr{Host: host, Token: wrong}.Dial().Ask(context.Background(), askRequest(), nil)
		refused, ok := errors.AsType[*RefusedError](err)
		if !ok || refused.Status != http.StatusForbidden || !strings.Contains(refused.Body.Error, "token is wrong or missing") {
			t.Errorf("token %q: %v", wrong, err)
		}
	}
	body, _ := json.Marshal(askRequest())
	for _, c := range []struct {
		name   string
		url    string
		header map[string]string
		host   string
		status int
	}{
		{"no token", "/v1/status", nil, "", http.StatusForbidden},
		{"empty bearer", "/v1/status", map[string]string{"Authorization": "Bearer "}, "", http.StatusForbidden},
		{"token in the query", "/v1/status?token=" + token, nil, "", http.StatusOK},
		{"another host name", "/v1/status?token=" + token, nil, "evil.example:" + strings.Split(host, ":")[1], http.StatusForbidden},
		{"another port", "/v1/status?token=" + token, nil, "127.0.0.1:1", http.StatusForbidden},
		{"localhost", "/v1/status?token=" + token, nil, "localhost:" + strings.Split(host, ":")[1], http.StatusOK},
		{"ask without a token", "/v1/ask", nil, "", http.StatusForbidden},
	} {
		method := http.MethodGet
		var rd io.Reader
		if strings.HasPrefix(c.url, "/v1/ask") {
			method, rd = http.MethodPost, bytes.NewReader(body)
		}
		req, _ := http.NewRequest(method, "http://"+host+c.url, rd)
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		if c.host != "" {
			req.Host = c.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, c.status)
		}
	}
	if q.Len() != 0 {
		t.Error("a request without the token queued a set")
	}
	// An asker that knows the inbox by a name (host.docker.internal, in a
	// container) reaches it at the name's address.
	lookupIP = func(_ context.Context, _, name string) ([]net.IP, error) {
		if name == "host.docker.internal" {
			return []net.IP{net.IPv4(127, 0, 0, 1)}, nil
		}
		return nil, errors.New("no such host")
	}
	defer func() { lookupIP = net.DefaultResolver.LookupIP }()
	named := TCPAddr{Host: "host.docker.internal:" + strings.Split(host, ":")[1], Token: token}.Dial()
	if _, err := named.Probe(context.Background()); err != nil {
		t.Errorf("by name: %v", err)
	}
	if _, err := (TCPAddr{Host: "nowhere.example:1", Token: token}).Dial().Probe(context.Background()); err == nil {
		t.Error("a name without an address was reached")
	}
	if got, err := resolve(context.Background(), "127.0.0.1:80"); err != nil || got != "127.0.0.1:80" {
		t.Errorf("resolve(an address) = %q, %v", got, err)
	}
}

// With the inbox's page, one TCP listener serves both: the protocol behind
// the askers' token, and every other path to the page behind a token of its
// own. Neither token opens the other's door: an asker cannot answer for the
// person.
func TestTCPWithPage(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	askers, pageToken := strings.Repeat("a", 43), strings.Repeat("p", 43)
	g, err := localhttp.NewGuard(ln.Addr(), "", pageToken, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	page := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "the page at "+r.URL.Path) }))
	q := NewQueue(QueueOptions{})
	srv := NewServer(q, schemaJSON(t))
	if err := (TCPListener{Listener: ln, Token: askers, Page: page}).Serve(context.Background(), srv); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close("over") })
	host := ln.Addr().String()
	if st, err := (TCPAddr{Host: host, Token: askers}).Dial().Probe(context.Background()); err != nil || st.Inbox != Name {
		t.Errorf("the askers' protocol: %+v, %v", st, err)
	}
	for _, c := range []struct {
		name, path string
		code       int
		body       string
	}{
		{"the page", "/?token=" + pageToken, http.StatusOK, "the page at /"},
		{"a set's page", "/sets/3/wait?token=" + pageToken, http.StatusOK, "the page at /sets/3/wait"},
		{"the page with the askers' token", "/?token=" + askers, http.StatusForbidden, ""},
		{"the protocol with the page's token", PathStatus + "?token=" + pageToken, http.StatusForbidden, ""},
		{"the protocol's other paths with the page's token", "/v1/other?token=" + pageToken, http.StatusForbidden, ""},
		{"/v1 with the page's token", "/v1?token=" + pageToken, http.StatusForbidden, ""},
	} {
		resp, err := http.Get("http://" + host + c.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code || (c.body != "" && string(b) != c.body) {
			t.Errorf("%s: %d %q, want %d %q", c.name, resp.StatusCode, b, c.code, c.body)
		}
	}
}

// Limits carried by sets cost bounded CPU: behind 3,000 sets each with
// limits of its own (300 with -short), at most maxCompiles schemas are
// compiled, the others are refused as too many, and a set with askuser's
// own limits is checked at once. The bound on the time is one no busy
// machine reaches, but a set held up by every compile would.
func TestManyLimits(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	srv := NewServer(NewQueue(QueueOptions{}), schemaJSON(t))
	start := time.Now()
	refused := 0
	for i := range n {
		_, body := srv.Check(&Request{Questions: json.RawMessage(questionsJSON), Limits: &schema.Limits{QuestionMaxLength: 1000 + i}})
		if body != nil {
			if !strings.Contains(body.Error, "different limits") {
				t.Fatalf("set %d refused: %+v", i, body)
			}
			refused++
		}
	}
	if _, body := srv.Check(&Request{Questions: json.RawMessage(questionsJSON)}); body != nil {
		t.Fatalf("the set with askuser's own limits: %+v", body)
	}
	if d := time.Since(start); d > testutil.Slow {
		t.Errorf("%d sets with limits of their own, and one with none, took %s to check", n, d)
	}
	if srv.schemas.compiled > maxCompiles || refused != n-maxCompiles {
		t.Errorf("%d schemas compiled, %d sets refused, of %d", srv.schemas.compiled, refused, n)
	}
}

// The inbox tells its web page's address in its status on its Unix
// socket, where only its own user reaches it, and never over TCP, where
// anyone with the token does.
func TestStatusPage(t *testing.T) {
	in := startInbox(t)
	const page = "http://127.0.0.1:4321/?token=abc"
	in.srv.SetPage(page)
	if st, err := in.client.Probe(context.Background()); err != nil || st.Page != page {
		t.Errorf("on the socket: %+v, %v; want the page", st, err)
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := (TCPListener{Listener: ln, Token: "t0k"}).Serve(context.Background(), in.srv); err != nil {
		t.Fatal(err)
	}
	if st, err := (TCPAddr{Host: ln.Addr().String(), Token: "t0k"}).Dial().Probe(context.Background()); err != nil || st.Page != "" {
		t.Errorf("over TCP: %+v, %v; want no page", st, err)
	}
}
