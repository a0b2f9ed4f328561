package web

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web/localhttp"
)

// PollWait is how long a waiting page's request is held before it is told
// to ask again: a Prompter's, and the inbox's page's.
const PollWait = 50 * time.Second

// current returns how the wait ended, nil while it goes on.
func (p *Prompter) current() *ending {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ended
}

// end ends the wait with e, unless it has ended already, and reports
// whether this call ended it: for an answer given elsewhere, or questions
// withdrawn. Pages waiting on the set learn it at once.
func (p *Prompter) end(e ending) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended != nil {
		return false
	}
	p.ended = &e
	close(p.done)
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

// ServeHTTP serves the page of the set being asked at its Page's Base, and
// holds the wait for its answer: GET Base shows the page as it stands, GET
// Base+"wait" is held until the wait ends (so that every open page learns
// at once that it was answered, elsewhere too, or withdrawn), and POST
// Base+"answer" and Base+"cancel" end it. The first answer, cancel or end
// wins; a form sent after that is told how the wait ended (409).
func (p *Prompter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, p.page.Base)
	methods, known := setRoutes[rest]
	switch {
	case !ok || !known:
		localhttp.Refuse(w, http.StatusNotFound, "Not found.")
	case !allow(w, r, methods...): // refused
	case rest == "":
		p.page.writeStatus(w, http.StatusOK, p.current())
	case rest == "wait":
		p.serveWait(w, r)
	default:
		p.servePost(w, r, rest)
	}
}

// serveWait holds a page's request until the wait ends, the client goes,
// or PollWait passes.
func (p *Prompter) serveWait(w http.ResponseWriter, r *http.Request) {
	localhttp.Hold(w, PollWait)
	t := time.NewTimer(PollWait)
	defer t.Stop()
	p.waiters.Add(1)
	defer p.waiters.Add(-1)
	select {
	case <-p.done:
		p.page.writeStatus(w, http.StatusOK, p.current())
	case <-t.C:
		w.WriteHeader(http.StatusNoContent)
	case <-r.Context().Done():
	}
}

// servePost ends the wait with the answer or cancel that r posts, and
// shows how it ended: 200 to the request that ended it, 409 to one that
// came too late. A form that is not answered well enough is shown again
// (400) while the wait goes on.
func (p *Prompter) servePost(w http.ResponseWriter, r *http.Request, action string) {
	values, ok := ReadForm(w, r)
	if !ok {
		return
	}
	e := ending{err: prompt.ErrCancelled}
	if action == "answer" {
		sub := p.page.Parse(values)
		if !sub.OK() && p.current() == nil {
			p.page.WriteForm(w, http.StatusBadRequest, sub)
			return
		}
		// Once the wait has ended, end ends nothing, however the form was.
		e = ending{answers: sub.Answers}
	}
	code := http.StatusOK
	if !p.end(e) {
		code = http.StatusConflict
	}
	p.page.writeStatus(w, code, p.current())
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
