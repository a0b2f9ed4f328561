package web

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// testServer serves h on a loopback port with the given timeouts (the
// defaults when zero) until the test ends.
func testServer(t *testing.T, h webHandler, timeouts ...time.Duration) (*webServer, string) {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := newWebServer(ln, h)
	for i, d := range timeouts {
		*[]*time.Duration{&s.headerTimeout, &s.readTimeout, &s.writeTimeout}[i] = d
	}
	served := make(chan error, 1)
	go func() { served <- s.serve() }()
	t.Cleanup(func() {
		s.shutdown(time.Second)
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return s, ln.Addr().String()
}

// echo answers with the method, path, query, host and body it was sent.
func echo(r *webRequest) *webReply {
	body := ""
	if r.contentLength > 0 {
		b, err := r.readBody()
		if err != nil {
			return webRefuse(400, "The form could not be read.")
		}
		body = string(b)
	}
	return &webReply{code: 200, contentType: "text/plain", body: []byte(r.method + " " + r.path + " ?" + r.rawQuery + " " + r.host + " " + body)}
}

// rawReply is a reply as read off the wire.
type rawReply struct {
	status string // "HTTP/1.1 200 OK"
	fields map[string]string
	body   string
	err    error // what ended the read after the body, io.EOF when all is well
}

// exchange sends raw on a new connection and reads one reply; ok is false
// when the connection ended without one.
func exchange(t *testing.T, addr, raw string) (rawReply, bool) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	return readRawReply(t, bufio.NewReader(c))
}

func readRawReply(t *testing.T, br *bufio.Reader) (rawReply, bool) {
	t.Helper()
	var r rawReply
	line, err := br.ReadString('\n')
	if err != nil {
		return r, false
	}
	r.status = strings.TrimSuffix(line, "\r\n")
	r.fields = map[string]string{}
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("reply header cut short: %v", err)
		}
		line = strings.TrimSuffix(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("malformed reply field %q", line)
		}
		if _, dup := r.fields[name]; dup {
			t.Fatalf("reply field %s sent twice", name)
		}
		r.fields[name] = value
	}
	if cl, ok := r.fields["Content-Length"]; ok {
		n, err := strconv.Atoi(cl)
		if err != nil {
			t.Fatalf("Content-Length %q", cl)
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			t.Fatalf("reply body cut short: %v", err)
		}
		r.body = string(b)
	}
	_, r.err = br.ReadByte()
	return r, true
}

func TestWebServerRefusesMalformedRequests(t *testing.T) {
	_, addr := testServer(t, echo)
	long := strings.Repeat("a", webMaxHeaderBytes)
	for _, tc := range []struct {
		name, raw, status string
	}{
		{"no version", "GET /\r\n\r\n", "400 Bad Request"},
		{"two spaces", "GET  / HTTP/1.1\r\nHost: h\r\n\r\n", "400 Bad Request"},
		{"space in target", "GET /a b HTTP/1.1\r\nHost: h\r\n\r\n", "400 Bad Request"},
		{"lower-case version", "GET / http/1.1\r\nHost: h\r\n\r\n", "400 Bad Request"},
		{"absolute form", "GET http://h/ HTTP/1.1\r\nHost: h\r\n\r\n", "400 Bad Request"},
		{"asterisk", "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n", "400 Bad Request"},
		{"fragment", "GET /#x HTTP/1.1\r\nHost: h\r\n\r\n", "400 Bad Request"},
		{"bytes beyond ASCII", "GET /\xff HTTP/1.1\r\nHost: h\r\n\r\n", "400 Bad Request"},
		{"control in method", "G\x01T / HTTP/1.1\r\nHost: h\r\n\r\n", "400 Bad Request"},
		{"empty line first", "\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n", "400 Bad Request"},
		{"HTTP/2", "GET / HTTP/2.0\r\nHost: h\r\n\r\n", "505 HTTP Version Not Supported"},
		{"HTTP/0.9", "GET / HTTP/0.9\r\n\r\n", "505 HTTP Version Not Supported"},
		{"unknown method", "BREW / HTTP/1.1\r\nHost: h\r\n\r\n", "501 Not Implemented"},
		{"long address", "GET /" + long + " HTTP/1.1\r\nHost: h\r\n\r\n", "414 URI Too Long"},
		{"long field", "GET / HTTP/1.1\r\nHost: h\r\nCookie: " + long + "\r\n\r\n", "431 Request Header Fields Too Large"},
		{"large header", "GET / HTTP/1.1\r\nHost: h\r\n" + strings.Repeat("Cookie: "+long[:4000]+"\r\n", 5) + "\r\n", "431 Request Header Fields Too Large"},
		{"many fields", "GET / HTTP/1.1\r\nHost: h\r\n" + strings.Repeat("X-A: b\r\n", webMaxFields) + "\r\n", "431 Request Header Fields Too Large"},
		{"folded field", "GET / HTTP/1.1\r\nHost: h\r\nX-A: b\r\n c\r\n\r\n", "400 Bad Request"},
		{"space before colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n", "400 Bad Request"},
		{"no colon", "GET / HTTP/1.1\r\nHost h\r\n\r\n", "400 Bad Request"},
		{"control in value", "GET / HTTP/1.1\r\nHost: h\r\nX-A: b\x00c\r\n\r\n", "400 Bad Request"},
		{"bare CR in value", "GET / HTTP/1.1\r\nHost: h\r\nX-A: b\rc\r\n\r\n", "400 Bad Request"},
		{"no Host", "GET / HTTP/1.1\r\n\r\n", "400 Bad Request"},
		{"two Hosts", "GET / HTTP/1.1\r\nHost: h\r\nHost: i\r\n\r\n", "400 Bad Request"},
		{"chunked", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nq=1\r\n0\r\n\r\n", "411 Length Required"},
		{"chunked and a length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nq=1", "411 Length Required"},
		{"two lengths", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nq=1", "400 Bad Request"},
		{"length list", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3\r\n\r\nq=1", "400 Bad Request"},
		{"signed length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +3\r\n\r\nq=1", "400 Bad Request"},
		{"huge length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 9999999999999999999\r\n\r\n", "400 Bad Request"},
		{"GET with a body", "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nq=1", "400 Bad Request"},
		{"other expectation", "POST / HTTP/1.1\r\nHost: h\r\nExpect: 200-ok\r\nContent-Length: 3\r\n\r\nq=1", "417 Expectation Failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := exchange(t, addr, tc.raw)
			if !ok {
				t.Fatal("no reply")
			}
			if r.status != "HTTP/1.1 "+tc.status {
				t.Errorf("status %q, want %q; body %q", r.status, tc.status, r.body)
			}
			if r.fields["Connection"] != "close" || r.fields["Content-Type"] != "text/plain; charset=utf-8" ||
				r.fields["Content-Security-Policy"] != "default-src 'none'; frame-ancestors 'none'" ||
				r.fields["X-Content-Type-Options"] != "nosniff" {
				t.Errorf("reply fields %q", r.fields)
			}
			if r.err != io.EOF {
				t.Errorf("after the reply: %v, want the connection closed", r.err)
			}
		})
	}
}

func TestWebServerServes(t *testing.T) {
	_, addr := testServer(t, echo)
	for _, tc := range []struct {
		name, raw, want string
	}{
		{"GET", "GET /?token=x HTTP/1.1\r\nHost: h:1\r\nUser-Agent: t\r\n\r\n", "GET / ?token=x h:1 "},
		{"bare LF lines", "GET /wait HTTP/1.1\nHost: h\n\n", "GET /wait ? h "},
		{"HTTP/1.0 without Host", "GET / HTTP/1.0\r\n\r\n", "GET / ?  "},
		{"POST", "POST /answer?token=x HTTP/1.1\r\nHost: h\r\nContent-Length: 7\r\n\r\nq0=1&q1", "POST /answer ?token=x h q0=1&q1"},
		{"repeated length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\ncontent-length: 3\r\n\r\nq=1", "POST / ? h q=1"},
		{"folded case, spaces", "POST / HTTP/1.1\r\nhOsT:   h \t\r\nCONTENT-LENGTH:3\r\n\r\nq=1", "POST / ? h q=1"},
		{"PUT reaches the handler, which refuses it", "PUT / HTTP/1.1\r\nHost: h\r\n\r\n", "PUT / ? h "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := exchange(t, addr, tc.raw)
			if !ok {
				t.Fatal("no reply")
			}
			if r.status != "HTTP/1.1 200 OK" || r.body != tc.want {
				t.Errorf("got %q %q, want 200 %q", r.status, r.body, tc.want)
			}
			for _, f := range []string{"Date", "Cache-Control", "X-Frame-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy", "Cross-Origin-Resource-Policy"} {
				if r.fields[f] == "" {
					t.Errorf("reply lacks %s", f)
				}
			}
			if r.err != io.EOF {
				t.Errorf("after the reply: %v, want the connection closed", r.err)
			}
		})
	}

	// HEAD gives the length of what GET would send, and no body.
	_, addr = testServer(t, func(r *webRequest) *webReply {
		return &webReply{code: 200, contentType: "text/plain", body: []byte("twelve bytes")}
	})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(c, "HEAD / HTTP/1.1\r\nHost: h\r\n\r\n")
	all, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(all), "HTTP/1.1 200 OK\r\n") || !strings.Contains(string(all), "\r\nContent-Length: 12\r\n") ||
		!strings.HasSuffix(string(all), "\r\n\r\n") {
		t.Errorf("HEAD: %q", all)
	}
}

// TestWebServerOneRequestPerConnection checks that a second request on a
// connection is not read: the reply says Connection: close, and the
// connection is closed after it.
func TestWebServerOneRequestPerConnection(t *testing.T) {
	_, addr := testServer(t, echo)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(c, "GET /one HTTP/1.1\r\nHost: h\r\n\r\nGET /two HTTP/1.1\r\nHost: h\r\n\r\n")
	br := bufio.NewReader(c)
	r, ok := readRawReply(t, br)
	if !ok || r.body != "GET /one ? h " || r.fields["Connection"] != "close" {
		t.Fatalf("first reply %q %q %q", r.status, r.fields, r.body)
	}
	if r.err == nil {
		rest, _ := io.ReadAll(br)
		t.Fatalf("more after the first reply: %q", rest)
	}
	// The next request, on a connection of its own, is served.
	if r, ok := exchange(t, addr, "GET /two HTTP/1.1\r\nHost: h\r\n\r\n"); !ok || r.body != "GET /two ? h " {
		t.Fatalf("second request: %q %q", r.status, r.body)
	}
}

func TestWebServerExpectContinue(t *testing.T) {
	_, addr := testServer(t, echo)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(c, "POST /answer HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
	br := bufio.NewReader(c)
	for _, want := range []string{"HTTP/1.1 100 Continue\r\n", "\r\n"} {
		if line, err := br.ReadString('\n'); line != want {
			t.Fatalf("read %q (%v), want %q", line, err, want)
		}
	}
	io.WriteString(c, "q0=1")
	if r, ok := readRawReply(t, br); !ok || r.body != "POST /answer ? h q0=1" {
		t.Fatalf("reply %q %q", r.status, r.body)
	}
}

// TestWebServerSlowClients checks that a client that sends nothing, sends
// its header a byte at a time, or never sends the body it announced, is
// cut off, and that one that does not read its reply cannot hold the
// server either.
func TestWebServerSlowClients(t *testing.T) {
	const limit = 300 * time.Millisecond
	served := make(chan struct{}, 10)
	big := make([]byte, 64<<20)
	s, addr := testServer(t, func(r *webRequest) *webReply {
		served <- struct{}{}
		if r.path == "/big" {
			return &webReply{code: 200, contentType: "text/plain", body: big}
		}
		return echo(r)
	}, limit, 2*limit, limit)

	// closedWithin checks that the server closes c within d, reading and
	// dropping what it sends.
	closedWithin := func(t *testing.T, c net.Conn, d time.Duration, drip string) {
		t.Helper()
		start := time.Now()
		c.SetReadDeadline(start.Add(d + 2*time.Second))
		done := make(chan error, 1)
		go func() {
			_, err := io.Copy(io.Discard, c)
			done <- err
		}()
		for _, b := range []byte(drip) {
			if _, err := c.Write([]byte{b}); err != nil {
				break
			}
			time.Sleep(limit / 10)
		}
		err := <-done
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("still open after %v", time.Since(start))
		}
		if took := time.Since(start); took > d+time.Second {
			t.Errorf("closed after %v, want about %v", took, d)
		}
	}
	dial := func(t *testing.T) net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}

	t.Run("idle", func(t *testing.T) {
		closedWithin(t, dial(t), limit, "")
	})
	t.Run("header a byte at a time", func(t *testing.T) {
		closedWithin(t, dial(t), limit, "GET / HTTP/1.1\r\nHost: h\r\nX-Slow: "+strings.Repeat("a", 100))
	})
	t.Run("body never sent", func(t *testing.T) {
		c := dial(t)
		io.WriteString(c, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nq=")
		r, ok := readRawReply(t, bufio.NewReader(c))
		if !ok || r.status != "HTTP/1.1 400 Bad Request" {
			t.Fatalf("reply %q %q", r.status, r.body)
		}
	})
	t.Run("reply never read", func(t *testing.T) {
		c := dial(t)
		io.WriteString(c, "GET /big HTTP/1.1\r\nHost: h\r\n\r\n")
		<-served
		time.Sleep(limit + time.Second)
		n, _ := io.Copy(io.Discard, c)
		if n >= int64(len(big)) {
			t.Errorf("read the whole reply (%d bytes), want it cut off", n)
		}
	})
	// The server lets go of every connection, without shutdown, within
	// its limits on time.
	deadline := time.Now().Add(2 * time.Second)
	for {
		s.mu.Lock()
		n := len(s.conns)
		s.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d connections still open", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestWebServerShutdown checks that shutdown closes at once the connections
// that have not sent a whole request, and lets one being served finish.
func TestWebServerShutdown(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	s := newWebServer(ln, func(r *webRequest) *webReply {
		close(entered)
		<-release
		return &webReply{code: 200, body: []byte("finished")}
	})
	served := make(chan error, 1)
	go func() { served <- s.serve() }()

	idle, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	half, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	io.WriteString(half, "GET / HTTP/1.1\r\nHost: ")
	busy, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	io.WriteString(busy, "GET / HTTP/1.1\r\nHost: h\r\n\r\n")
	<-entered
	for {
		s.mu.Lock()
		n := len(s.conns)
		s.mu.Unlock()
		if n == 3 {
			break
		}
		time.Sleep(time.Millisecond)
	}

	stopped := make(chan struct{})
	go func() {
		s.shutdown(5 * time.Second)
		close(stopped)
	}()
	for name, c := range map[string]net.Conn{"idle": idle, "half a request": half} {
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		if _, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("%s: %v, want the connection closed", name, err)
		}
	}
	if _, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		t.Errorf("still accepting")
	}
	close(release)
	busy.SetReadDeadline(time.Now().Add(5 * time.Second))
	if r, ok := readRawReply(t, bufio.NewReader(busy)); !ok || r.body != "finished" {
		t.Errorf("request being served: %q %q", r.status, r.body)
	}
	<-stopped
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
}

func TestWebServerLimitsConnections(t *testing.T) {
	_, addr := testServer(t, echo)
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range webMaxConns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	// Wait for the server to have taken them all, then one more.
	time.Sleep(100 * time.Millisecond)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("connection over the limit: %v, want it closed", err)
	}
	// Once one closes, a request is served again.
	conns[0].Close()
	conns = conns[1:]
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		r, ok := exchange(t, addr, "GET / HTTP/1.1\r\nHost: h\r\n\r\n")
		if ok && r.status == "HTTP/1.1 200 OK" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after one closed: %q", r.status)
		}
	}
}
