package localhttp

import (
	"bufio"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testutil"
)

// testServer serves h on a loopback port until the test ends; limits, when
// set, shortens the server's limits on time first.
func testServer(t *testing.T, h http.Handler, limits func(*http.Server)) (*Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := NewServer(h)
	if limits != nil {
		limits(s.srv)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	t.Cleanup(func() {
		s.Stop(time.Second)
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return s, ln.Addr().String()
}

// dial connects to addr, to be closed when the test ends.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// exchange sends raw on a new connection and reads one reply.
func exchange(t *testing.T, addr, method, raw string) (*http.Response, string) {
	t.Helper()
	c := dial(t, addr)
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: method})
	if err != nil {
		t.Fatalf("no reply: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// TestServerRefusesMalformedRequests checks that what net/http refuses
// never reaches the handler. These are the requests the page's server
// refused before it was served by net/http; the ones net/http takes (a
// folded field, a fragment, bytes beyond ASCII in the target, a body
// without a length, many short fields) reach the Guard, which wants the
// token and one of the server's names.
func TestServerRefusesMalformedRequests(t *testing.T) {
	var reached atomic.Bool
	_, addr := testServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Store(true)
	}), nil)
	long := strings.Repeat("a", maxHeaderBytes+4096)
	for _, tc := range []struct {
		name, raw string
		code      int
	}{
		{"no version", "GET /\r\n\r\n", 400},
		{"two spaces", "GET  / HTTP/1.1\r\nHost: h\r\n\r\n", 400},
		{"space in target", "GET /a b HTTP/1.1\r\nHost: h\r\n\r\n", 400},
		{"lower-case version", "GET / http/1.1\r\nHost: h\r\n\r\n", 400},
		{"control in method", "G\x01T / HTTP/1.1\r\nHost: h\r\n\r\n", 400},
		{"empty line first", "\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n", 400},
		{"HTTP/2", "GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505},
		{"HTTP/0.9", "GET / HTTP/0.9\r\n\r\n", 505},
		{"long address", "GET /" + long + " HTTP/1.1\r\nHost: h\r\n\r\n", 431},
		{"long field", "GET / HTTP/1.1\r\nHost: h\r\nCookie: " + long + "\r\n\r\n", 431},
		{"large header", "GET / HTTP/1.1\r\nHost: h\r\n" + strings.Repeat("Cookie: "+long[:4000]+"\r\n", 6) + "\r\n", 431},
		{"space before colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400},
		{"no colon", "GET / HTTP/1.1\r\nHost h\r\n\r\n", 400},
		{"control in value", "GET / HTTP/1.1\r\nHost: h\r\nX-A: b\x00c\r\n\r\n", 400},
		{"bare CR in value", "GET / HTTP/1.1\r\nHost: h\r\nX-A: b\rc\r\n\r\n", 400},
		{"no Host", "GET / HTTP/1.1\r\n\r\n", 400},
		{"two Hosts", "GET / HTTP/1.1\r\nHost: h\r\nHost: i\r\n\r\n", 400},
		{"two lengths", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nq=1", 400},
		{"length list", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3\r\n\r\nq=1", 400},
		{"signed length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +3\r\n\r\nq=1", 400},
		{"huge length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 9999999999999999999\r\n\r\n", 400},
		{"other expectation", "POST / HTTP/1.1\r\nHost: h\r\nExpect: 200-ok\r\nContent-Length: 3\r\n\r\nq=1", 417},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := exchange(t, addr, "GET", tc.raw)
			if resp.StatusCode != tc.code {
				t.Errorf("status %d, want %d; body %q", resp.StatusCode, tc.code, body)
			}
			if !resp.Close {
				t.Errorf("the connection is kept open after a malformed request")
			}
		})
	}
	if reached.Load() {
		t.Errorf("a malformed request reached the handler")
	}
}

// TestServerExpectContinue checks that a client that waits to be told to
// send its form is told.
func TestServerExpectContinue(t *testing.T) {
	_, addr := testServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Write(b)
	}), nil)
	c := dial(t, addr)
	c.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(c, "POST /answer HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
	br := bufio.NewReader(c)
	for _, want := range []string{"HTTP/1.1 100 Continue\r\n", "\r\n"} {
		if line, err := br.ReadString('\n'); line != want {
			t.Fatalf("read %q (%v), want %q", line, err, want)
		}
	}
	io.WriteString(c, "q0=1")
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(resp.Body); string(b) != "q0=1" {
		t.Fatalf("reply %q", b)
	}
}

// TestServerSlowClients checks that a client that sends nothing, sends its
// header a byte at a time, or never sends the body it announced, is cut
// off, and that one that does not read its reply cannot hold the server
// either.
func TestServerSlowClients(t *testing.T) {
	const limit = 300 * time.Millisecond
	served := make(chan struct{}, 10)
	big := make([]byte, 64<<20)
	s, addr := testServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served <- struct{}{}
		if r.URL.Path == "/big" {
			w.Write(big)
			return
		}
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, "The form could not be read.", http.StatusBadRequest)
		}
	}), func(srv *http.Server) {
		srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout = limit, 2*limit, 3*limit
	})

	// closedWithin checks that the server closes c within d, reading and
	// dropping what it sends.
	closedWithin := func(t *testing.T, c net.Conn, d time.Duration, drip string) {
		t.Helper()
		start := time.Now()
		c.SetReadDeadline(start.Add(d + testutil.Slow))
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
	}

	t.Run("idle", func(t *testing.T) {
		closedWithin(t, dial(t, addr), limit, "")
	})
	t.Run("header a byte at a time", func(t *testing.T) {
		closedWithin(t, dial(t, addr), limit, "GET / HTTP/1.1\r\nHost: h\r\nX-Slow: "+strings.Repeat("a", 100))
	})
	t.Run("body never sent", func(t *testing.T) {
		c := dial(t, addr)
		io.WriteString(c, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nq=")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("reply %v %v", resp, err)
		}
	})
	t.Run("reply never read", func(t *testing.T) {
		c := dial(t, addr)
		io.WriteString(c, "GET /big HTTP/1.1\r\nHost: h\r\n\r\n")
		<-served
		time.Sleep(3*limit + time.Second)
		n, _ := io.Copy(io.Discard, c)
		if n >= int64(len(big)) {
			t.Errorf("read the whole reply (%d bytes), want it cut off", n)
		}
	})
	// The server lets go of every connection, without Stop, within its
	// limits on time.
	deadline := time.Now().Add(testutil.Slow)
	for s.connections() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections still open", s.connections())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestServerStop checks that Stop closes at once the connections that
// have not sent a whole request, and the idle ones, lets one being served
// finish, and returns once it has.
func TestServerStop(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}, 1), make(chan struct{})
	s := NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/quick" {
			return
		}
		entered <- struct{}{}
		<-release
		w.Write([]byte("finished"))
	}))
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	addr := ln.Addr().String()

	idle := dial(t, addr)
	half := dial(t, addr)
	io.WriteString(half, "GET / HTTP/1.1\r\nHost: ")
	// A connection kept alive after a request, idle between requests.
	kept := dial(t, addr)
	io.WriteString(kept, "GET /quick HTTP/1.1\r\nHost: h\r\n\r\n")
	keptReader := bufio.NewReader(kept)
	if resp, err := http.ReadResponse(keptReader, nil); err != nil || resp.StatusCode != 200 || resp.Close {
		t.Fatalf("quick request: %v %v", resp, err)
	}
	busy := dial(t, addr)
	io.WriteString(busy, "GET / HTTP/1.1\r\nHost: h\r\n\r\n")
	<-entered
	for s.connections() < 4 {
		time.Sleep(time.Millisecond)
	}

	stopped := make(chan time.Time, 1)
	start := time.Now()
	go func() {
		s.Stop(time.Minute)
		stopped <- time.Now()
	}()
	for _, c := range []net.Conn{idle, half, kept} {
		c.SetReadDeadline(time.Now().Add(testutil.Slow))
	}
	for name, c := range map[string]io.Reader{"idle": idle, "half a request": half, "kept alive": keptReader} {
		if _, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("%s: %v, want the connection closed", name, err)
		}
	}
	if took := time.Since(start); took > testutil.Slow {
		t.Errorf("took %v to close the connections without a request", took)
	}
	for deadline := time.Now().Add(testutil.Slow); ; time.Sleep(10 * time.Millisecond) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("still accepting")
		}
	}
	select {
	case <-stopped:
		t.Fatal("Stop returned with a request being served")
	default:
	}
	close(release)
	busy.SetReadDeadline(time.Now().Add(testutil.Slow))
	resp, err := http.ReadResponse(bufio.NewReader(busy), nil)
	if err != nil {
		t.Fatalf("the request being served: %v", err)
	}
	if b, _ := io.ReadAll(resp.Body); string(b) != "finished" {
		t.Errorf("the request being served: %q", b)
	}
	select {
	case <-stopped:
	case <-time.After(testutil.Slow):
		t.Fatal("Stop still waiting after the last request")
	}
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
}

// TestServerStopCutsOffAfterGrace checks that a request that takes longer
// than the grace is cut off, so that Stop always returns.
func TestServerStopCutsOffAfterGrace(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	entered := make(chan struct{})
	s, addr := testServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
	}), nil)
	c := dial(t, addr)
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: h\r\n\r\n")
	<-entered
	start := time.Now()
	s.Stop(300 * time.Millisecond)
	if took := time.Since(start); took > testutil.Slow {
		t.Errorf("Stop took %v with a grace of 300ms", took)
	}
	c.SetReadDeadline(time.Now().Add(testutil.Slow))
	if _, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the request past its grace: %v, want the connection closed", err)
	}
}

// TestServerSlowloris holds hundreds of connections open, idle or with
// half a header, and checks that a request is still served at once: the
// server keeps no count of connections for an attacker to fill.
func TestServerSlowloris(t *testing.T) {
	_, addr := testServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("served"))
	}), nil)
	for i := range 300 {
		c := dial(t, addr)
		if i%2 == 1 {
			io.WriteString(c, "GET / HTTP/1.1\r\nHost: h\r\nX-Slow: ")
		}
	}
	for range 5 {
		start := time.Now()
		resp, body := exchange(t, addr, "GET", "GET / HTTP/1.1\r\nHost: h\r\n\r\n")
		if resp.StatusCode != http.StatusOK || body != "served" {
			t.Fatalf("with 300 connections held: %d %q", resp.StatusCode, body)
		}
		if took := time.Since(start); took > testutil.Slow {
			t.Errorf("with 300 connections held, a request took %v", took)
		}
	}
}

// TestServerLogsNothing checks that what goes wrong in serving is not
// written to stderr, the person's terminal, where net/http logs it unless
// told otherwise.
func TestServerLogsNothing(t *testing.T) {
	var logged strings.Builder
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	_, addr := testServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.WriteHeader(http.StatusTeapot) // "superfluous response.WriteHeader call"
	}), nil)
	if resp, _ := exchange(t, addr, "GET", "GET / HTTP/1.1\r\nHost: h\r\n\r\n"); resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if logged.Len() > 0 {
		t.Errorf("logged %q", logged.String())
	}
}

// connections returns the number of connections open.
func (s *Server) connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}
