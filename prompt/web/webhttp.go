package web

import (
	"bufio"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The page is served by the small HTTP/1.1 server in this file rather than
// by net/http. net/http always links crypto/tls, crypto/x509 and HTTP/2
// (its default transport is a package variable), about 4.8 MB of askuser's
// binary and 1.5 ms of every run's start-up, though few runs serve the
// page. The page needs little: a document, two form posts and a long poll,
// from a browser on this machine. So this server takes one request per
// connection, answers it with "Connection: close", and refuses early and
// plainly whatever the page does not send: other HTTP versions, other
// methods, bodies without a Content-Length, oversized or malformed request
// lines and header fields, and clients that are slow to send or to read.

const (
	// webMaxHeaderBytes bounds the request line and header fields together;
	// it is also the longest a single line may be. Cookies that other
	// programs on localhost set are sent along, so it is not tight.
	webMaxHeaderBytes = 16 << 10
	// webMaxFields bounds the number of header fields.
	webMaxFields = 64
	// webMaxConns bounds the connections open at once; more are closed at
	// once. A browser opens a handful.
	webMaxConns = 64
	// webHeaderTimeout is how long a connection may take, from being
	// accepted, to send its request line and header; webReadTimeout, to
	// send its body as well.
	webHeaderTimeout = 10 * time.Second
	webReadTimeout   = 30 * time.Second
	// webWriteTimeout is how long a client may take to take in a reply.
	webWriteTimeout = 10 * time.Second
	// webLingerTimeout and webLingerBytes bound how long and how much is
	// read and dropped after a reply to a request whose body was not read:
	// closing a connection with data unread makes the system reset it,
	// and the client may lose the reply.
	webLingerTimeout = time.Second
	webLingerBytes   = 2 << 20
)

// webRequest is a request as far as the page needs it.
type webRequest struct {
	method   string
	path     string // the request target up to "?", not unescaped
	rawQuery string
	host     string
	// contentType, origin: the header fields, "" when not sent.
	contentType, origin string
	contentLength       int64
	http11              bool
	expectContinue      bool

	conn         net.Conn
	br           *bufio.Reader
	writeTimeout time.Duration
	bodyRead     bool
	watching     chan struct{} // closed when the watch started by gone ends
}

// webReply is a complete reply: status, the fields that vary, and body.
type webReply struct {
	code        int
	contentType string
	csp         string // Content-Security-Policy
	allow       string
	body        []byte
}

// webHandler answers a request; nil means the client has gone and nothing
// is to be sent.
type webHandler func(*webRequest) *webReply

// webServer serves a listener with a webHandler until shutdown.
type webServer struct {
	ln      net.Listener
	handler webHandler
	// The limits on time, webHeaderTimeout and so on unless a test
	// shortens them.
	headerTimeout, readTimeout, writeTimeout time.Duration

	wg      sync.WaitGroup // a goroutine per connection
	mu      sync.Mutex
	conns   map[net.Conn]bool // true while a request is being served
	closed  bool
	busy    int           // connections serving a request
	drained chan struct{} // made by shutdown, closed when busy is 0
}

func newWebServer(ln net.Listener, h webHandler) *webServer {
	return &webServer{
		ln: ln, handler: h, conns: map[net.Conn]bool{},
		headerTimeout: webHeaderTimeout, readTimeout: webReadTimeout, writeTimeout: webWriteTimeout,
	}
}

// serve accepts connections until shutdown, and returns nil then, or the
// error that stopped it accepting.
func (s *webServer) serve() error {
	var backoff time.Duration
	for {
		c, err := s.ln.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed || errors.Is(err, net.ErrClosed) {
				return nil
			}
			// Out of file descriptors, for one: wait, as net/http does.
			if te, ok := err.(interface{ Temporary() bool }); ok && te.Temporary() {
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				time.Sleep(backoff)
				continue
			}
			return err
		}
		backoff = 0
		if !s.track(c) {
			c.Close()
			continue
		}
		go s.serveConn(c)
	}
}

func (s *webServer) track(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || len(s.conns) >= webMaxConns {
		return false
	}
	s.conns[c] = false
	s.wg.Add(1) // under mu, so before shutdown's Wait
	return true
}

// begin marks c as serving a request, unless the server is shutting down.
func (s *webServer) begin(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[c] = true
	s.busy++
	return true
}

// end marks c's request as answered, and reports whether the connection
// may linger: not once the server is shutting down.
func (s *webServer) end(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conns[c] {
		s.conns[c] = false
		s.busy--
		if s.busy == 0 && s.drained != nil {
			close(s.drained)
		}
	}
	return !s.closed
}

func (s *webServer) forget(c net.Conn) {
	c.Close()
	s.end(c)
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// shutdown stops accepting, closes the connections that have not sent a
// whole request (browsers open some ahead of need), lets the requests being
// served finish for up to grace, and then closes every connection.
func (s *webServer) shutdown(grace time.Duration) {
	s.mu.Lock()
	s.closed = true
	s.ln.Close()
	for c, busy := range s.conns {
		if !busy {
			c.Close()
		}
	}
	s.drained = make(chan struct{})
	if s.busy == 0 {
		close(s.drained)
	}
	drained := s.drained
	s.mu.Unlock()

	t := time.NewTimer(grace)
	select {
	case <-drained:
	case <-t.C:
	}
	t.Stop()
	s.mu.Lock()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *webServer) serveConn(c net.Conn) {
	defer s.wg.Done()
	defer s.forget(c)
	start := time.Now()
	c.SetReadDeadline(start.Add(s.headerTimeout))
	br := bufio.NewReaderSize(c, webMaxHeaderBytes)
	req, reply := readWebRequest(br)
	if req == nil && reply == nil {
		return // the client went, or was too slow
	}
	// A request is waited for at shutdown only from here: a client still
	// sending its header would only hold askuser up.
	if !s.begin(c) {
		return
	}
	head := false
	if reply == nil {
		req.conn, req.br, req.writeTimeout = c, br, s.writeTimeout
		c.SetReadDeadline(start.Add(s.readTimeout))
		reply = s.handler(req)
		req.stopWatching()
		head = req.method == "HEAD"
	}
	if reply == nil {
		return
	}
	c.SetWriteDeadline(time.Now().Add(s.writeTimeout))
	if _, err := c.Write(reply.bytes(head)); err != nil {
		return
	}
	if s.end(c) && (req == nil || !req.bodyDone() || br.Buffered() > 0) {
		lingerClose(c)
	}
}

// lingerClose closes c after its reply, once the client has seen the end
// of it or after webLingerTimeout, dropping what the client still sends.
func lingerClose(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
	c.SetReadDeadline(time.Now().Add(webLingerTimeout))
	io.CopyN(io.Discard, c, webLingerBytes)
}

// webRefuse is a reply to a request that cannot be served.
func webRefuse(code int, msg string) *webReply {
	return &webReply{
		code:        code,
		contentType: "text/plain; charset=utf-8",
		csp:         "default-src 'none'; frame-ancestors 'none'",
		body:        []byte(msg + "\n"),
	}
}

// errWebTooLong is a line longer than webMaxHeaderBytes, or a header
// longer in all.
var errWebTooLong = errors.New("too long")

// readWebRequest reads a request's line and header fields from br. It
// returns the request, or the reply that refuses it, or neither when the
// client went away or was too slow to send it.
func readWebRequest(br *bufio.Reader) (*webRequest, *webReply) {
	left := webMaxHeaderBytes
	readLine := func() (string, error) {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) || len(line) > left {
			return "", errWebTooLong
		}
		if err != nil {
			return "", err
		}
		left -= len(line)
		line = line[:len(line)-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		return string(line), nil
	}

	line, err := readLine()
	switch {
	case errors.Is(err, errWebTooLong):
		return nil, webRefuse(414, "The address is too long.")
	case err != nil:
		return nil, nil
	}
	req, reply := parseRequestLine(line)
	if reply != nil {
		return nil, reply
	}

	var hosts, lengths []string
	var transferEncoding, expect bool
	for n := 0; ; n++ {
		line, err := readLine()
		if errors.Is(err, errWebTooLong) {
			return nil, webRefuse(431, "The request's header is too large.")
		}
		if err != nil {
			return nil, nil
		}
		if line == "" {
			break
		}
		if n == webMaxFields {
			return nil, webRefuse(431, "The request has too many header fields.")
		}
		name, value, ok := strings.Cut(line, ":")
		// A name followed by space, or a line that continues the one
		// before (obsolete line folding), is refused, as RFC 9112 says.
		if !ok || !isToken(name) || !isFieldValue(value) {
			return nil, webRefuse(400, "A header field is malformed.")
		}
		value = strings.Trim(value, " \t")
		switch strings.ToLower(name) {
		case "host":
			hosts = append(hosts, value)
		case "content-length":
			lengths = append(lengths, value)
		case "transfer-encoding":
			transferEncoding = true
		case "content-type":
			req.contentType = value
		case "origin":
			req.origin = value
		case "expect":
			if !strings.EqualFold(value, "100-continue") {
				return nil, webRefuse(417, "Only \"Expect: 100-continue\" is understood.")
			}
			expect = true
		}
	}

	// HTTP/1.1 requires one Host field; HTTP/1.0 may have none.
	switch {
	case len(hosts) > 1, len(hosts) == 0 && req.http11:
		return nil, webRefuse(400, "The request needs one Host header field.")
	case len(hosts) == 1:
		req.host = hosts[0]
	}
	// The page always sends its forms with a length; a body without one
	// would need chunked decoding, which nothing here needs.
	if transferEncoding {
		return nil, webRefuse(411, "Send the body with a Content-Length.")
	}
	for _, v := range lengths {
		if v != lengths[0] || v == "" || len(v) > 18 || strings.Trim(v, "0123456789") != "" {
			return nil, webRefuse(400, "The Content-Length is malformed.")
		}
	}
	if len(lengths) > 0 {
		req.contentLength, _ = strconv.ParseInt(lengths[0], 10, 64)
	}
	if req.contentLength > 0 && (req.method == "GET" || req.method == "HEAD") {
		return nil, webRefuse(400, "A GET request has no body.")
	}
	// Only HTTP/1.1 has 100 Continue.
	req.expectContinue = expect && req.http11
	return req, nil
}

// parseRequestLine reads "METHOD /target HTTP/1.1".
func parseRequestLine(line string) (*webRequest, *webReply) {
	bad := webRefuse(400, "The request line is malformed.")
	method, rest, ok1 := strings.Cut(line, " ")
	target, proto, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 || !isToken(method) || target == "" || strings.Contains(proto, " ") {
		return nil, bad
	}
	req := &webRequest{method: method}
	switch {
	case proto == "HTTP/1.1":
		req.http11 = true
	case proto == "HTTP/1.0":
	case strings.HasPrefix(proto, "HTTP/"):
		return nil, webRefuse(505, "Only HTTP/1.1 is served.")
	default:
		return nil, bad
	}
	// Only the origin form, "/path?query", is taken: this server is no
	// proxy, and serves nothing for "*".
	if target[0] != '/' {
		return nil, bad
	}
	for i := 0; i < len(target); i++ {
		if c := target[i]; c <= ' ' || c >= 0x7f || c == '#' {
			return nil, bad
		}
	}
	req.path, req.rawQuery, _ = strings.Cut(target, "?")
	switch method {
	case "GET", "HEAD", "POST":
	case "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH":
		// Known, and refused with 405 and what is allowed, once the
		// request is known to be for this page.
	default:
		return nil, webRefuse(501, "Method not implemented.")
	}
	return req, nil
}

// isToken reports whether s is an HTTP token (RFC 9110): a method or a
// field name.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDigit(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// isFieldValue reports whether s may be a field's value: no control
// characters but tab.
func isFieldValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// readBody reads the request's body, which the caller has checked to be
// no longer than it accepts, telling a client that waits for it to send.
func (r *webRequest) readBody() ([]byte, error) {
	if r.expectContinue && r.contentLength > 0 {
		r.conn.SetWriteDeadline(time.Now().Add(r.writeTimeout))
		if _, err := io.WriteString(r.conn, "HTTP/1.1 100 Continue\r\n\r\n"); err != nil {
			return nil, err
		}
	}
	b := make([]byte, r.contentLength)
	if _, err := io.ReadFull(r.br, b); err != nil {
		return nil, err
	}
	r.bodyRead = true
	return b, nil
}

func (r *webRequest) bodyDone() bool { return r.contentLength == 0 || r.bodyRead }

// gone returns a channel closed when the client closes the connection (or
// sends anything more), for a request that holds its reply back. The
// request has been read in full: nothing more is to come.
func (r *webRequest) gone() <-chan struct{} {
	ch := make(chan struct{})
	r.watching = make(chan struct{})
	r.conn.SetReadDeadline(time.Time{})
	go func() {
		defer close(r.watching)
		var b [1]byte
		r.br.Read(b[:])
		close(ch)
	}()
	return ch
}

// stopWatching ends the watch that gone started, if any.
func (r *webRequest) stopWatching() {
	if r.watching != nil {
		r.conn.SetReadDeadline(time.Unix(1, 0))
		<-r.watching
	}
}

// bytes is the reply as sent, without its body for HEAD.
func (p *webReply) bytes(head bool) []byte {
	b := make([]byte, 0, 512+len(p.body))
	b = append(b, "HTTP/1.1 "...)
	b = strconv.AppendInt(b, int64(p.code), 10)
	b = append(b, ' ')
	b = append(b, webStatusText(p.code)...)
	b = append(b, "\r\nDate: "...)
	b = time.Now().UTC().AppendFormat(b, "Mon, 02 Jan 2006 15:04:05 GMT")
	b = append(b, "\r\n"+
		"Cache-Control: no-store\r\n"+
		"X-Content-Type-Options: nosniff\r\n"+
		// Not no-referrer: with it, a browser sends "Origin: null" with
		// the form, which cannot be told from a sandboxed attacker's page.
		"Referrer-Policy: same-origin\r\n"+
		"X-Frame-Options: DENY\r\n"+
		"Cross-Origin-Opener-Policy: same-origin\r\n"+
		"Cross-Origin-Resource-Policy: same-origin\r\n"...)
	field := func(name, value string) {
		if value != "" {
			b = append(b, name...)
			b = append(b, ": "...)
			b = append(b, value...)
			b = append(b, "\r\n"...)
		}
	}
	field("Content-Type", p.contentType)
	field("Content-Security-Policy", p.csp)
	field("Allow", p.allow)
	if p.code != 204 {
		field("Content-Length", strconv.Itoa(len(p.body)))
	}
	b = append(b, "Connection: close\r\n\r\n"...)
	if !head && p.code != 204 {
		b = append(b, p.body...)
	}
	return b
}

func webStatusText(code int) string {
	switch code {
	case 200:
		return "OK"
	case 204:
		return "No Content"
	case 400:
		return "Bad Request"
	case 403:
		return "Forbidden"
	case 404:
		return "Not Found"
	case 405:
		return "Method Not Allowed"
	case 409:
		return "Conflict"
	case 411:
		return "Length Required"
	case 413:
		return "Content Too Large"
	case 414:
		return "URI Too Long"
	case 415:
		return "Unsupported Media Type"
	case 417:
		return "Expectation Failed"
	case 431:
		return "Request Header Fields Too Large"
	case 500:
		return "Internal Server Error"
	case 501:
		return "Not Implemented"
	case 505:
		return "HTTP Version Not Supported"
	}
	return "Status " + strconv.Itoa(code)
}
