package view

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web"
	"github.com/askuser/askuser/schema"
)

const webToken = "page-token-0123456789abcdef0123456789"

// testWeb is the inbox's page of a queue, served on a loopback port.
type testWeb struct {
	q   *inbox.Queue
	v   *Web
	srv *httptest.Server
}

func startWeb(t *testing.T, q *inbox.Queue) *testWeb {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	v, err := NewWeb(WebOptions{Queue: q, Addr: srv.Listener.Addr(), Token: webToken, Home: "/home/me", Links: NewLinks()})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = v
	srv.Start()
	t.Cleanup(srv.Close)
	return &testWeb{q: q, v: v, srv: srv}
}

// at is the address of path on the page's server, with the token.
func (w *testWeb) at(path string) string {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return w.srv.URL + path + sep + "token=" + webToken
}

type reply struct {
	code int
	body string
}

func (w *testWeb) do(t *testing.T, req *http.Request) reply {
	t.Helper()
	resp, err := w.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{resp.StatusCode, string(b)}
}

func (w *testWeb) get(t *testing.T, path string) reply {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, w.at(path), nil)
	return w.do(t, req)
}

// post sends a form as the page's own tab does.
func (w *testWeb) post(t *testing.T, path, form string) reply {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, w.at(path), strings.NewReader(form))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", w.srv.URL)
	return w.do(t, req)
}

func setPath(s *inbox.Set, action string) string {
	return "/sets/" + strconv.FormatUint(s.ID, 10) + "/" + action
}

// shows reports whether a page shows the form of s.
func shows(body string, s *inbox.Set) bool {
	return strings.Contains(body, `data-set="`+setPath(s, "")+`"`) && strings.Contains(body, `data-state="form"`) &&
		strings.Contains(body, `action="`+setPath(s, "answer")+`?token=`)
}

func notice(body string) string {
	_, rest, ok := strings.Cut(body, `id="notice">`)
	if !ok {
		return ""
	}
	text, _, _ := strings.Cut(rest, "</p>")
	return text
}

func stillWaits(t *testing.T, s *inbox.Set) {
	t.Helper()
	if st := s.End().State; st != inbox.Waiting {
		t.Fatalf("the set from %s ended: %v", s.Source(), st)
	}
}

// The page shows the oldest set with where it came from, how long it has
// waited and how many more wait, and says so when nothing waits.
func TestWebShowsTheOldestSet(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	r := w.get(t, "/")
	if r.code != http.StatusOK || !strings.Contains(r.body, `data-state="idle"`) || !strings.Contains(r.body, "Nothing is waiting") ||
		!strings.Contains(r.body, `data-wait="/sets/0/wait?token=`+webToken+`&amp;more=0"`) {
		t.Fatalf("idle: %d\n%s", r.code, r.body)
	}
	a := add(t, q, &inbox.Set{Cwd: "/home/me/src/api", Arrived: arrival.Add(-63 * time.Second), Questions: []schema.Question{question("Database", "PostgreSQL", "SQLite")}})
	b := add(t, q, &inbox.Set{From: "deployer", Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", true)}})
	add(t, q, &inbox.Set{From: "namer", Questions: []schema.Question{schema.InputQuestion("Name?", "", "")}})
	r = w.get(t, "/")
	for _, want := range []string{
		`From <strong class="source">~/src/api</strong> · <span class="waited" data-seconds="75">waiting 1m</span> · <span class="more">2 more waiting</span>`,
		`data-wait="` + setPath(a, "wait") + `?token=` + webToken + `&amp;more=2"`,
		`action="` + setPath(a, "cancel") + `?token=`,
		`action="` + setPath(a, "next") + `?token=`,
		`<title>Question: Database · askuser inbox</title>`,
		`<legend id="q0-question" class="question">Database?</legend>`,
		`id="q0-note"`,
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if !shows(r.body, a) {
		t.Errorf("the page does not show the oldest set:\n%s", r.body)
	}
	// A yes/no question is asked as --ui web asks it, its default chosen.
	if err := q.Skip(a); err != nil {
		t.Fatal(err)
	}
	r = w.get(t, "/")
	if !shows(r.body, b) || !strings.Contains(r.body, `value="1" checked`) || strings.Contains(r.body, `id="q0-note"`) {
		t.Errorf("the confirm's page:\n%s", r.body)
	}
}

// A set's own address (ASKUSER_URL) shows that set, oldest or not, and
// once it has ended, the set shown now, saying how it ended.
func TestWebShowsASetAtItsAddress(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	qs := []schema.Question{question("Database", "PostgreSQL", "SQLite")}
	first := add(t, q, &inbox.Set{From: "first", Questions: qs})
	second := add(t, q, &inbox.Set{From: "second", Questions: qs})
	r := w.get(t, setPath(second, ""))
	if r.code != http.StatusOK || !shows(r.body, second) || !strings.Contains(r.body, `<strong class="source">second</strong>`) ||
		!strings.Contains(r.body, `data-wait="`+setPath(second, "wait")+`?token=`+webToken+`&amp;more=1"`) {
		t.Fatalf("the second set's address: %d\n%s", r.code, r.body)
	}
	q.Withdraw(second, "gone")
	r = w.get(t, setPath(second, ""))
	if r.code != http.StatusOK || !shows(r.body, first) || notice(r.body) != "The asker from second stopped waiting: its questions were withdrawn." {
		t.Errorf("the ended set's address: %d, notice %q\n%s", r.code, notice(r.body), r.body)
	}
	if r := w.get(t, "/sets/99/"); r.code != http.StatusOK || !shows(r.body, first) || notice(r.body) != "Those questions are no longer waiting." {
		t.Errorf("an unknown set's address: %d, notice %q", r.code, notice(r.body))
	}
}

// Where a set came from is shown as every text from an asker is
// (prompt.Display): a character that draws nothing is shown by its code
// point, so that "claude\u200bcode" cannot pass for "claudecode".
func TestWebShowsInvisibleCharacters(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	a := add(t, q, &inbox.Set{From: "claude\u200bcode", Questions: []schema.Question{question("Data\u2060base", "Postgre\ufeffSQL", "SQLite")}})
	r := w.get(t, "/")
	for _, want := range []string{
		`From <strong class="source">claude⟨U&#43;200B⟩code</strong>`,
		`Data⟨U&#43;2060⟩base?`,
		`Postgre⟨U&#43;FEFF⟩SQL`,
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	r = w.post(t, setPath(a, "answer"), "q0=1")
	if got, want := notice(r.body), "Sent to claude⟨U&#43;200B⟩code."; got != want {
		t.Errorf("notice %q, want %q", got, want)
	}
	if e := ended(t, a); !reflect.DeepEqual(e.Answers, []prompt.Answer{{Labels: []string{"Postgre\ufeffSQL"}}}) {
		t.Errorf("answered %+v, want the label as given", e.Answers)
	}
}

// Every request must carry the page's token and name the server; what
// changes something comes from the page's own origin, as a form of a size
// its set can send. Nothing refused changes the queue.
func TestWebRefuses(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	a := add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("Database", "PostgreSQL", "SQLite")}})
	form := "q0=2"
	for _, c := range []struct {
		name   string
		method string
		url    string
		header map[string]string
		host   string
		body   string
		code   int
	}{
		{"no token", "GET", w.srv.URL + "/", nil, "", "", http.StatusForbidden},
		{"a wrong token", "GET", w.srv.URL + "/?token=" + webToken[:len(webToken)-1] + "x", nil, "", "", http.StatusForbidden},
		{"the token as a bearer, not in the address", "POST", w.srv.URL + setPath(a, "answer"), map[string]string{"Authorization": "Bearer " + webToken, "Content-Type": "application/x-www-form-urlencoded"}, "", form, http.StatusForbidden},
		{"another host name", "GET", w.at("/"), nil, "evil.example:" + w.srv.Listener.Addr().String()[strings.LastIndex(w.srv.Listener.Addr().String(), ":")+1:], "", http.StatusForbidden},
		{"another site's form", "POST", w.at(setPath(a, "answer")), map[string]string{"Origin": "http://evil.example", "Content-Type": "application/x-www-form-urlencoded"}, "", form, http.StatusForbidden},
		{"not a form", "POST", w.at(setPath(a, "answer")), map[string]string{"Content-Type": "application/json"}, "", `{"q0":"2"}`, http.StatusUnsupportedMediaType},
		{"larger than any form", "POST", w.at(setPath(a, "answer")), map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "", form + "&q0-note=" + strings.Repeat("x", int(web.MaxFormBytes(webMaxQuestions))), http.StatusRequestEntityTooLarge},
		{"larger than this set's form", "POST", w.at(setPath(a, "answer")), map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "", form + "&pad=" + strings.Repeat("x", int(web.MaxFormBytes(1))), http.StatusRequestEntityTooLarge},
		{"cancel from another site", "POST", w.at(setPath(a, "cancel")), map[string]string{"Origin": "null", "Content-Type": "application/x-www-form-urlencoded"}, "", "", http.StatusForbidden},
		{"an answer by GET", "GET", w.at(setPath(a, "answer")), nil, "", "", http.StatusMethodNotAllowed},
		{"a set that is not a number", "POST", w.at("/sets/x/answer"), map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "", form, http.StatusConflict},
		{"elsewhere", "GET", w.at("/v1/status"), nil, "", "", http.StatusNotFound},
	} {
		req, _ := http.NewRequest(c.method, c.url, strings.NewReader(c.body))
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		if c.host != "" {
			req.Host = c.host
		}
		if r := w.do(t, req); r.code != c.code {
			t.Errorf("%s: %d, want %d\n%s", c.name, r.code, c.code, r.body)
		}
	}
	stillWaits(t, a)
	if r := w.post(t, setPath(a, "answer"), form); r.code != http.StatusOK {
		t.Fatalf("the page's own form: %d\n%s", r.code, r.body)
	}
	if got := ended(t, a); got.State != inbox.Answered || !reflect.DeepEqual(got.Answers, []prompt.Answer{{Labels: []string{"SQLite"}}}) {
		t.Errorf("answered %+v", got)
	}
}

// A form sent for a set that has ended (answered in the terminal or in
// another tab, cancelled, withdrawn) is told so with 409, and the page
// shows the set waiting now: the first to end a set wins.
func TestWebFormForAnEndedSet(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	qs := []schema.Question{question("Database", "PostgreSQL", "SQLite")}
	answered := add(t, q, &inbox.Set{From: "first", Questions: qs})
	withdrawn := add(t, q, &inbox.Set{From: "second", Questions: qs})
	cancelled := add(t, q, &inbox.Set{From: "third", Questions: []schema.Question{schema.ConfirmQuestion("Go?", false)}})
	next := add(t, q, &inbox.Set{From: "fourth", Questions: qs})
	for _, s := range []*inbox.Set{answered, withdrawn, cancelled} {
		w.get(t, "/")
		if err := q.Skip(s); err != nil {
			t.Fatal(err)
		}
	}
	terminal := []prompt.Answer{{Labels: []string{"PostgreSQL"}}}
	if err := q.Answer(answered, inbox.ViaHere, terminal); err != nil {
		t.Fatal(err)
	}
	q.Withdraw(withdrawn, "gone")
	if err := q.Cancel(cancelled, inbox.ViaHere); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		set    *inbox.Set
		action string
		form   string
		notice string
	}{
		{answered, "answer", "q0=2", "Not sent: the questions from first had already been answered."},
		// An unfinished form for it is told the same: nothing is to be put
		// right.
		{answered, "answer", "", "Not sent: the questions from first had already been answered."},
		{withdrawn, "answer", "q0=1", "Not sent: the asker from second stopped waiting: its questions were withdrawn."},
		{cancelled, "answer", "q0=1", "Not sent: the questions from third had been cancelled."},
		{answered, "cancel", "", "Not cancelled: the questions from first had already been answered."},
		{withdrawn, "next", "", "The asker from second stopped waiting: its questions were withdrawn."},
	} {
		r := w.post(t, setPath(c.set, c.action), c.form)
		if r.code != http.StatusConflict || notice(r.body) != c.notice || !shows(r.body, next) || !strings.Contains(r.body, `class="notice problem"`) {
			t.Errorf("%s %s: %d, notice %q, want 409 and %q\n%s", c.action, c.set.Source(), r.code, notice(r.body), c.notice, r.body)
		}
	}
	if got := answered.End(); !reflect.DeepEqual(got.Answers, terminal) {
		t.Errorf("the terminal's answer became %+v", got.Answers)
	}
	if got := cancelled.End().State; got != inbox.Cancelled {
		t.Errorf("the cancelled set became %v", got)
	}
	stillWaits(t, next)
	// A set the page never knew of, such as one of an inbox before this one.
	if r := w.post(t, "/sets/99/answer", "q0=1"); r.code != http.StatusConflict || notice(r.body) != "Not sent: those questions are no longer waiting." {
		t.Errorf("an unknown set: %d, %q", r.code, notice(r.body))
	}
	stillWaits(t, next)
}

// A form answers only the set whose ID it carries, whichever set the page
// shows, and is checked against that set's questions.
func TestWebFormAnswersOnlyItsSet(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	a := add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("Database", "PostgreSQL", "SQLite", "MySQL")}})
	b := add(t, q, &inbox.Set{From: "b", Questions: []schema.Question{question("Cache", "Redis", "None")}})
	if r := w.get(t, "/"); !shows(r.body, a) {
		t.Fatal("the page does not show a")
	}
	// A's third option is not one of B's.
	r := w.post(t, setPath(b, "answer"), "q0=3")
	if r.code != http.StatusBadRequest || !shows(r.body, b) || !strings.Contains(r.body, "That is not one of this question&#39;s options.") {
		t.Errorf("a's form with b's ID: %d\n%s", r.code, r.body)
	}
	stillWaits(t, a)
	stillWaits(t, b)
	r = w.post(t, setPath(b, "answer"), "q0=1&q0-note=warm+it+first")
	if r.code != http.StatusOK || notice(r.body) != "Sent to b." || !shows(r.body, a) {
		t.Errorf("b's form: %d, notice %q\n%s", r.code, notice(r.body), r.body)
	}
	if got := ended(t, b); got.State != inbox.Answered || !reflect.DeepEqual(got.Answers, []prompt.Answer{{Labels: []string{"Redis"}, Note: "warm it first"}}) {
		t.Errorf("b: %+v", got)
	}
	stillWaits(t, a)
}

// Confirm and input sets are answered on the page as --ui web asks them.
func TestWebConfirmAndInput(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	c := add(t, q, &inbox.Set{From: "c", Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", true)}})
	i := add(t, q, &inbox.Set{From: "i", Questions: []schema.Question{schema.InputQuestion("Name?", "", "main")}})
	if r := w.post(t, setPath(c, "answer"), "q0=2"); r.code != http.StatusOK {
		t.Fatalf("confirm: %d\n%s", r.code, r.body)
	}
	if got := ended(t, c); got.State != inbox.Answered || schema.IsYes(got.Answers[0]) {
		t.Errorf("confirm answered no: %+v", got)
	}
	if r := w.get(t, "/"); !shows(r.body, i) || !strings.Contains(r.body, `value="main"`) {
		t.Errorf("the input's page:\n%s", r.body)
	}
	if r := w.post(t, setPath(i, "answer"), "q0-other=release-2"); r.code != http.StatusOK || !strings.Contains(r.body, `data-state="idle"`) {
		t.Fatalf("input: %d\n%s", r.code, r.body)
	}
	if got := ended(t, i); got.State != inbox.Answered || got.Answers[0].Other != "release-2" {
		t.Errorf("input: %+v", got)
	}
}

// Next moves the set behind the others and shows the next; Cancel cancels
// the set (its asker exits 130) and shows the next.
func TestWebNextAndCancel(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	qs := []schema.Question{question("Database", "PostgreSQL", "SQLite")}
	a := add(t, q, &inbox.Set{From: "a", Questions: qs})
	b := add(t, q, &inbox.Set{From: "b", Questions: qs})
	c := add(t, q, &inbox.Set{From: "c", Questions: qs})
	r := w.post(t, setPath(a, "next"), "")
	if r.code != http.StatusOK || !shows(r.body, b) || notice(r.body) != "" {
		t.Fatalf("next: %d\n%s", r.code, r.body)
	}
	if got := sources(q); got != "b c a" {
		t.Errorf("after next, the queue is %s", got)
	}
	r = w.post(t, setPath(b, "cancel"), "")
	if r.code != http.StatusOK || !shows(r.body, c) || notice(r.body) != "Cancelled the questions from b." {
		t.Fatalf("cancel: %d, notice %q\n%s", r.code, notice(r.body), r.body)
	}
	if got := ended(t, b); got.State != inbox.Cancelled {
		t.Errorf("b: %+v", got)
	}
	if err := q.Cancel(c, inbox.ViaHere); err != nil {
		t.Fatal(err)
	}
	r = w.post(t, setPath(a, "next"), "")
	if r.code != http.StatusOK || !shows(r.body, a) || notice(r.body) != "No other set is waiting." {
		t.Errorf("next with nothing else waiting: %d, notice %q", r.code, notice(r.body))
	}
	stillWaits(t, a)
}

func sources(q *inbox.Queue) string {
	var out []string
	for _, s := range q.Snapshot().Sets {
		out = append(out, s.Source())
	}
	return strings.Join(out, " ")
}

// waitReply starts a page's wait, and returns where its reply arrives.
func (w *testWeb) waitReply(t *testing.T, path string) <-chan reply {
	t.Helper()
	ch := make(chan reply, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodGet, w.at(path), nil)
		resp, err := w.srv.Client().Do(req)
		if err != nil {
			ch <- reply{code: -1, body: err.Error()}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		ch <- reply{resp.StatusCode, string(b)}
	}()
	return ch
}

// held checks that a wait is still held a moment after it began: it has
// nothing to say yet.
func held(t *testing.T, ch <-chan reply, what string) {
	t.Helper()
	select {
	case r := <-ch:
		t.Fatalf("%s: the wait returned at once: %d\n%s", what, r.code, r.body)
	case <-time.After(150 * time.Millisecond):
	}
}

func returned(t *testing.T, ch <-chan reply, what string) reply {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: the wait did not return", what)
	}
	return reply{}
}

// A page's wait returns as soon as what it shows is out of date: a set
// comes to the idle page; the number of sets behind the one shown changes;
// the set shown ends elsewhere, which the page is told; the inbox quits.
func TestWebWait(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	qs := []schema.Question{question("Database", "PostgreSQL", "SQLite")}

	ch := w.waitReply(t, "/sets/0/wait?more=0")
	held(t, ch, "idle")
	a := add(t, q, &inbox.Set{From: "a", Questions: qs})
	if r := returned(t, ch, "a set comes"); r.code != http.StatusOK || !shows(r.body, a) {
		t.Errorf("a set comes: %d\n%s", r.code, r.body)
	}

	ch = w.waitReply(t, setPath(a, "wait?more=0"))
	held(t, ch, "a shown")
	add(t, q, &inbox.Set{From: "b", Questions: qs})
	if r := returned(t, ch, "another set comes"); r.code != http.StatusOK || !shows(r.body, a) || !strings.Contains(r.body, "1 more waiting") ||
		!strings.Contains(r.body, `more=1"`) || notice(r.body) != "" {
		t.Errorf("another set comes: %d\n%s", r.code, r.body)
	}
	// A page that is out of date is told at once.
	if r := returned(t, w.waitReply(t, setPath(a, "wait?more=0")), "out of date"); !strings.Contains(r.body, "1 more waiting") {
		t.Errorf("out of date: %d\n%s", r.code, r.body)
	}
	// Moving the terminal on is no news to the page: it keeps its set.
	ch = w.waitReply(t, setPath(a, "wait?more=1"))
	if err := q.Skip(a); err != nil {
		t.Fatal(err)
	}
	held(t, ch, "skipped elsewhere")
	add(t, q, &inbox.Set{From: "c", Questions: qs})
	returned(t, ch, "c comes")
	d := add(t, q, &inbox.Set{From: "d", Questions: qs})

	for _, end := range []struct {
		name   string
		end    func(*inbox.Set)
		notice string
	}{
		{"answered", func(s *inbox.Set) {
			_ = q.Answer(s, inbox.ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}})
		}, "The questions from b were answered elsewhere."},
		{"withdrawn", func(s *inbox.Set) { q.Withdraw(s, "killed") }, "The asker from a stopped waiting: its questions were withdrawn."},
		{"cancelled", func(s *inbox.Set) { _ = q.Cancel(s, inbox.ViaHere) }, "The questions from c were cancelled elsewhere."},
	} {
		s := shown(q)
		w.get(t, "/")
		ch := w.waitReply(t, setPath(s, fmt.Sprintf("wait?more=%d", q.Len()-1)))
		held(t, ch, end.name)
		end.end(s)
		r := returned(t, ch, end.name)
		if r.code != http.StatusOK || notice(r.body) != end.notice || !shows(r.body, shown(q)) || strings.Contains(r.body, "notice problem") {
			t.Errorf("%s: %d, notice %q, want %q\n%s", end.name, r.code, notice(r.body), end.notice, r.body)
		}
	}
	ch = w.waitReply(t, setPath(d, "wait?more=0"))
	held(t, ch, "before the inbox quits")
	q.Close("the person quit the inbox")
	if r := returned(t, ch, "the inbox quits"); r.code != http.StatusOK || !strings.Contains(r.body, `data-state="closed"`) || !strings.Contains(r.body, "The inbox has quit") {
		t.Errorf("the inbox quits: %d\n%s", r.code, r.body)
	}
	if r := w.get(t, "/"); !strings.Contains(r.body, `data-state="closed"`) {
		t.Errorf("after the inbox quit: %d\n%s", r.code, r.body)
	}
}

// shown is the set the views show: the oldest that waits and was not
// skipped, or nil when none waits.
func shown(q *inbox.Queue) *inbox.Set {
	if v := q.Snapshot(); len(v.Sets) > 0 {
		return v.Sets[0]
	}
	return nil
}

// An answer or a cancel sent from the page whose transport did not get it
// to the asker's side (see inbox.Set.Sent) is shown as not sent.
func TestWebNotSent(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	qs := []schema.Question{question("Database", "PostgreSQL", "SQLite")}
	a := add(t, q, &inbox.Set{From: "a", Questions: qs, Sent: make(chan error, 1)})
	b := add(t, q, &inbox.Set{From: "b", Questions: qs, Sent: make(chan error, 1)})
	a.Sent <- &inbox.NotSentError{Pending: true, Err: errors.New("the server has not stored it: timeout")}
	r := w.post(t, setPath(a, "answer"), "q0=2")
	if r.code != http.StatusOK || !shows(r.body, b) || notice(r.body) != "Your answer to the questions from a is not sent yet (the server has not stored it: timeout): it goes as soon as it can." {
		t.Fatalf("answer: %d, notice %q", r.code, notice(r.body))
	}
	b.Sent <- errors.New("they were answered elsewhere (by two) first")
	r = w.post(t, setPath(b, "cancel"), "")
	if r.code != http.StatusOK || notice(r.body) != "Your cancel of the questions from b was not sent: they were answered elsewhere (by two) first." {
		t.Fatalf("cancel: %d, notice %q", r.code, notice(r.body))
	}
}

// A wait that does not say how many sets wait behind its own takes the
// queue's count as it starts: it is held while that count stands, and
// returns once its set ends, saying how.
func TestWebWaitWithoutNumber(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	qs := []schema.Question{question("Database", "PostgreSQL", "SQLite")}
	a := add(t, q, &inbox.Set{From: "a", Questions: qs})
	add(t, q, &inbox.Set{From: "b", Questions: qs})
	w.get(t, setPath(a, ""))
	ch := w.waitReply(t, setPath(a, "wait"))
	held(t, ch, "a shown, b behind it")
	if err := q.Cancel(a, inbox.ViaHere); err != nil {
		t.Fatal(err)
	}
	if r := returned(t, ch, "a ends"); r.code != http.StatusOK || notice(r.body) != "The questions from a were cancelled elsewhere." {
		t.Errorf("a ends: %d %q\n%s", r.code, notice(r.body), r.body)
	}
}
