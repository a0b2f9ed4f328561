package inbox

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/askuser/askuser/prompt/web/localhttp"
	"github.com/askuser/askuser/schema"
	"github.com/askuser/askuser/schema/jsonout"
)

// The limits of a request. The questions are at most schema.MaxInputSize,
// as on the command line; the rest of the envelope is small.
const (
	// MaxRequestBytes is the largest body of POST /v1/ask.
	MaxRequestBytes = schema.MaxInputSize + 64<<10
	// MaxFrom and maxCwdLength bound where a set says it came from, in
	// characters: the askers cut a longer name to MaxFrom (cmd's inboxOptions),
	// and the inbox refuses one past it.
	MaxFrom      = 200
	maxCwdLength = 4096
	// writeGrace is how long an asker may take to take in one event
	// before it is taken for gone.
	writeGrace = 10 * time.Second
	// stopGrace is how long the requests in flight are given to finish
	// when the inbox quits: long enough for every waiting asker to be told.
	stopGrace = time.Second
)

// Server serves a Queue to askers: with net/http on the inbox's Unix socket
// (SocketListener) and over TCP behind the token (TCPListener), or through
// the Listener of an address on a server (NATS). Each net/http listener
// gets a localhttp.Server, with its limits on the time and size of
// requests.
type Server struct {
	queue   *Queue
	schemas schemaCache
	page    atomic.Value // the web page's address, a string, for Status on the Unix socket

	// late ends once Close has given the waits their grace: the
	// connections of the askers still waiting, taken over from net/http
	// (see streamWait), are closed then.
	late      context.Context
	closeLate context.CancelFunc

	// mu orders what is added (stops, waits) against Close, which takes it
	// once it has closed the queue: the server is closed with its queue.
	mu sync.Mutex
	// stops stop the servers of the transports that carry HTTP (Serve),
	// and the feeds of those that do not (OnClose).
	stops  []func()
	wg     sync.WaitGroup
	failed chan error
}

// NewServer returns a server of q that validates the questions that
// arrive against schemaJSON, the embedded schema.
func NewServer(q *Queue, schemaJSON []byte) *Server {
	s := &Server{queue: q, schemas: schemaCache{raw: schemaJSON, m: map[schema.Limits]*schema.Schema{}}, failed: make(chan error, 4)}
	s.late, s.closeLate = context.WithCancel(context.Background())
	return s
}

// Queue returns the queue the server serves.
func (s *Server) Queue() *Queue { return s.queue }

// Failed returns a channel that receives the error of a listener that
// stopped accepting connections.
func (s *Server) Failed() <-chan error { return s.failed }

// Serve serves h on ln until Close, with the limits of every listener of
// the inbox, so that the inbox's quitting ends its waits too: handler
// behind a transport's checks, or the inbox's web page (which checks its
// requests itself).
func (s *Server) Serve(ln net.Listener, h http.Handler) {
	srv := localhttp.NewServer(h)
	s.OnClose(func() {
		srv.Stop(stopGrace)
		// Stopped before it serves, srv closes ln only once it does, in
		// its own time: the socket file goes now, with Close.
		_ = ln.Close()
	})
	go func() {
		if err := srv.Serve(ln); err != nil {
			select {
			case s.failed <- fmt.Errorf("serve the inbox on %s: %w", ln.Addr(), err):
			default:
			}
		}
	}()
}

// Close closes the queue with reason, so that every waiting asker is told,
// gives the requests in flight and the waits a moment to finish, and stops
// serving. The socket file is removed with its listener.
func (s *Server) Close(reason string) {
	s.queue.Close(reason)
	s.mu.Lock()
	stops := s.stops
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, stop := range stops {
		wg.Go(stop)
	}
	// The waits are given the same grace to tell their askers.
	late := time.AfterFunc(stopGrace, s.closeLate)
	defer late.Stop()
	wg.Wait()
	s.wg.Wait()
}

// OnClose has Close call stop, or calls it now when the server is closed:
// for the servers of the transports that carry HTTP (Serve), and the feeds
// of those that do not.
func (s *Server) OnClose(stop func()) {
	s.mu.Lock()
	closed := s.queue.Snapshot().Closed
	if !closed {
		s.stops = append(s.stops, stop)
	}
	s.mu.Unlock()
	if closed {
		stop()
	}
}

// handler is the protocol's handler, the same behind every transport
// that carries HTTP.
func (s *Server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+PathStatus, s.serveStatus)
	mux.HandleFunc("POST "+pathAsk, s.serveAsk)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, ErrorBody{Error: "not found: an askuser inbox serves " + PathStatus + " and " + pathAsk})
	})
	return mux
}

func (s *Server) serveStatus(w http.ResponseWriter, r *http.Request) {
	st := Status{Inbox: Name, Version: Version, Waiting: s.queue.Len()}
	if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && local.Network() == "unix" {
		st.Page, _ = s.page.Load().(string)
	}
	writeJSON(w, http.StatusOK, st)
}

// SetPage sets the address of the inbox's web page, with its token, which
// the status tells on the Unix socket only (see Status).
func (s *Server) SetPage(url string) { s.page.Store(url) }

// serveAsk queues the set a request holds and streams its wait to the
// asker, until the set ends or the asker goes.
func (s *Server) serveAsk(w http.ResponseWriter, r *http.Request) {
	req, ok := readRequest(w, r)
	if !ok {
		return
	}
	set, refused := s.Check(req)
	if refused != nil {
		writeJSON(w, http.StatusBadRequest, refused)
		return
	}
	ahead, err := s.startWait(set)
	if err != nil {
		writeJSON(w, http.StatusServiceUnavailable, ErrorBody{Error: "the inbox is closing"})
		return
	}
	s.streamWait(w, set, ahead)
}

// readRequest reads the body of POST /v1/ask, of at most MaxRequestBytes.
// When it cannot, it has refused the request, before its set is looked
// at.
func readRequest(w http.ResponseWriter, r *http.Request) (_ *Request, ok bool) {
	refuse := func(code int, msg string) (*Request, bool) {
		writeJSON(w, code, ErrorBody{Error: msg})
		return nil, false
	}
	if r.ContentLength > MaxRequestBytes {
		return refuse(http.StatusRequestEntityTooLarge, "the request is too large")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequestBytes))
	_, tooLarge := errors.AsType[*http.MaxBytesError](err)
	switch {
	case tooLarge:
		return refuse(http.StatusRequestEntityTooLarge, "the request is too large")
	case err != nil:
		return refuse(http.StatusBadRequest, "the request could not be read")
	}
	var req Request
	if err := json.Unmarshal(body, &req); err != nil {
		return refuse(http.StatusBadRequest, "the request is not JSON: "+err.Error())
	}
	return &req, true
}

// streamWait answers the request of set, queued with ahead sets before
// it, with the header of its stream, and then carries the stream on the
// connection taken over from net/http (see stream). The wait has been
// counted (startWait); streamWait ends it.
//
// A waiting asker may wait for hours, and thousands may wait at once: the
// connection is taken over (Hijack) once the header is out, so that each
// waits with a connection and two small goroutines rather than with what
// net/http keeps for a request in progress (its buffers of 10 KiB, its
// request and two goroutines of its own), which at 10,000 askers was most
// of the inbox's memory. net/http frames a reply whose Transfer-Encoding
// is "identity" by the end of the connection, as it does for Server-Sent
// Events, so that after the header the stream is the events alone, which
// a client reads as the body until the connection ends.
func (s *Server) streamWait(w http.ResponseWriter, set *Set, ahead int) {
	h := w.Header()
	h.Set("Content-Type", "application/x-ndjson")
	h.Set("Cache-Control", "no-store")
	h.Set("Transfer-Encoding", "identity")
	w.WriteHeader(http.StatusOK)
	// Hijack sends the header first. The reader it returns may hold the
	// start of what the asker sent after its request: its Withdrawal.
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Every listener of the server serves HTTP/1.1, which can be
		// taken over: this is a bug, and the asker sees its stream end.
		s.queue.Withdraw(set, "the inbox could not keep the asker's connection")
		s.wg.Done()
		return
	}
	from := io.MultiReader(io.LimitReader(brw, int64(brw.Reader.Buffered())), conn)
	// A write that the asker holds up past Close's grace ends with its
	// connection.
	closeLate := context.AfterFunc(s.late, func() { _ = conn.Close() })
	go func() {
		defer s.wg.Done()
		defer closeLate()
		s.stream(conn, bufio.NewReaderSize(from, maxWithdrawalBytes+1), set, ahead)
	}()
}

// wait is the heartbeat's line.
var wait = []byte(`{"event":"wait"}` + "\n")

// stream carries the wait of set on conn, its asker's connection, which
// it reads from from: the "queued" event, a heartbeat, then the final
// event; the set is withdrawn when the asker goes, for the reason its
// Withdrawal gives. It closes conn.
func (s *Server) stream(conn net.Conn, from *bufio.Reader, set *Set, ahead int) {
	defer func() { _ = conn.Close() }()
	send := func(line []byte) error {
		_ = conn.SetWriteDeadline(time.Now().Add(writeGrace))
		_, err := conn.Write(line)
		return err
	}
	if send(eventLine(Event{Event: eventQueued, Ahead: ahead})) != nil {
		// An asker that withdrew at once may have said why before it went.
		why := "the asker went away"
		_ = conn.SetReadDeadline(time.Now().Add(withdrawalWait))
		if code := readWithdrawal(from); code != "" {
			why = WithdrawReason(code)
		}
		s.queue.Withdraw(set, why)
		return
	}
	gone := make(chan struct{})
	// why is the reason that the asker's Withdrawal gives, read before gone
	// is closed.
	why := reasonStopped
	go func() {
		defer close(gone)
		// The asker sends nothing more than its Withdrawal: a read returns
		// when it goes, or when conn is closed here.
		why = WithdrawReason(readWithdrawal(from))
		_, _ = io.Copy(io.Discard, from)
	}()
	t := time.NewTimer(heartbeat(s.queue.Len()))
	defer t.Stop()
	for {
		select {
		case <-set.Done():
			if e, ok := FinalEvent(set); ok {
				_ = send(eventLine(e))
			}
			return
		case <-gone:
			s.queue.Withdraw(set, why)
			return
		case <-t.C:
			if send(wait) != nil {
				s.queue.Withdraw(set, "the asker went away")
				return
			}
			t.Reset(heartbeat(s.queue.Len()))
		}
	}
}

// withdrawalWait is how long the inbox waits for the Withdrawal of an
// asker that went before its set's stream began.
const withdrawalWait = 100 * time.Millisecond

// readWithdrawal reads the asker's Withdrawal from r, one line of at most
// maxWithdrawalBytes (r holds no more, with its newline), and returns its
// code: "" for anything else, or for nothing before r ends. What follows
// the line is left in r.
func readWithdrawal(r *bufio.Reader) string {
	var w Withdrawal
	if line, err := r.ReadSlice('\n'); err != nil || json.Unmarshal(line, &w) != nil {
		return ""
	}
	return w.Withdraw
}

// eventLine is e as a line of the stream.
func eventLine(e Event) []byte {
	return []byte(jsonout.String(e) + "\n")
}

// startWait counts a wait that Close waits for, and then queues its set,
// with ahead sets before it; it fails with errClosed once the queue is
// closing. The wait is counted before its set is queued:
// Close, which closes the queue, then waits until the asker has been
// told, even when the set comes on the screen and the person quits at
// once.
func (s *Server) startWait(set *Set) (ahead int, err error) {
	s.mu.Lock()
	if s.queue.Snapshot().Closed {
		s.mu.Unlock()
		return 0, errClosed
	}
	s.wg.Add(1)
	s.mu.Unlock()
	if ahead, err = s.queue.Add(set); err != nil {
		s.wg.Done()
	}
	return ahead, err
}

// FinalEvent is the event that tells the asker how its set ended; there is
// none for a set withdrawn, whose asker has gone.
func FinalEvent(set *Set) (Event, bool) {
	e := set.End()
	switch e.State {
	case Answered:
		return Event{Event: EventAnswered, Answers: e.Answers}, true
	case Cancelled:
		return Event{Event: EventCancelled}, true
	case Closed:
		return Event{Event: EventClosed, Reason: e.Reason}, true
	}
	return Event{}, false
}

// Check checks a request as the command line checks its input, and returns
// the set it asks, or why it is refused. Nothing from the wire is trusted:
// the questions are validated again against the schema.
func (s *Server) Check(req *Request) (*Set, *ErrorBody) {
	from, fromErr := cleanField("from", req.From, MaxFrom)
	cwd, cwdErr := cleanField("cwd", req.Cwd, maxCwdLength)
	if err := cmp.Or(fromErr, cwdErr); err != nil {
		return nil, &ErrorBody{Error: err.Error()}
	}
	if len(req.Questions) == 0 {
		return nil, &ErrorBody{Error: "a set needs questions"}
	}
	sch, err := s.schemas.get(req.Limits)
	if err != nil {
		return nil, &ErrorBody{Error: err.Error(), Err: err}
	}
	qs, err := questionsOf(sch, req.Questions)
	if err != nil {
		return nil, questionsRefused(err)
	}
	return &Set{From: from, Cwd: cwd, Questions: qs}, nil
}

// questionsOf validates the questions of a set as an asker keying its
// answers by header, or else by question text, would: the answers go back
// in question order, so the inbox needs no key, and it takes no set that
// every asker would refuse. The problems are those under the header key.
// The one question of askuser confirm, input or choose, which the input
// format cannot give, is made again from its text, options and default
// (schema.Remake).
func questionsOf(sch *schema.Schema, raw json.RawMessage) ([]schema.Question, error) {
	var alone []schema.Question
	if json.Unmarshal(raw, &alone) == nil && len(alone) == 1 && alone[0].Kind.Scripted() {
		q, err := schema.Remake(alone[0])
		return []schema.Question{q}, err
	}
	doc := slices.Concat([]byte(`{"questions":`), raw, []byte("}"))
	in, err := sch.Parse(doc, schema.KeyHeader)
	if err != nil {
		var again error
		if in, again = sch.Parse(doc, schema.KeyQuestion); again != nil {
			return nil, err
		}
	}
	return in.Questions, nil
}

// cleanField checks a field that says where a set came from: UTF-8 text
// of at most max characters, without NUL (it goes into the environment of
// ASKUSER_NOTIFY_COMMAND). Views draw it through prompt.Display.
func cleanField(name, v string, max int) (string, error) {
	switch {
	case !utf8.ValidString(v):
		return "", fmt.Errorf("%s must be UTF-8 text", name)
	case strings.ContainsRune(v, 0):
		return "", fmt.Errorf("%s must not hold a NUL character", name)
	case utf8.RuneCountInString(v) > max:
		return "", fmt.Errorf("%s must be at most %d characters", name, max)
	}
	return strings.TrimSpace(v), nil
}

// questionsRefused is the reply to questions that do not pass validation.
func questionsRefused(err error) *ErrorBody {
	if invalid, ok := errors.AsType[*schema.ValidationError](err); ok {
		b := &ErrorBody{Error: "the questions are not valid"}
		for _, p := range invalid.Problems {
			b.Problems = append(b.Problems, p.String())
		}
		return b
	}
	if syntax, ok := errors.AsType[*schema.SyntaxError](err); ok {
		return &ErrorBody{Error: "the questions are not JSON: " + syntax.Error()}
	}
	return &ErrorBody{Error: "the questions are not valid: " + err.Error()}
}

// schemaCache compiles the schema once for each set of limits that askers
// send, and bounds what compiling costs: at most maxCompiles a minute,
// whatever the variety of limits that arrive (a hostile asker's sets may
// each carry limits of their own, and a compile costs milliseconds).
type schemaCache struct {
	raw []byte
	mu  sync.Mutex
	// m holds the schemas compiled, by their limits; it is made with the
	// cache.
	m map[schema.Limits]*schema.Schema
	// since is the start of the minute that compiled counts.
	since    time.Time
	compiled int
}

// maxSchemas bounds the cache: askers with many different limits are rare.
// When it is full, one compiled schema makes room for the next.
const maxSchemas = 8

// maxCompiles bounds the schemas compiled a minute: the limits beyond are
// refused, as the set's asker is told, until the minute is over.
const maxCompiles = 16

func (c *schemaCache) get(l *schema.Limits) (*schema.Schema, error) {
	var key schema.Limits
	if l != nil {
		key = *l
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if sch, ok := c.m[key]; ok {
		return sch, nil
	}
	// The limits get the checks the variables get: the wire cannot
	// change anything else in the schema.
	if err := key.Check(); err != nil {
		return nil, fmt.Errorf("invalid limits: %w", err)
	}
	if now := time.Now(); now.Sub(c.since) >= time.Minute {
		c.since, c.compiled = now, 0
	}
	// askuser's own limits (none sent) are compiled whatever the count,
	// and kept: no variety of others holds up the sets that carry none.
	if key != (schema.Limits{}) {
		if c.compiled >= maxCompiles {
			return nil, ErrTooManyLimits
		}
		c.compiled++
	}
	sch, err := schema.Compile(c.raw, key)
	if err != nil {
		return nil, fmt.Errorf("invalid limits: %w", err)
	}
	if len(c.m) >= maxSchemas {
		for k := range c.m {
			if k != (schema.Limits{}) {
				delete(c.m, k)
				break
			}
		}
	}
	c.m[key] = sch
	return sch, nil
}

// ErrTooManyLimits refuses limits that the inbox would compile past
// maxCompiles in a minute: Check says it in these words alone, for a
// transport that keeps its sets to check them later to tell it apart.
var ErrTooManyLimits = fmt.Errorf("the inbox checked questions against %d different limits in the last minute, its most: ask again in a minute, or with askuser's own limits", maxCompiles)

func writeJSON(w http.ResponseWriter, code int, v any) {
	// What is written is a Status or an ErrorBody, which always encode.
	b, _ := json.Marshal(v)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(code)
	// A reply that cannot be written has no one left to read it.
	_, _ = w.Write(append(b, '\n'))
}
