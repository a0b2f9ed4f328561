// Package web asks on a one-time web page served on a local address, for
// the person whose terminal the agent cannot reach. The page and its style
// and script are embedded (page.html, page.css, page.js).
package web

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Asker asks on a one-time web page served on a local address: for the
// person whose terminal the agent cannot reach (a full-screen app owns it,
// or the agent runs in a container, over SSH, in CI). The page is embedded
// in the binary and needs no network. Every request must carry a random
// token that only the printed address holds, and the server stops at the
// first answer, cancel, or end of the context.
type Asker struct {
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

// Options configure a Web asker.
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

// tokenBytes is the size of the random token: 256 bits.
const tokenBytes = 32

// New returns an asker that serves on o.Listener.
func New(o Options) (*Asker, error) {
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
	w := &Asker{
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
func (w *Asker) URL() string { return w.url }

// Ask serves the page until it is answered or cancelled there, or ctx is
// done. A Web asks once: Ask, Confirm or Input.
func (w *Asker) Ask(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
	items := make([]webItem, len(qs))
	for i, q := range qs {
		items[i] = webItem{q: q}
	}
	return w.serve(ctx, items)
}

// Confirm asks a yes/no question on the page, with def chosen at first.
func (w *Asker) Confirm(ctx context.Context, message string, def bool) (bool, error) {
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
func (w *Asker) Input(ctx context.Context, message, placeholder, def string) (string, error) {
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

func (w *Asker) serve(ctx context.Context, items []webItem) ([]prompt.Answer, error) {
	if w.asked {
		return nil, errors.New("serve the page: a web asker asks once")
	}
	w.asked = true
	s := &page{
		items:   items,
		token:   w.token,
		host:    w.host,
		maxBody: webMaxBody(len(items)),
		done:    make(chan struct{}),
	}
	srv := newWebServer(w.ln, s.handle)
	serveErr := make(chan error, 1)
	go func() {
		defer close(w.served)
		serveErr <- srv.serve()
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
	w.stop(srv)

	state, answers, _ := s.result()
	switch {
	case state == webAnswered:
		return answers, nil
	case state == webCancelled:
		return nil, prompt.ErrCancelled
	case failed != nil:
		return nil, failed
	}
	return nil, context.Cause(ctx)
}

// stop lets the requests in flight finish (the summary of the answer, the
// waiting pages learning that it is over) and then closes every connection.
func (w *Asker) stop(srv *webServer) {
	srv.shutdown(2 * time.Second)
	<-w.served
}

// say writes a line for the person at the terminal, unless Ask is over.
func (w *Asker) say(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.quiet {
		// A notice that cannot be written leaves the page to be answered.
		_, _ = fmt.Fprintf(w.out, format, args...)
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
	perQuestion := int64(prompt.MaxOtherLength*4*3 + 1024)
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

// webState is where a page stands: waiting for its answer, or how it ended.
type webState int

const (
	webWaiting webState = iota
	webAnswered
	webCancelled
	webWithdrawn
)

// page is the page of one set of questions: what it asks, who may load
// it, and how its wait ended.
type page struct {
	items   []webItem
	token   string
	host    webHostCheck
	maxBody int64

	mu      sync.Mutex
	state   webState
	answers []prompt.Answer
	reason  string
	done    chan struct{} // closed when state leaves webWaiting
}

// finish ends the page's wait unless it has ended already, and reports
// whether this call ended it: the first answer, cancel or withdrawal wins.
func (s *page) finish(st webState, answers []prompt.Answer, reason string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != webWaiting {
		return false
	}
	s.state, s.answers, s.reason = st, answers, reason
	close(s.done)
	return true
}

func (s *page) result() (webState, []prompt.Answer, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state, s.answers, s.reason
}

// webPollWait is how long a waiting page's request is held before it is
// told to ask again.
const webPollWait = 50 * time.Second

// handle answers one request: the page with its token on GET /, the long
// poll on GET /wait, the form on POST /answer and POST /cancel.
func (s *page) handle(r *webRequest) *webReply {
	if !s.host.ok(r.host) {
		return webRefuse(403, "Forbidden: this server answers only to its own address.")
	}
	// A query that does not parse gives what parsed before the fault, as
	// for any other address without the token.
	query, _ := url.ParseQuery(r.rawQuery)
	if subtle.ConstantTimeCompare([]byte(query.Get("token")), []byte(s.token)) != 1 {
		return webRefuse(403, "Forbidden: open the address that askuser printed, with its token.")
	}
	switch r.path {
	case "/":
		if p := webMethod(r, "GET", "HEAD"); p != nil {
			return p
		}
		return s.renderCurrent(200)
	case "/wait":
		if p := webMethod(r, "GET"); p != nil {
			return p
		}
		return s.serveWait(r)
	case "/answer", "/cancel":
		if p := webMethod(r, "POST"); p != nil {
			return p
		}
		return s.servePost(r)
	}
	return webRefuse(404, "Not found.")
}

// serveWait holds a page's request until the wait ends, so that the page
// learns at once that it was answered elsewhere or withdrawn.
func (s *page) serveWait(r *webRequest) *webReply {
	t := time.NewTimer(webPollWait)
	defer t.Stop()
	select {
	case <-s.done:
		return s.renderCurrent(200)
	case <-t.C:
		return &webReply{code: 204}
	case <-r.gone():
		return nil
	}
}

func (s *page) servePost(r *webRequest) *webReply {
	// Browsers send Origin with every POST; a page of another origin must
	// not answer for the person.
	if r.origin != "" && !strings.EqualFold(r.origin, "http://"+r.host) {
		return webRefuse(403, "Forbidden: the form was sent from another site.")
	}
	if !isFormType(r.contentType) {
		return webRefuse(415, "Send the form as application/x-www-form-urlencoded.")
	}
	if r.contentLength > s.maxBody {
		return webRefuse(413, "The form is too large.")
	}
	body, err := r.readBody()
	if err != nil {
		return webRefuse(400, "The form could not be read.")
	}
	values, err := url.ParseQuery(string(body))
	if err != nil {
		return webRefuse(400, "The form could not be read.")
	}
	if r.path == "/cancel" {
		if !s.finish(webCancelled, nil, "") {
			return s.renderCurrent(409)
		}
		return s.renderCurrent(200)
	}
	answers, form := parseWebForm(s.items, values)
	if !form.valid() {
		if st, _, _ := s.result(); st != webWaiting {
			return s.renderCurrent(409)
		}
		return s.render(400, s.formPage(form))
	}
	if !s.finish(webAnswered, answers, "") {
		return s.renderCurrent(409)
	}
	return s.renderCurrent(200)
}

func isFormType(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/x-www-form-urlencoded")
}

// webMethod refuses the request with 405 unless its method is one of
// allowed.
func webMethod(r *webRequest, allowed ...string) *webReply {
	for _, m := range allowed {
		if r.method == m {
			return nil
		}
	}
	p := webRefuse(405, "Method not allowed.")
	p.allow = strings.Join(allowed, ", ")
	return p
}
