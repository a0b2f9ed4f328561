package prompt

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/schema"
)

// Web asks on a one-time web page served on a local address: for the
// person whose terminal the agent cannot reach (a full-screen app owns it,
// or the agent runs in a container, over SSH, in CI). The page is embedded
// in the binary and needs no network. Every request must carry a random
// token that only the printed address holds, and the server stops at the
// first answer, cancel, or end of the context.
type Web struct {
	ln    net.Listener
	token string
	url   string
	out   io.Writer
	open  func(url string) error
	// host checks a request's Host header.
	host webHostCheck

	mu     sync.Mutex // guards out and quiet against the opener
	quiet  bool       // set when Ask returns: nothing more is written
	asked  bool
	served chan struct{} // closed when the server has stopped
}

// WebOptions configure a Web asker.
type WebOptions struct {
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

// tokenBytes is the size of the random token: 256 bits.
const tokenBytes = 32

// NewWeb returns a web asker that serves on o.Listener.
func NewWeb(o WebOptions) (*Web, error) {
	tcp, ok := o.Listener.Addr().(*net.TCPAddr)
	if !ok {
		return nil, fmt.Errorf("serve the page: not a TCP address: %s", o.Listener.Addr())
	}
	token, err := randomString(tokenBytes)
	if err != nil {
		return nil, err
	}
	display := o.Host
	if display == "" {
		display = tcp.IP.String()
	}
	port := strconv.Itoa(tcp.Port)
	w := &Web{
		ln:    o.Listener,
		token: token,
		url:   "http://" + net.JoinHostPort(display, port) + "/?token=" + token,
		out:   o.Out,
		open:  o.Open,
		host: webHostCheck{
			port:    port,
			ip:      tcp.IP,
			display: strings.ToLower(display),
		},
		served: make(chan struct{}),
	}
	return w, nil
}

// URL returns the page's address, with its token.
func (w *Web) URL() string { return w.url }

// Ask serves the page until it is answered or cancelled there, or ctx is
// done. A Web asks once: Ask, Confirm or Input.
func (w *Web) Ask(ctx context.Context, qs []schema.Question) ([]Answer, error) {
	items := make([]webItem, len(qs))
	for i, q := range qs {
		items[i] = webItem{q: q}
	}
	return w.serve(ctx, items)
}

// Confirm asks a yes/no question on the page, with def chosen at first.
func (w *Web) Confirm(ctx context.Context, message string, def bool) (bool, error) {
	item := webItem{
		q: schema.Question{Header: "Confirm", Question: message, Options: []schema.Option{
			{Label: "Yes"}, {Label: "No"},
		}},
		noOther: true,
		checked: 2,
	}
	if def {
		item.checked = 1
	}
	answers, err := w.serve(ctx, []webItem{item})
	if err != nil {
		return false, err
	}
	return len(answers[0].Labels) == 1 && answers[0].Labels[0] == "Yes", nil
}

// Input asks for a line of text on the page, filled in with def at first.
func (w *Web) Input(ctx context.Context, message, placeholder, def string) (string, error) {
	item := webItem{
		q:    schema.Question{Header: "Input", Question: message, Type: schema.TypeText, Placeholder: placeholder},
		text: def,
	}
	answers, err := w.serve(ctx, []webItem{item})
	if err != nil {
		return "", err
	}
	return answers[0].Other, nil
}

// webItem is one question as the page asks it.
type webItem struct {
	q schema.Question
	// noOther leaves out the Other choice, as a yes/no question does.
	noOther bool
	// checked is the option (from 1) chosen at first, or 0 for none.
	checked int
	// text is the answer typed in at first, for a text question.
	text string
}

func (w *Web) serve(ctx context.Context, items []webItem) ([]Answer, error) {
	if w.asked {
		return nil, errors.New("serve the page: a web asker asks once")
	}
	w.asked = true
	s := &webSession{
		items:   items,
		token:   w.token,
		host:    w.host,
		maxBody: webMaxBody(len(items)),
		done:    make(chan struct{}),
	}
	conns := &webConns{states: map[net.Conn]http.ConnState{}}
	srv := &http.Server{
		Handler:           s,
		ConnState:         conns.track,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
		// A browser that drops a connection is not news for the terminal.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	serveErr := make(chan error, 1)
	go func() {
		defer close(w.served)
		serveErr <- srv.Serve(w.ln)
	}()
	w.say("Answer in your browser: %s\n", w.url)
	if w.open != nil {
		go func() {
			if err := w.open(w.url); err != nil {
				w.say("Could not open a browser (%v); open the address above.\n", err)
			}
		}()
	}

	var failed error
	select {
	case <-s.done:
	case <-ctx.Done():
		s.finish(webWithdrawn, nil, withdrawnReason(context.Cause(ctx)))
	case err := <-serveErr:
		failed = fmt.Errorf("serve the page: %w", err)
		s.finish(webWithdrawn, nil, "the page could not be served")
	}
	w.mu.Lock()
	w.quiet = true
	w.mu.Unlock()
	w.stop(srv, conns)

	state, answers, _ := s.result()
	switch {
	case state == webAnswered:
		return answers, nil
	case state == webCancelled:
		return nil, ErrCancelled
	case failed != nil:
		return nil, failed
	}
	return nil, context.Cause(ctx)
}

// stop lets the requests in flight finish (the summary of the answer, the
// waiting pages learning that it is over) and then closes every connection.
func (w *Web) stop(srv *http.Server, conns *webConns) {
	// Browsers open connections ahead of need. Shutdown would wait seconds
	// for those to send a request, and none is wanted now.
	w.ln.Close()
	conns.closeUnused()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if srv.Shutdown(ctx) != nil {
		srv.Close()
	}
	<-w.served
}

// webConns tracks the state of the server's connections.
type webConns struct {
	mu     sync.Mutex
	states map[net.Conn]http.ConnState
}

func (c *webConns) track(conn net.Conn, st http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch st {
	case http.StateClosed, http.StateHijacked:
		delete(c.states, conn)
	default:
		c.states[conn] = st
	}
}

// closeUnused closes the connections that have not begun a request.
func (c *webConns) closeUnused() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for conn, st := range c.states {
		if st == http.StateNew {
			conn.Close()
		}
	}
}

// say writes a line for the person at the terminal, unless Ask is over.
func (w *Web) say(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.quiet {
		fmt.Fprintf(w.out, format, args...)
	}
}

// withdrawnReason says on the page why askuser stopped waiting.
func withdrawnReason(cause error) string {
	if cause == nil || errors.Is(cause, context.Canceled) {
		return ""
	}
	return cause.Error()
}

// webMaxBody is the largest form the page can send for n questions, with
// room to spare: every choice, and an answer of the person's own of the
// longest length in 4-byte characters, each percent-encoded.
func webMaxBody(n int) int64 {
	perQuestion := int64(webMaxText*4*3 + 1024)
	return 16<<10 + int64(n)*perQuestion
}

func randomString(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make a token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// webHostCheck accepts the Host headers that name the server: its own
// address, the host shown in its address, or localhost, on its port. Any
// other name could be a DNS-rebinding attacker's name pointed at this
// machine. On every interface, any IP address is its own.
type webHostCheck struct {
	port    string
	ip      net.IP
	display string
}

func (c webHostCheck) ok(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, "80"
	}
	if port != c.port || host == "" {
		return false
	}
	host = strings.ToLower(host)
	if host == "localhost" || host == c.display {
		return true
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	return ip.Equal(c.ip) || c.ip.IsUnspecified()
}

// webState is where a page's one question session stands.
type webState int

const (
	webWaiting webState = iota
	webAnswered
	webCancelled
	webWithdrawn
)

// webSession serves the page for one set of questions.
type webSession struct {
	items   []webItem
	token   string
	host    webHostCheck
	maxBody int64

	mu      sync.Mutex
	state   webState
	answers []Answer
	reason  string
	done    chan struct{} // closed when state leaves webWaiting
}

// finish ends the session unless it has ended already, and reports whether
// this call ended it: the first answer, cancel or withdrawal wins.
func (s *webSession) finish(st webState, answers []Answer, reason string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != webWaiting {
		return false
	}
	s.state, s.answers, s.reason = st, answers, reason
	close(s.done)
	return true
}

func (s *webSession) result() (webState, []Answer, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state, s.answers, s.reason
}

// webPollWait is how long a waiting page's request is held before it is
// told to ask again.
const webPollWait = 50 * time.Second

func (s *webSession) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	// Not no-referrer: with it, a browser sends "Origin: null" with the
	// form, which cannot be told from a sandboxed attacker's page.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	if !s.host.ok(r.Host) {
		webError(w, http.StatusForbidden, "Forbidden: this server answers only to its own address.")
		return
	}
	if subtle.ConstantTimeCompare([]byte(r.URL.Query().Get("token")), []byte(s.token)) != 1 {
		webError(w, http.StatusForbidden, "Forbidden: open the address that askuser printed, with its token.")
		return
	}
	switch r.URL.Path {
	case "/":
		if !webMethod(w, r, http.MethodGet, http.MethodHead) {
			return
		}
		s.renderCurrent(w, http.StatusOK)
	case "/wait":
		if !webMethod(w, r, http.MethodGet) {
			return
		}
		s.serveWait(w, r)
	case "/answer", "/cancel":
		if !webMethod(w, r, http.MethodPost) {
			return
		}
		s.servePost(w, r)
	default:
		webError(w, http.StatusNotFound, "Not found.")
	}
}

// serveWait holds a page's request until the session ends, so that the page
// learns at once that it was answered elsewhere or withdrawn.
func (s *webSession) serveWait(w http.ResponseWriter, r *http.Request) {
	t := time.NewTimer(webPollWait)
	defer t.Stop()
	select {
	case <-s.done:
		s.renderCurrent(w, http.StatusOK)
	case <-t.C:
		w.WriteHeader(http.StatusNoContent)
	case <-r.Context().Done():
	}
}

func (s *webSession) servePost(w http.ResponseWriter, r *http.Request) {
	// Browsers send Origin with every POST; a page of another origin must
	// not answer for the person.
	if origin := r.Header.Get("Origin"); origin != "" && !strings.EqualFold(origin, "http://"+r.Host) {
		webError(w, http.StatusForbidden, "Forbidden: the form was sent from another site.")
		return
	}
	if ct := r.Header.Get("Content-Type"); !isFormType(ct) {
		webError(w, http.StatusUnsupportedMediaType, "Send the form as application/x-www-form-urlencoded.")
		return
	}
	if r.ContentLength > s.maxBody {
		webError(w, http.StatusRequestEntityTooLarge, "The form is too large.")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.maxBody)
	if err := r.ParseForm(); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			webError(w, http.StatusRequestEntityTooLarge, "The form is too large.")
			return
		}
		webError(w, http.StatusBadRequest, "The form could not be read.")
		return
	}
	if r.URL.Path == "/cancel" {
		if !s.finish(webCancelled, nil, "") {
			s.renderCurrent(w, http.StatusConflict)
			return
		}
		s.renderCurrent(w, http.StatusOK)
		return
	}
	answers, form := parseWebForm(s.items, r.PostForm)
	if !form.valid() {
		if st, _, _ := s.result(); st != webWaiting {
			s.renderCurrent(w, http.StatusConflict)
			return
		}
		s.render(w, http.StatusBadRequest, s.formPage(form))
		return
	}
	if !s.finish(webAnswered, answers, "") {
		s.renderCurrent(w, http.StatusConflict)
		return
	}
	s.renderCurrent(w, http.StatusOK)
}

func isFormType(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/x-www-form-urlencoded")
}

// webMethod checks the request method, answering 405 when it is not one of
// allowed.
func webMethod(w http.ResponseWriter, r *http.Request, allowed ...string) bool {
	for _, m := range allowed {
		if r.Method == m {
			return true
		}
	}
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	webError(w, http.StatusMethodNotAllowed, "Method not allowed.")
	return false
}

// webError answers with a short plain-text message.
func webError(w http.ResponseWriter, code int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
	w.WriteHeader(code)
	io.WriteString(w, msg+"\n")
}
