package localhttp

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestGuard checks what the guard lets through to the handler behind it,
// and what it refuses and how, whatever that handler is.
func TestGuard(t *testing.T) {
	addr := &net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 8080}
	g, err := NewGuard(addr, "", "s3cret", 100)
	if err != nil {
		t.Fatal(err)
	}
	var reached *http.Request
	var body string
	h := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached = r
		b, err := io.ReadAll(r.Body)
		if err != nil {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			return
		}
		body = string(b)
		w.WriteHeader(http.StatusTeapot)
	}))
	form := "application/x-www-form-urlencoded"
	for _, tc := range []struct {
		name, method, target, host, origin, ctype, body string
		chunked                                         bool
		code                                            int
		msg                                             string
	}{
		{"the page", "GET", "/?token=s3cret", "127.0.0.1:8080", "", "", "", false, http.StatusTeapot, ""},
		{"HEAD, localhost", "HEAD", "/wait?token=s3cret", "LocalHost:8080", "", "", "", false, http.StatusTeapot, ""},
		{"a form", "POST", "/answer?token=s3cret", "127.0.0.1:8080", "http://127.0.0.1:8080", form + "; charset=UTF-8", "q0=1", false, http.StatusTeapot, ""},
		{"a form without Origin", "POST", "/answer?token=s3cret", "localhost:8080", "", form, "q0=1", false, http.StatusTeapot, ""},

		{"no token", "GET", "/", "127.0.0.1:8080", "", "", "", false, http.StatusForbidden, "with its token"},
		{"wrong token", "GET", "/?token=s3cre", "127.0.0.1:8080", "", "", "", false, http.StatusForbidden, "with its token"},
		{"token twice, first wrong", "GET", "/?token=x&token=s3cret", "127.0.0.1:8080", "", "", "", false, http.StatusForbidden, "with its token"},
		{"token in the form", "POST", "/answer", "127.0.0.1:8080", "", form, "token=s3cret", false, http.StatusForbidden, "with its token"},
		{"foreign host", "GET", "/?token=s3cret", "attacker.example:8080", "", "", "", false, http.StatusForbidden, "its own address"},
		{"other port", "GET", "/?token=s3cret", "127.0.0.1:8081", "", "", "", false, http.StatusForbidden, "its own address"},
		{"no host", "GET", "/?token=s3cret", "", "", "", "", false, http.StatusForbidden, "its own address"},
		{"foreign origin", "POST", "/answer?token=s3cret", "127.0.0.1:8080", "http://attacker.example", form, "q0=1", false, http.StatusForbidden, "another site"},
		{"null origin", "POST", "/cancel?token=s3cret", "127.0.0.1:8080", "null", form, "", false, http.StatusForbidden, "another site"},
		{"https origin", "POST", "/answer?token=s3cret", "127.0.0.1:8080", "https://127.0.0.1:8080", form, "q0=1", false, http.StatusForbidden, "another site"},
		{"foreign origin, PUT", "PUT", "/?token=s3cret", "127.0.0.1:8080", "http://attacker.example", "", "", false, http.StatusForbidden, "another site"},
		{"JSON", "POST", "/answer?token=s3cret", "127.0.0.1:8080", "", "application/json", `{"q0":1}`, false, http.StatusUnsupportedMediaType, "x-www-form-urlencoded"},
		{"no content type", "POST", "/answer?token=s3cret", "127.0.0.1:8080", "", "", "q0=1", false, http.StatusUnsupportedMediaType, "x-www-form-urlencoded"},
		{"too large", "POST", "/answer?token=s3cret", "127.0.0.1:8080", "", form, strings.Repeat("a", 101), false, http.StatusRequestEntityTooLarge, "too large"},
		// Without a length up front, the body is cut off as it is read.
		{"too large, chunked", "POST", "/answer?token=s3cret", "127.0.0.1:8080", "", form, strings.Repeat("a", 101), true, http.StatusRequestEntityTooLarge, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reached, body = nil, ""
			req := httptest.NewRequest(tc.method, tc.target, strings.NewReader(tc.body))
			req.Host = tc.host
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.ctype != "" {
				req.Header.Set("Content-Type", tc.ctype)
			}
			if tc.chunked {
				req.ContentLength = -1
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.code {
				t.Fatalf("status %d, want %d; body %q", rec.Code, tc.code, rec.Body)
			}
			for _, f := range []string{"Cache-Control", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy", "Cross-Origin-Resource-Policy"} {
				if rec.Header().Get(f) == "" {
					t.Errorf("the reply lacks %s", f)
				}
			}
			if tc.msg == "" {
				if tc.code == http.StatusTeapot && body != tc.body {
					t.Errorf("the handler read %q, want %q", body, tc.body)
				}
				return
			}
			if reached != nil {
				t.Errorf("the handler saw the request")
			}
			if !strings.Contains(rec.Body.String(), tc.msg) {
				t.Errorf("body %q does not say %q", rec.Body, tc.msg)
			}
			if ct, csp := rec.Header().Get("Content-Type"), rec.Header().Get("Content-Security-Policy"); ct != "text/plain; charset=utf-8" || csp != "default-src 'none'; frame-ancestors 'none'" {
				t.Errorf("refused with Content-Type %q and policy %q", ct, csp)
			}
		})
	}
}

func TestNewGuardNeedsTCP(t *testing.T) {
	if _, err := NewGuard(&net.UnixAddr{Name: "/tmp/s", Net: "unix"}, "", "t", 1); err == nil {
		t.Errorf("a guard of a Unix socket, which has no host to check")
	}
}

// TestGuardOnEveryInterface checks that a server on every interface
// answers to any of this machine's addresses and to the host it is shown
// with, and still to no other name.
func TestGuardOnEveryInterface(t *testing.T) {
	g, err := NewGuard(&net.TCPAddr{IP: net.IPv4zero, Port: 80}, "Box.local", "t", 100)
	if err != nil {
		t.Fatal(err)
	}
	h := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	for host, want := range map[string]int{
		"192.0.2.7":           http.StatusOK,
		"[2001:db8::1]":       http.StatusOK,
		"box.local":           http.StatusOK,
		"box.local:80":        http.StatusOK,
		"attacker.example":    http.StatusForbidden,
		"box.local.":          http.StatusForbidden,
		"192.0.2.7:8080":      http.StatusForbidden,
		"attacker.example:80": http.StatusForbidden,
	} {
		req := httptest.NewRequest("GET", "/?token=t", nil)
		req.Host = host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("Host %s: %d, want %d", host, rec.Code, want)
		}
	}
}

func TestHostCheck(t *testing.T) {
	loopback := &Guard{port: "8080", ip: net.ParseIP("127.0.0.1"), display: "127.0.0.1"}
	every := &Guard{port: "8080", ip: net.IPv6unspecified, display: "192.0.2.7"}
	for _, tc := range []struct {
		check *Guard
		host  string
		want  bool
	}{
		{loopback, "127.0.0.1:8080", true},
		{loopback, "localhost:8080", true},
		{loopback, "LOCALHOST:8080", true},
		{loopback, "127.0.0.1:8081", false},
		{loopback, "127.0.0.1", false},
		{loopback, "attacker.example:8080", false},
		{loopback, "localhost.:8080", false},
		{loopback, "127.0.0.2:8080", false},
		{loopback, "[::1]:8080", false},
		{loopback, "", false},
		{every, "192.0.2.7:8080", true},
		{every, "[2001:db8::1]:8080", true},
		{every, "attacker.example:8080", false},
		{&Guard{port: "80", ip: net.ParseIP("127.0.0.1"), display: "127.0.0.1"}, "127.0.0.1", true},
	} {
		if got := tc.check.AllowsHost(tc.host); got != tc.want {
			t.Errorf("%+v.AllowsHost(%q) = %v, want %v", tc.check, tc.host, got, tc.want)
		}
	}
}
