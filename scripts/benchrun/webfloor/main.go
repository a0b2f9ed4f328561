// Command webfloor is the floor for answering on a web page in Go: the
// least a program does that serves a page with net/http, takes one answer
// as askuser's page sends it (a form posted to /answer, a long poll on
// /wait held until then), shuts the server down and prints the answer.
// scripts/bench.sh measures askuser --ui web's POST-to-stdout time against
// it. It checks nothing (no token, Host or Origin), validates nothing and
// renders no template: what it costs is what net/http and a Go process
// cost.
package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"time"
)

const page = `<!doctype html><title>Question</title><form method="post" action="/answer?token=t"><input type="radio" name="q0" value="1"><input type="radio" name="q0" value="2"><button>Submit</button></form>`

var labels = map[string]string{"1": "PostgreSQL (Recommended)", "2": "SQLite"}

func main() {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "webfloor:", err)
		os.Exit(1)
	}
	answer := make(chan string, 1)
	done := make(chan struct{})
	var once sync.Once
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = fmt.Fprint(w, page)
	})
	mux.HandleFunc("GET /wait", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-done:
			_, _ = fmt.Fprint(w, page)
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("POST /answer", func(w http.ResponseWriter, r *http.Request) {
		label, ok := labels[r.FormValue("q0")]
		if !ok {
			http.Error(w, "choose an option", http.StatusBadRequest)
			return
		}
		once.Do(func() {
			answer <- label
			close(done)
		})
		_, _ = fmt.Fprint(w, page)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }() // ends with Shutdown below
	fmt.Fprintf(os.Stderr, "Answer in your browser: http://%s/?token=t\n", ln.Addr())
	label := <-answer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx) // the answer is known; the page's replies are best effort
	if _, err := os.Stdout.WriteString(`{"answers":{"Database":"` + label + `"}}` + "\n"); err != nil {
		os.Exit(1)
	}
}
