package web

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

// FuzzReadWebRequest feeds arbitrary bytes to the page server's request
// reader, as a hostile local client could. It must never panic, and must
// either refuse with a client-error status or return a request whose
// fields hold nothing that the handler could be fooled by.
func FuzzReadWebRequest(f *testing.F) {
	for _, seed := range []string{
		"GET /?token=abc HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
		"POST /answer?token=abc HTTP/1.1\r\nHost: localhost:1\r\nOrigin: http://localhost:1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5\r\n\r\nq0=1&",
		"GET / HTTP/1.0\r\n\r\n",
		"HEAD /wait?token=x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n",
		"POST /cancel HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
		"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",
		"GET http://evil/ HTTP/1.1\r\nHost: a\r\n\r\n",
		"GET /\x00 HTTP/1.1\r\n\r\n",
		"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
		strings.Repeat("A", 20000),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, reply := readWebRequest(bufio.NewReaderSize(bytes.NewReader(data), webMaxHeaderBytes))
		switch {
		case req != nil && reply != nil:
			t.Fatalf("both a request and a refusal")
		case reply != nil:
			if reply.code < 400 || reply.code > 505 {
				t.Fatalf("refused with status %d", reply.code)
			}
			out := reply.bytes(false)
			if !bytes.HasPrefix(out, []byte("HTTP/1.1 ")) || !bytes.Contains(out, []byte("\r\n\r\n")) {
				t.Fatalf("malformed refusal %q", out)
			}
		case req != nil:
			if !isToken(req.method) {
				t.Fatalf("method %q is not a token", req.method)
			}
			if !strings.HasPrefix(req.path, "/") {
				t.Fatalf("path %q does not start with /", req.path)
			}
			for _, s := range []string{req.method, req.path, req.rawQuery, req.host, req.contentType, req.origin} {
				if strings.ContainsAny(s, "\r\n\x00") {
					t.Fatalf("a field holds a line break or NUL: %q", s)
				}
			}
			if req.contentLength < 0 {
				t.Fatalf("negative Content-Length %d", req.contentLength)
			}
			if req.contentLength > 0 && (req.method == "GET" || req.method == "HEAD") {
				t.Fatalf("%s with a body", req.method)
			}
		}
	})
}
