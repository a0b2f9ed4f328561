package notify

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Subscribe reads the text of each message of the topic's JSON stream,
// passing over its other events; when the stream ends, it is read again
// from the last message read (since=), so that nothing is lost or read
// twice; a server that refuses is told to warn, once, and then that the
// topic is read again.
func TestSubscribe(t *testing.T) {
	var mu sync.Mutex
	var asked []string // the query of each GET
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.RawQuery)
		n := len(asked)
		mu.Unlock()
		if r.URL.Path != "/replies/json" {
			t.Errorf("GET %s", r.URL.Path)
		}
		switch n {
		case 1:
			fmt.Fprintln(w, `{"id":"open1","event":"open","topic":"replies"}`)
			fmt.Fprintln(w, `{"id":"k1","event":"keepalive","topic":"replies"}`)
			fmt.Fprintln(w, `{"id":"a1","event":"message","topic":"replies","message":"first"}`)
			fmt.Fprintln(w, `not JSON`)
		case 2:
			http.Error(w, "busy", http.StatusServiceUnavailable)
		default:
			fmt.Fprintln(w, `{"id":"a2","event":"message","topic":"replies","message":"second"}`)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 4)
	var warnings []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		Subscribe(ctx, srv.Client(), srv.URL+"/replies", func(text string) { got <- text }, func(err error) {
			warnings = append(warnings, fmt.Sprint(err))
		})
	}()
	for _, want := range []string{"first", "second"} {
		select {
		case text := <-got:
			if text != want {
				t.Errorf("read %q, want %q", text, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%q was not read", want)
		}
	}
	cancel()
	<-done
	if len(warnings) != 2 || warnings[0] != "the push service answered 503 Service Unavailable" || warnings[1] != "<nil>" {
		t.Errorf("warned %q", warnings)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 3 || asked[0] != "" || asked[1] != "since=a1" || asked[2] != "since=a1" {
		t.Errorf("the GETs asked %q", asked)
	}
}
