package web

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web/localhttp"
)

// PollWait is how long a waiting page's request is held before it is told
// to ask again: a setServer's, and the inbox's page's.
const PollWait = 50 * time.Second

// setServer serves the page of one set of questions at its Page's Base, and
// holds the wait for its answer: GET Base shows the page as it stands, GET
// Base+"wait" is held until the wait ends (so that every open page learns
// at once that it was answered, elsewhere too, or withdrawn), and POST
// Base+"answer" and Base+"cancel" end it. The first answer, cancel or End
// wins; a form sent after that is told how the wait ended (409). It owns
// no server: mount it on one, behind a Guard.
type setServer struct {
	page *Page

	mu      sync.Mutex
	ended   *ending       // nil while waiting
	done    chan struct{} // closed when the wait ends
	waiters atomic.Int32  // requests held by serveWait, for the tests to wait for
}

// newSetServer returns the setServer that serves p, waiting.
func newSetServer(p *Page) *setServer {
	return &setServer{page: p, done: make(chan struct{})}
}

// current returns how the wait ended, nil while it goes on.
func (s *setServer) current() *ending {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended
}

// end ends the wait with e, unless it has ended already, and reports
// whether this call ended it: for an answer given elsewhere, or questions
// withdrawn. Pages waiting on the set learn it at once.
func (s *setServer) end(e ending) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended != nil {
		return false
	}
	s.ended = &e
	close(s.done)
	return true
}

// setRoutes are the addresses of a set under its page's Base, with the
// methods each takes.
var setRoutes = map[string][]string{
	"":       {http.MethodGet, http.MethodHead},
	"wait":   {http.MethodGet},
	"answer": {http.MethodPost},
	"cancel": {http.MethodPost},
}

// ServeHTTP serves the page's addresses; see setServer.
func (s *setServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, s.page.Base)
	methods, known := setRoutes[rest]
	switch {
	case !ok || !known:
		localhttp.Refuse(w, http.StatusNotFound, "Not found.")
	case !allow(w, r, methods...): // refused
	case rest == "":
		s.page.writeStatus(w, http.StatusOK, s.current())
	case rest == "wait":
		s.serveWait(w, r)
	default:
		s.servePost(w, r, rest)
	}
}

// serveWait holds a page's request until the wait ends, the client goes,
// or PollWait passes.
func (s *setServer) serveWait(w http.ResponseWriter, r *http.Request) {
	localhttp.Hold(w, PollWait)
	t := time.NewTimer(PollWait)
	defer t.Stop()
	s.waiters.Add(1)
	defer s.waiters.Add(-1)
	select {
	case <-s.done:
		s.page.writeStatus(w, http.StatusOK, s.current())
	case <-t.C:
		w.WriteHeader(http.StatusNoContent)
	case <-r.Context().Done():
	}
}

// servePost ends the wait with the answer or cancel that r posts, and
// shows how it ended: 200 to the request that ended it, 409 to one that
// came too late. A form that is not answered well enough is shown again
// (400) while the wait goes on.
func (s *setServer) servePost(w http.ResponseWriter, r *http.Request, action string) {
	values, ok := ReadForm(w, r)
	if !ok {
		return
	}
	e := ending{err: prompt.ErrCancelled}
	if action == "answer" {
		sub := s.page.Parse(values)
		if !sub.OK() && s.current() == nil {
			s.page.WriteForm(w, http.StatusBadRequest, sub)
			return
		}
		// Once the wait has ended, end ends nothing, however the form was.
		e = ending{answers: sub.Answers}
	}
	code := http.StatusOK
	if !s.end(e) {
		code = http.StatusConflict
	}
	s.page.writeStatus(w, code, s.current())
}

// ReadForm reads the fields of the form that r posts, within the size its
// Guard allows. A form that cannot be read is refused (413 when it is too
// large, else 400), and ok is false.
func ReadForm(w http.ResponseWriter, r *http.Request) (_ url.Values, ok bool) {
	body, err := io.ReadAll(r.Body)
	if _, tooLarge := errors.AsType[*http.MaxBytesError](err); tooLarge {
		localhttp.Refuse(w, http.StatusRequestEntityTooLarge, "The form is too large.")
		return nil, false
	}
	values, parseErr := url.ParseQuery(string(body))
	if err != nil || parseErr != nil {
		localhttp.Refuse(w, http.StatusBadRequest, "The form could not be read.")
		return nil, false
	}
	return values, true
}

// allow reports whether r's method is one of methods, and refuses it when
// not: 405 with the methods allowed, or 501 for a method HTTP does not
// know.
func allow(w http.ResponseWriter, r *http.Request, methods ...string) bool {
	if slices.Contains(methods, r.Method) {
		return true
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodConnect, http.MethodOptions, http.MethodTrace:
		w.Header().Set("Allow", strings.Join(methods, ", "))
		localhttp.Refuse(w, http.StatusMethodNotAllowed, "Method not allowed.")
	default:
		localhttp.Refuse(w, http.StatusNotImplemented, "Method not implemented.")
	}
	return false
}
