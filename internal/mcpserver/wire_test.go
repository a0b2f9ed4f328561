package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// rawClient speaks to a server line by line, as a client that writes
// anything at all would.
type rawClient struct {
	t      *testing.T
	in     *io.PipeWriter
	msgs   chan map[string]any
	stderr *testutil.Buffer
	seen   []map[string]any // messages read and not yet claimed
}

// serveRaw runs a server with o, completed as serve completes it, and
// connects a raw client that has initialised the session at version.
func serveRaw(t *testing.T, o Options, version string) *rawClient {
	t.Helper()
	c := &rawClient{t: t, msgs: make(chan map[string]any, 64), stderr: &testutil.Buffer{}}
	o.Log = c.stderr
	complete(&o)
	serverIn, in := io.Pipe()
	out, serverOut := io.Pipe()
	c.in = in
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- New(o).Run(ctx, serverIn, serverOut) }()
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			// A batch's replies come as one array.
			var batch []map[string]any
			if json.Unmarshal(sc.Bytes(), &batch) == nil {
				for _, m := range batch {
					c.msgs <- m
				}
				continue
			}
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("the server wrote a line that is not a JSON object: %q", sc.Text())
				continue
			}
			c.msgs <- m
		}
		close(c.msgs)
	}()
	t.Cleanup(func() {
		cancel()
		in.Close()
		if err := <-ran; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	c.reply(0)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func (c *rawClient) send(line string) {
	c.t.Helper()
	wrote := make(chan error, 1)
	go func() {
		_, err := io.WriteString(c.in, line+"\n")
		wrote <- err
	}()
	select {
	case err := <-wrote:
		if err != nil {
			c.t.Fatalf("write %.80q: %v", line, err)
		}
	case <-time.After(10 * time.Second):
		c.in.CloseWithError(io.ErrClosedPipe)
		c.t.Fatalf("the server reads no more: %.80q waits; stderr:\n%s", line, c.stderr)
	}
}

// reply waits for the response to id (a number or a string) and returns
// it; the other messages read meanwhile are kept for next.
func (c *rawClient) reply(id any) map[string]any {
	c.t.Helper()
	want, _ := json.Marshal(id)
	for i, m := range c.seen {
		if got, _ := json.Marshal(m["id"]); string(got) == string(want) && m["method"] == nil {
			c.seen = append(c.seen[:i], c.seen[i+1:]...)
			return m
		}
	}
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("the server closed its output before replying to %s; stderr:\n%s", want, c.stderr)
			}
			if got, _ := json.Marshal(m["id"]); string(got) == string(want) && m["method"] == nil {
				return m
			}
			c.seen = append(c.seen, m)
		case <-timeout:
			c.t.Fatalf("no reply to %s; stderr:\n%s", want, c.stderr)
		}
	}
}

// next returns the oldest message read and not yet claimed, if any.
func (c *rawClient) next() (map[string]any, bool) {
	if len(c.seen) == 0 {
		return nil, false
	}
	m := c.seen[0]
	c.seen = c.seen[1:]
	return m, true
}

// errorCode is the code of the error response m, 0 when m is none.
func errorCode(m map[string]any) int {
	e, ok := m["error"].(map[string]any)
	if !ok {
		return 0
	}
	n, _ := e["code"].(float64)
	return int(n)
}

// held is a way whose questions are answered with SQLite when release is
// closed.
func held(release <-chan struct{}) ask.Way {
	return ask.Way{Name: "inbox", Open: func(context.Context) (*ask.Opened, error) {
		return &ask.Opened{Prompter: askerFunc(func(ctx context.Context, _ []schema.Question) ([]prompt.Answer, error) {
			select {
			case <-release:
				return []prompt.Answer{{Labels: []string{"SQLite"}}}, nil
			case <-ctx.Done():
				return nil, context.Cause(ctx)
			}
		})}, nil
	}}
}

var callLine = `{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"askuser","arguments":` + strings.ReplaceAll(string(questionArgs), "\n\t", "") + `}}`

// The server survives any line: one that is not JSON gets a parse error
// (-32700), one that is not a request an invalid-request error (-32600),
// with the request's id when one can be read and null when not; each is
// logged on stderr. Serving goes on: the request after each is answered,
// and so is the call that waited all along.
func TestWireSurvivesAnyLine(t *testing.T) {
	release := make(chan struct{})
	c := serveRaw(t, Options{Route: route(ask.UIInbox, held(release), ask.Way{})}, "2025-11-25")
	c.send(fmt.Sprintf(callLine, `"waiting"`))

	deep := `{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"a":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}`
	huge := `{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"a":"` + strings.Repeat("x", mcp.DefaultMaxLineLength) + `"}}`
	for i, tc := range []struct {
		name, line string
		code       int
		id         any // the id of the error response: nil for null
	}{
		{"not JSON", `hello`, -32700, nil},
		{"cut short", `{"jsonrpc":"2.0","id":1,"method":`, -32700, nil},
		{"empty object", `{}`, -32600, nil},
		{"empty array", `[]`, -32600, nil},
		{"trailing data", `{"jsonrpc":"2.0","id":"t","method":"ping"} {}`, -32700, nil},
		{"object as id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, nil},
		{"no version", `{"id":"v","method":"ping"}`, -32600, "v"},
		{"nested deeper than 1000", deep, -32600, "deep"},
		{"over 16 MiB", huge, -32600, "huge"},
		{"a string", `"ping"`, -32600, nil},
		{"a batch, which 2025-11-25 does not have", `[{"jsonrpc":"2.0","id":"b","method":"ping"}]`, -32600, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			c.send(tc.line)
			c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+i))
			if r := c.reply(100 + i); errorCode(r) != 0 {
				t.Errorf("the ping after it failed: %v", r)
			}
			var got map[string]any
			if tc.id == nil {
				got, _ = c.next()
			} else {
				got = c.reply(tc.id)
			}
			if errorCode(got) != tc.code || got["id"] != tc.id {
				t.Errorf("reply %v, want error %d with id %v", got, tc.code, tc.id)
			}
			if m, ok := c.next(); ok {
				t.Errorf("another message: %v", m)
			}
		})
	}
	c.t = t
	if n := strings.Count(c.stderr.String(), "askuser mcp: refused a message"); n != 11 {
		t.Errorf("stderr logs %d refusals, want 11:\n%s", n, c.stderr)
	}
	close(release)
	if r := c.reply("waiting"); r["result"] == nil || !strings.Contains(fmt.Sprint(r["result"]), "SQLite") {
		t.Errorf("the call that waited: %v", r)
	}
}

// A request the client cancelled gets no reply; a request that reuses the
// id of one still in flight gets an error, and the first still gets its
// own reply.
func TestWireCancelledAndDuplicateIDs(t *testing.T) {
	release := make(chan struct{})
	c := serveRaw(t, Options{Route: route(ask.UIInbox, held(release), ask.Way{})}, "2025-11-25")
	c.send(fmt.Sprintf(callLine, `7`))
	c.send(fmt.Sprintf(callLine, `"gone"`))
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"gone","reason":"the user pressed Esc"}}`)

	c.send(fmt.Sprintf(callLine, `7`))
	if r := c.reply(7); errorCode(r) != -32600 || !strings.Contains(fmt.Sprint(r["error"]), "in flight") {
		t.Errorf("the second request with id 7: %v, want an invalid-request error", r)
	}
	close(release)
	if r := c.reply(7); r["result"] == nil {
		t.Errorf("the first request with id 7: %v, want its result", r)
	}
	// The cancelled call ended at once; a ping sent after it is answered,
	// and nothing answers the cancelled call before or after.
	time.Sleep(100 * time.Millisecond)
	c.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	c.reply("after")
	for {
		m, ok := c.next()
		if !ok {
			break
		}
		t.Errorf("a message besides the replies: %v", m)
	}
	// Once answered, an id may be used again.
	c.send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if r := c.reply(7); errorCode(r) != 0 {
		t.Errorf("id 7 used again: %v", r)
	}
}

// Protocol versions before 2025-06-18 have batches: one that the SDK reads
// is passed on, and answered as a batch.
func TestWireBatches(t *testing.T) {
	c := serveRaw(t, Options{}, "2025-03-26")
	c.send(`[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","id":"b","method":"ping"}]`)
	c.reply("a")
	c.reply("b")
	c.send(`[{"jsonrpc":"2.0","id":"c","method":"ping"},{"jsonrpc":"2.0","id":{},"method":"ping"}]`)
	c.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	c.reply("after")
	if m, _ := c.next(); errorCode(m) != -32600 {
		t.Errorf("a batch with a bad message: %v, want an invalid-request error", m)
	}
}

// A call without arguments is judged as one whose arguments are an empty
// object: a tool error that says what the questions lack.
func TestCallWithoutArguments(t *testing.T) {
	c := serveRaw(t, Options{}, "2025-11-25")
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"askuser"}}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"askuser","arguments":{}}}`)
	none, empty := fmt.Sprint(c.reply(1)["result"]), fmt.Sprint(c.reply(2)["result"])
	if none != empty || !strings.Contains(none, "isError:true") || !strings.Contains(none, "questions") {
		t.Errorf("without arguments: %s\nwith an empty object: %s", none, empty)
	}
}
