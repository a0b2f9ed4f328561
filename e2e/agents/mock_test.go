//go:build heavy

package agents

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// The mock model APIs script one tool call. The first request that offers
// the tool gets the call; the request that carries the call's result has it
// recorded and gets a final text; any other request (titles, summaries,
// checks the CLIs make on the side) gets a short text.

// finalText is what the scripted model says once it has the tool's result.
const finalText = "Done."

// toolCall is the one call a mock makes: the tool it names (the CLI's
// shell tool or askuser's MCP tool, as the CLI calls it) and its
// arguments.
type toolCall struct {
	Name string
	Args map[string]any
}

// bridge is the tool through which Qwen Code has the model call the tools
// it defers, after a tool_search: tool_call, with the tool's name and its
// arguments.
const bridge = "tool_call"

// target is the tool the call runs: the one it names, or the one it
// calls through the bridge.
func (c toolCall) target() string {
	if name, ok := c.Args["name"].(string); ok && c.Name == bridge {
		return name
	}
	return c.Name
}

// argsJSON is the call's arguments as JSON text.
func (c toolCall) argsJSON() string {
	b, err := json.Marshal(c.Args)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// mock is one scripted model API on 127.0.0.1.
type mock struct {
	t      *testing.T
	srv    *httptest.Server
	call   toolCall
	callID string
	// then are the calls that the mock makes after the first, each once
	// the result of the one before came back (the Messages, Gemini and
	// Chat Completions APIs make them).
	then []toolCall
	// done, when set, ends the calls early: no call follows a result it
	// says yes to.
	done func(text string) bool

	mu       sync.Mutex
	sent     time.Time       // when the tool call went out
	sentAt   []time.Time     // when each call went out, the first and those after
	result   string          // the tool result the CLI sent back
	isError  bool            // whether the CLI marked it as an error
	results  []result        // the result of each call, in order
	schema   json.RawMessage // the called tool's input schema, as offered
	got      chan struct{}
	requests []string        // method and path of every request, for failures
	names    map[string]bool // every tool any request offered
}

// result is the tool result of one call, as the CLI sent it back.
type result struct {
	text    string
	isError bool
}

// newMock serves handler on a loopback address for the scripted call.
func newMock(t *testing.T, call toolCall, handler func(*mock) http.Handler) *mock {
	m := &mock{t: t, call: call, callID: "call_askuser_1", got: make(chan struct{})}
	h := handler(m)
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		m.requests = append(m.requests, r.Method+" "+r.URL.String())
		m.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(m.srv.Close)
	return m
}

// URL is the API's base address.
func (m *mock) URL() string { return m.srv.URL }

// calling notes that the tool call is being sent now. It reports false
// when it was sent before: a CLI that asks again gets text instead.
func (m *mock) calling() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.sent.IsZero() {
		return false
	}
	m.sent = time.Now()
	m.sentAt = append(m.sentAt, m.sent)
	return true
}

// offered keeps the input schema of the tool the mock calls, as the CLI
// offered it to the model.
func (m *mock) offered(schema json.RawMessage) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.schema = schema
}

// Schema is the called tool's input schema as the model saw it.
func (m *mock) Schema() json.RawMessage {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.schema
}

// record keeps the tool result the CLI sent back for the call the mock
// made last. It returns the next call to make, with its ID, if one is left.
func (m *mock) record(text string, isError bool) (toolCall, string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.results = append(m.results, result{text, isError})
	if len(m.results) == 1 {
		m.result, m.isError = text, isError
		close(m.got)
	}
	if len(m.results) > len(m.then) || m.done != nil && m.done(text) {
		return toolCall{}, "", false
	}
	m.sentAt = append(m.sentAt, time.Now())
	return m.then[len(m.results)-1], m.currentID(), true
}

// currentID is the ID of the call the mock made last, of the first
// (m.callID) and those it made then. m.mu is held.
func (m *mock) currentID() string {
	if len(m.results) == 0 {
		return m.callID
	}
	return fmt.Sprintf("%s_then%d", m.callID, len(m.results))
}

// pending is the ID of the call whose result the mock waits for.
func (m *mock) pending() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.currentID()
}

// SentAt is when the nth call (from 1) went out, zero if it did not.
func (m *mock) SentAt(n int) time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n > len(m.sentAt) {
		return time.Time{}
	}
	return m.sentAt[n-1]
}

// Results are the results of every call made, in order.
func (m *mock) Results() []result {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]result(nil), m.results...)
}

// Sent is when the tool call went out, zero if it never did.
func (m *mock) Sent() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sent
}

// Result is the tool result the model received, and whether it came.
func (m *mock) Result() (text string, isError, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	select {
	case <-m.got:
		return m.result, m.isError, true
	default:
		return "", false, false
	}
}

// Requests lists the requests the mock was sent.
func (m *mock) Requests() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.requests, "\n")
}

// tools notes the tools a request offered the model.
func (m *mock) tools(names []string) {
	m.note("tools %v", names)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.names == nil {
		m.names = map[string]bool{}
	}
	for _, n := range names {
		m.names[n] = true
	}
}

// Offers reports whether any request offered the model the tool name.
func (m *mock) Offers(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.names[name]
}

// note adds a line to the request log.
func (m *mock) note(format string, args ...any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests = append(m.requests, "  "+fmt.Sprintf(format, args...))
}

// decode reads a JSON request body into v, answering 400 when it is not.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		http.Error(w, fmt.Sprintf("bad request body: %v", err), http.StatusBadRequest)
		return false
	}
	return true
}

// sse writes server-sent events, each named when event is not empty.
type sse struct {
	w http.ResponseWriter
}

func newSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

func (s sse) send(event string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		panic(err)
	}
	if event != "" {
		fmt.Fprintf(s.w, "event: %s\n", event)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", b)
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

// textOf joins the text of a tool result given as a string or as a list of
// content blocks.
func textOf(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var blocks []struct{ Type, Text string }
	if json.Unmarshal(content, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			parts = append(parts, b.Text)
		}
		return strings.Join(parts, "\n")
	}
	return string(content)
}

func mustUnmarshal(s string, v any) {
	if err := json.Unmarshal([]byte(s), v); err != nil {
		panic(err)
	}
}
