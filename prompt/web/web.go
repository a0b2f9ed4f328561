// Package web asks on a one-time web page served on a local address with
// net/http, for the person whose terminal the agent cannot reach. The page
// and its style and script are embedded.
//
// The pieces are apart so that a server of several sets of questions (the
// inbox's page) can be built from them: Page writes one set's page and
// reads its form, which Prompter serves for --ui web, holding the wait for
// its answer. localhttp, beneath it, guards every request before a
// handler sees it and serves with the limits a page on a local port needs.
package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web/localhttp"
	"github.com/askuser/askuser/schema"
)

// Prompter asks on a one-time web page served on a local address: for the
// person whose terminal the agent cannot reach (a full-screen app owns it,
// or the agent runs in a container, over SSH, in CI). The page is embedded
// in the binary and needs no network. Every request must carry a random
// token that only the printed address holds, and the server stops at the
// first answer, cancel, or end of the context.
type Prompter struct {
	o   Options
	url string

	// page is the set being asked, its questions once Ask has begun; done
	// is closed when the wait for its answer ends.
	page *Page
	done chan struct{}

	mu      sync.Mutex   // guards o.Out and ended
	ended   *ending      // nil while waiting
	waiters atomic.Int32 // requests held by serveWait, for the tests to wait for
}

// Options configure a Web prompter.
type Options struct {
	// Listener is where the page is served. Ask closes it.
	Listener net.Listener
	// Host is the host to show in the page's address, such as "localhost"
	// or this machine's address when Listener is on every interface;
	// empty means the listener's own address.
	Host string
	// Out receives the page's address and notices; stderr, never stdout.
	Out io.Writer
	// Open, when set, is called with the page's address to show it in a
	// browser. A failure is reported on Out, and the page still waits.
	Open func(url string) error
}

// New returns a prompter that serves on o.Listener, a TCP listener.
func New(o Options) *Prompter {
	token := localhttp.NewToken()
	return &Prompter{o: o, page: &Page{Base: "/", Token: token}, url: "http://" + localhttp.HostPort(o.Host, o.Listener.Addr()) + "/?token=" + token}
}

// URL returns the page's address, with its token.
func (p *Prompter) URL() string { return p.url }

// stopGrace is how long the requests in flight when the wait ends are
// given to finish: the reply to the answer, and the waiting pages
// learning that it is over.
const stopGrace = 2 * time.Second

// Ask serves the page until it is answered or cancelled there, or ctx is
// done. A Prompter asks once (each way that opens makes its own): Ask closes
// the listener.
func (p *Prompter) Ask(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
	if p.done != nil {
		return nil, errors.New("serve the page: a web prompter asks once")
	}
	guard, err := localhttp.NewGuard(p.o.Listener.Addr(), p.o.Host, p.page.Token, MaxFormBytes(len(qs)))
	if err != nil {
		return nil, err
	}
	p.page.Questions = qs
	p.done = make(chan struct{})
	srv := localhttp.NewServer(guard.Wrap(p))
	serveErr := make(chan error, 1)
	var served sync.WaitGroup
	served.Go(func() { serveErr <- srv.Serve(p.o.Listener) })
	p.say("Answer in your browser: %s\n", p.url)
	if p.o.Open != nil {
		go func() {
			if err := p.o.Open(p.url); err != nil {
				p.say("Could not open a browser (%v); open the address above.\n", err)
			}
		}()
	}

	select {
	case <-p.done:
	case <-ctx.Done():
		// The page says why askuser stopped waiting, unless it was only
		// cancelled.
		e := ending{err: context.Cause(ctx)}
		if !errors.Is(e.err, context.Canceled) {
			e.reason = e.err.Error()
		}
		p.end(e)
	case err := <-serveErr: // never nil: the server was not stopped
		p.end(ending{err: fmt.Errorf("serve the page: %w", err), reason: "the page could not be served"})
	}
	srv.Stop(stopGrace)
	served.Wait()
	e := p.current()
	return e.answers, e.err
}

// say writes a line for the person at the terminal, unless the wait has
// ended: Ask is returning.
func (p *Prompter) say(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended == nil {
		// A notice that cannot be written leaves the page to be answered.
		_, _ = fmt.Fprintf(p.o.Out, format, args...)
	}
}

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
// or localhttp.PollWait passes.
func (p *Prompter) serveWait(w http.ResponseWriter, r *http.Request) {
	p.waiters.Add(1)
	defer p.waiters.Add(-1)
	localhttp.Poll(w, r, func() <-chan struct{} {
		if e := p.current(); e != nil {
			p.page.writeStatus(w, http.StatusOK, e)
			return nil
		}
		return p.done
	})
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
