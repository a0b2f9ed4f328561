package web

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/prompt"
)

// newTestSet returns a Prompter asking one question on the page at base,
// as Ask has it once it serves.
func newTestSet(base string) *Prompter {
	return &Prompter{page: &Page{Base: base, Token: "t", Questions: webQuestions[:1]}, done: make(chan struct{})}
}

func serve(h http.Handler, method, target, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestSetRoutes checks which addresses and methods a set serves under its
// base, and that nothing else ends its wait.
func TestSetRoutes(t *testing.T) {
	s := newTestSet("/sets/7/")
	for _, tc := range []struct {
		method, target string
		code           int
		allow          string
	}{
		{"GET", "/sets/7/", http.StatusOK, ""},
		{"HEAD", "/sets/7/", http.StatusOK, ""},
		{"GET", "/", http.StatusNotFound, ""},
		{"GET", "/sets/7", http.StatusNotFound, ""},
		{"GET", "/sets/8/", http.StatusNotFound, ""},
		{"GET", "/sets/7/favicon.ico", http.StatusNotFound, ""},
		{"PUT", "/sets/7/", http.StatusMethodNotAllowed, "GET, HEAD"},
		{"POST", "/sets/7/", http.StatusMethodNotAllowed, "GET, HEAD"},
		{"GET", "/sets/7/answer", http.StatusMethodNotAllowed, "POST"},
		{"DELETE", "/sets/7/cancel", http.StatusMethodNotAllowed, "POST"},
		{"POST", "/sets/7/wait", http.StatusMethodNotAllowed, "GET"},
		{"BREW", "/sets/7/", http.StatusNotImplemented, ""},
	} {
		rec := serve(s, tc.method, tc.target, "")
		if rec.Code != tc.code || rec.Header().Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d, Allow %q; want %d, Allow %q", tc.method, tc.target, rec.Code, rec.Header().Get("Allow"), tc.code, tc.allow)
		}
	}
	if rec := serve(s, "GET", "/sets/7/", ""); !strings.Contains(rec.Body.String(), `action="/sets/7/answer?token=t"`) {
		t.Errorf("the page does not send its form under its base:\n%s", rec.Body)
	}
	if e := s.current(); e != nil {
		t.Errorf("ended %+v, want waiting", e)
	}
}

// TestSetAnswer checks that a forged or unfinished form is refused and
// shown again, that the first answer wins, and that a form sent after the
// wait ended is told so.
func TestSetAnswer(t *testing.T) {
	s := newTestSet("/")
	rec := serve(s, "POST", "/answer", "q0=MySQL")
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "That is not one of this question&#39;s options.") {
		t.Fatalf("forged label: %d\n%s", rec.Code, rec.Body)
	}
	if rec := serve(s, "POST", "/answer", "q0=%zz"); rec.Code != http.StatusBadRequest {
		t.Errorf("malformed form: %d", rec.Code)
	}
	select {
	case <-s.done:
		t.Fatal("a refused form ended the wait")
	default:
	}
	rec = serve(s, "POST", "/answer", "q0=2&q0-note=small+data")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "<dd>SQLite</dd>") {
		t.Fatalf("answer: %d\n%s", rec.Code, rec.Body)
	}
	<-s.done
	want := ending{answers: []prompt.Answer{{Labels: []string{"SQLite"}, Note: "small data"}}}
	if e := s.current(); e == nil || e.err != nil || len(e.answers) != 1 || e.answers[0].String() != "SQLite" || e.answers[0].Note != "small data" {
		t.Errorf("ended %+v, want %+v", e, want)
	}
	for _, form := range []string{"q0=1", "q0=MySQL"} {
		rec := serve(s, "POST", "/answer", form)
		if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "<dd>SQLite</dd>") {
			t.Errorf("answer %s after the answer: %d\n%s", form, rec.Code, rec.Body)
		}
	}
	if rec := serve(s, "POST", "/cancel", ""); rec.Code != http.StatusConflict {
		t.Errorf("cancel after the answer: %d", rec.Code)
	}
	if s.end(ending{err: context.Canceled}) || s.current().err != nil {
		t.Errorf("end after the answer changed how it ended to %+v", s.current())
	}
}

// TestSetWait checks the long poll: it ends when the wait ends (here, ended
// from outside, as the inbox does when the terminal answers), when its
// client goes, and never on its own before PollWait.
func TestSetWait(t *testing.T) {
	s := newTestSet("/")
	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan *httptest.ResponseRecorder)
	go func() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", "/wait", nil).WithContext(ctx))
		gone <- rec
	}()
	waited := make(chan *httptest.ResponseRecorder)
	go func() {
		waited <- serve(s, "GET", "/wait", "")
	}()
	select {
	case <-gone:
		t.Fatal("the wait ended by itself")
	case <-waited:
		t.Fatal("the wait ended by itself")
	case <-time.After(200 * time.Millisecond):
	}
	cancel()
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the wait of a client that went is still held")
	}
	if !s.end(ending{err: context.DeadlineExceeded, reason: "timed out after 1s"}) {
		t.Fatal("end did not end the wait")
	}
	select {
	case rec := <-waited:
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Question withdrawn") || !strings.Contains(rec.Body.String(), "(timed out after 1s)") {
			t.Errorf("wait: %d\n%s", rec.Code, rec.Body)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the wait did not learn that the questions were withdrawn")
	}
	// Once over, a wait is answered at once.
	if rec := serve(s, "GET", "/wait", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Question withdrawn") {
		t.Errorf("wait after the end: %d", rec.Code)
	}
}

func TestSetCancel(t *testing.T) {
	s := newTestSet("/")
	if rec := serve(s, "POST", "/cancel", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Cancelled") {
		t.Fatalf("cancel: %d\n%s", rec.Code, rec.Body)
	}
	if rec := serve(s, "POST", "/answer", "q0=1"); rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "Cancelled") {
		t.Errorf("answer after cancel: %d\n%s", rec.Code, rec.Body)
	}
	if e := s.current(); e == nil || !errors.Is(e.err, prompt.ErrCancelled) || e.answers != nil {
		t.Errorf("ended %+v", e)
	}
}

// waiting returns how many pages are waiting on the set.
func (p *Prompter) waiting() int {
	return int(p.waiters.Load())
}
