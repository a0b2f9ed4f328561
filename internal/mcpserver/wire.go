package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"
)

// The SDK's stdio transport ends the session at the first line it cannot
// read (not JSON, trailing data, an id that is an object, nesting deeper
// than it decodes, a line over its limit), and the call that waited gets
// no reply (modelcontextprotocol/go-sdk#1209). It answers a request the
// client cancelled (go-sdk#1235). And it drops a request that reuses the
// id of one in flight without a word: v1.8.0 refuses it but clears its id
// first, so that the refusal is never sent (no issue is filed upstream).
// A wire stands between the client and the transport and keeps
// JSON-RPC's rules instead: it passes on only the messages the SDK reads
// (checked with the SDK's own decoder), answers the others itself, and on
// the way out drops the replies to cancelled requests. Once the SDK does
// all three, the wire goes, and the session reads stdin itself.
type wire struct {
	out io.Writer // stdout
	log io.Writer // stderr

	mu sync.Mutex
	// inFlight holds the id of each request of the client's that has not
	// been answered yet: true once the client cancelled it.
	inFlight map[jsonrpc.ID]bool
	// calls hold the key of each tools/call in flight (see callKey), for
	// timedOut.
	calls    map[jsonrpc.ID]string
	timedOut func(key string) // see Server.noteTimedOut
	initID   jsonrpc.ID       // the initialize request's, to read the version
	version  string           // the protocol version the session speaks
	wrote    chan struct{}
}

// maxLine is the longest line read, as the SDK's own limit.
const maxLine = mcp.DefaultMaxLineLength

// idPrefix is how much of a line over maxLine is kept, to read its id.
const idPrefix = 64 << 10

// pump reads the client's lines from in and writes those the SDK may read
// to feed, answering the others, until in ends.
func (w *wire) pump(in io.Reader, feed *io.PipeWriter) {
	r := bufio.NewReaderSize(in, idPrefix)
	for {
		line, tooLong, err := readLine(r)
		line = bytes.TrimSpace(line)
		switch {
		case tooLong:
			w.refuse(readID(line), jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: message over %d MiB", maxLine>>20))
		case len(line) > 0 && w.admit(line):
			if _, werr := feed.Write(append(line, '\n')); werr != nil {
				return
			}
		}
		if err != nil {
			// The session ends when it reads the end: the requests just
			// sent (a ping, a list) are answered first, and the calls that
			// wait for a person are withdrawn as the session ends. The
			// session reads err, which is io.EOF at the end of the input.
			w.settle(settleGrace)
			_ = feed.CloseWithError(err)
			return
		}
	}
}

// readLine reads one line. A line longer than maxLine is read to its end
// and dropped, and only its first idPrefix bytes are returned.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong && len(line)+len(chunk) > maxLine+1 {
			tooLong = true
			line = append(line, chunk[:min(len(chunk), max(idPrefix-len(line), 0))]...)
		} else if !tooLong {
			line = append(line, chunk...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, tooLong, err
		}
	}
}

// admit reports whether line, one line of the client's without its line
// break, is a message the SDK may read; it answers one that is not.
func (w *wire) admit(line []byte) bool {
	if !json.Valid(line) {
		w.refuse(nil, jsonrpc.CodeParseError, "Parse error: a line must hold one JSON value")
		return false
	}
	if line[0] == '[' {
		w.mu.Lock()
		why := w.batchProblem(line)
		w.mu.Unlock()
		if why != "" {
			w.refuse(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: "+why)
		}
		return why == ""
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		w.refuse(readID(line), jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
		return false
	}
	req, ok := msg.(*jsonrpc.Request)
	if ok && !req.IsCall() && req.Method == "notifications/cancelled" {
		w.cancel(req.Params)
	}
	if !ok || !req.IsCall() {
		return true
	}
	w.mu.Lock()
	_, busy := w.inFlight[req.ID]
	if !busy {
		w.track(req)
	}
	w.mu.Unlock()
	if busy {
		w.refuse(rawID(req.ID), jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: id %v is in use by a request still in flight", rawID(req.ID)))
	}
	return !busy
}

// batchProblem says what keeps the SDK from reading line, a batch of
// messages, which protocol versions before 2025-06-18 allow; or marks its
// requests in flight and returns "". w.mu is held.
func (w *wire) batchProblem(line []byte) string {
	var raws []json.RawMessage
	_ = json.Unmarshal(line, &raws)
	switch {
	case len(raws) == 0:
		return "an empty batch"
	case w.version >= "2025-06-18":
		return "protocol " + w.version + " has no batches"
	}
	ids := map[jsonrpc.ID]*jsonrpc.Request{}
	for _, raw := range raws {
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return "in a batch: " + err.Error()
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			if _, busy := w.inFlight[req.ID]; busy || ids[req.ID] != nil {
				return fmt.Sprintf("in a batch: id %s is in use", rawID(req.ID))
			}
			ids[req.ID] = req
		}
	}
	for _, req := range ids {
		w.track(req)
	}
	return ""
}

// track marks req, a request of the client's, in flight, and notes the
// initialize request's id and a tools/call's key. w.mu is held.
func (w *wire) track(req *jsonrpc.Request) {
	w.inFlight[req.ID] = false
	switch req.Method {
	case "initialize":
		w.initID = req.ID
	case "tools/call":
		var c mcp.CallToolParamsRaw
		if json.Unmarshal(req.Params, &c) == nil {
			w.calls[req.ID] = callKey(c.Name, c.Arguments)
		}
	}
}

// cancel marks the request that a notifications/cancelled names: its
// reply is not sent. A call cancelled for a time limit of the client's own
// is told to timedOut, before the SDK hears of the cancel.
func (w *wire) cancel(params json.RawMessage) {
	// Read as the SDK reads it: a cancel it cannot read cancels nothing.
	var p mcp.CancelledParams
	if json.Unmarshal(params, &p) != nil {
		return
	}
	// An id that is none, or none the SDK reads, names no request.
	id, _ := jsonrpc.MakeID(p.RequestID)
	w.mu.Lock()
	if _, ok := w.inFlight[id]; ok {
		w.inFlight[id] = true
	}
	key, call := w.calls[id]
	w.mu.Unlock()
	if call && timeoutReason.MatchString(p.Reason) {
		w.timedOut(key)
	}
}

// refuse answers a message that the SDK is not given, with id (null when
// nil), and logs it.
func (w *wire) refuse(id json.RawMessage, code int, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	reply, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: msg}})
	_, _ = fmt.Fprintf(w.log, "askuser mcp: refused a message (%d, id %s): %s\n", code, id, msg)
	w.mu.Lock()
	defer w.mu.Unlock()
	_, _ = w.out.Write(append(reply, '\n'))
}

// readID reads the id of a message that the SDK would not read: the
// top-level "id" when it is a string or a number, else nil. gjson reads
// the line only as far as the id, so a message cut short or nested too
// deep after it still gives it.
func readID(line []byte) json.RawMessage {
	id := gjson.GetBytes(line, "id")
	if id.Type != gjson.String && id.Type != gjson.Number {
		return nil
	}
	return json.RawMessage(id.Raw)
}

// rawID returns id as JSON.
func rawID(id jsonrpc.ID) json.RawMessage {
	b, _ := json.Marshal(id.Raw())
	return b
}

// Write writes one message of the SDK's, or a batch of them, as it writes
// them: a reply to a request the client cancelled is dropped.
func (w *wire) Write(p []byte) (int, error) {
	msgs := gjson.ParseBytes(p).Array()
	w.mu.Lock()
	defer w.mu.Unlock()
	drop := false
	for _, m := range msgs {
		if m.Get("method").Exists() {
			continue // a request or a notification of the server's
		}
		id, _ := jsonrpc.MakeID(m.Get("id").Value())
		// The protocol says so: the client has stopped waiting for it.
		drop = len(msgs) == 1 && w.inFlight[id]
		delete(w.inFlight, id)
		delete(w.calls, id)
		if id == w.initID && !m.Get("error").Exists() {
			w.version = m.Get("result.protocolVersion").Str
		}
	}
	close(w.wrote)
	w.wrote = make(chan struct{})
	if drop {
		return len(p), nil
	}
	return w.out.Write(p)
}

// Close leaves stdout open: it is the process's, not the session's.
func (w *wire) Close() error { return nil }

// settleGrace is how long the end of the input waits for the replies to
// the requests before it.
const settleGrace = 250 * time.Millisecond

// settle waits until every request read has been answered, or for at
// most d, once the input has ended; the calls still unanswered then are
// not awaited again: once the SDK reads the end, it writes no reply.
func (w *wire) settle(d time.Duration) {
	w.wait(d, func() bool { return len(w.inFlight) == 0 })
	w.mu.Lock()
	defer w.mu.Unlock()
	clear(w.calls)
}

// await waits until every tools/call read has been answered, or for at
// most d.
func (w *wire) await(d time.Duration) {
	w.wait(d, func() bool { return len(w.calls) == 0 })
}

// wait waits, for at most d, until done reports true: done is called with
// w.mu held, at first and after each message written.
func (w *wire) wait(d time.Duration, done func() bool) {
	deadline := time.After(d)
	for {
		w.mu.Lock()
		ok, wrote := done(), w.wrote
		w.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-wrote:
		case <-deadline:
			return
		}
	}
}
