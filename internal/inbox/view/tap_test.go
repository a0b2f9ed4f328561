package view

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/schema"
)

// tap sends what a notification's button sends to the link at path: a
// POST without a form, as ntfy's http action does, from no page.
func (w *testWeb) tap(t *testing.T, path string) reply {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, w.srv.URL+path, nil)
	return w.do(t, req)
}

// Only a set of one single choice among at most three options is
// answered in one tap: a link for each option, that set's own and that
// option's, under the set's page; the rest are answered on the page.
func TestTapsOnlyForOneSingleChoice(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	multi := question("Features", "Login", "Search")
	multi.MultiSelect = true
	for _, c := range []struct {
		name string
		set  *inbox.Set
		taps int
	}{
		{"one choice", &inbox.Set{From: "a", Questions: []schema.Question{question("Database", "PostgreSQL", "SQLite")}}, 2},
		{"yes or no", &inbox.Set{From: "b", Questions: []schema.Question{schema.ConfirmQuestion("Deploy now?", true)}}, 2},
		{"three options", &inbox.Set{From: "c", Questions: []schema.Question{question("Tier", "S", "M", "L")}}, 3},
		{"four options", &inbox.Set{From: "d", Questions: []schema.Question{question("Tier", "S", "M", "L", "XL")}}, 0},
		{"several choices", &inbox.Set{From: "e", Questions: []schema.Question{multi}}, 0},
		{"typed text", &inbox.Set{From: "f", Questions: []schema.Question{schema.InputQuestion("Name?", "", "")}}, 0},
		{"two questions", &inbox.Set{From: "g", Questions: []schema.Question{question("A", "x", "y"), question("B", "x", "y")}}, 0},
	} {
		s := add(t, q, c.set)
		taps := w.v.Taps(s)
		if len(taps) != c.taps {
			t.Errorf("%s: %d links, want %d: %q", c.name, len(taps), c.taps, taps)
		}
		for i, tap := range taps {
			prefix := setPath(s, "tap/") + string(rune('1'+i)) + "?key="
			if !strings.HasPrefix(tap, prefix) || len(tap) != len(prefix)+43 {
				t.Errorf("%s: link %d is %q", c.name, i+1, tap)
			}
		}
	}
	// Each link is the set's and the option's own.
	a, c := w.q.Snapshot().Sets[0], w.q.Snapshot().Sets[2]
	all := append(w.v.Taps(a), w.v.Taps(c)...)
	for i, tap := range all {
		if slices.Index(all, tap) != i {
			t.Errorf("link %s is given twice", tap)
		}
	}
}

// A link answers its set with its option, once: the asker has its answer,
// recorded as given from the notification. Used again, it changes nothing
// and says why.
func TestTapAnswersOnce(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	s := add(t, q, &inbox.Set{From: "deployer", Questions: []schema.Question{question("Database", "PostgreSQL", "SQLite")}})
	taps := w.v.Taps(s)
	r := w.tap(t, taps[1])
	if r.code != http.StatusOK || r.body != "Answered SQLite to the questions from deployer.\n" {
		t.Fatalf("the tap: %d %q", r.code, r.body)
	}
	e := s.End()
	if e.State != inbox.Answered || e.Via != inbox.ViaNotification || len(e.Answers) != 1 || e.Answers[0].String() != "SQLite" {
		t.Fatalf("the set ended %+v", e)
	}
	for _, tap := range []string{taps[1], taps[0]} {
		r := w.tap(t, tap)
		if r.code != http.StatusConflict || r.body != "Not answered: the questions from deployer had already been answered from the notification.\n" {
			t.Errorf("a tap again: %d %q", r.code, r.body)
		}
	}
	if got := s.End(); got.Answers[0].String() != "SQLite" || got.At != e.At {
		t.Errorf("a tap again changed the end: %+v", got)
	}
	// The page that showed it says so too.
	if r := w.get(t, setPath(s, "")); !strings.Contains(notice(r.body), "The questions from deployer were answered from the notification.") {
		t.Errorf("the set's page after the tap: %q", notice(r.body))
	}
}

// A link that comes after its set ended elsewhere (answered in the
// terminal, cancelled, withdrawn) changes nothing, and says how it ended.
func TestTapLate(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	for _, c := range []struct {
		end  func(*inbox.Set)
		want string
	}{
		{func(s *inbox.Set) { _ = q.Answer(s, inbox.ViaHere, []schema.Answer{{Labels: []string{"PostgreSQL"}}}) },
			"Not answered: the questions from a had already been answered.\n"},
		{func(s *inbox.Set) { _ = q.Cancel(s, inbox.ViaPage) }, "Not answered: the questions from a had been cancelled.\n"},
		{func(s *inbox.Set) { q.Withdraw(s, "killed") }, "Not answered: the asker from a stopped waiting: its questions were withdrawn.\n"},
	} {
		s := add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("Database", "PostgreSQL", "SQLite")}})
		taps := w.v.Taps(s)
		c.end(s)
		before := s.End()
		r := w.tap(t, taps[1])
		if r.code != http.StatusConflict || r.body != c.want {
			t.Errorf("a late tap: %d %q, want 409 %q", r.code, r.body, c.want)
		}
		if after := s.End(); after.State != before.State || after.Via != before.Via || len(after.Answers) != len(before.Answers) {
			t.Errorf("a late tap changed the end: %+v, was %+v", after, before)
		}
	}
}

// A link is good for its own set and option only: its key on another
// set's or option's address, a key changed, or none, answers nothing, and
// is refused as the others are, before anything of the set is said. Only
// a POST answers: what opens or previews a link sends a GET. A page of
// another site cannot use the person's browser to send it.
func TestTapRefusesWhatIsNotItsOwn(t *testing.T) {
	q := newQueue()
	w := startWeb(t, q)
	one := add(t, q, &inbox.Set{From: "one", Questions: []schema.Question{question("Database", "PostgreSQL", "SQLite")}})
	two := add(t, q, &inbox.Set{From: "two", Questions: []schema.Question{question("Cache", "Redis", "None")}})
	tapOne, tapTwo := w.v.Taps(one), w.v.Taps(two)
	keyOf := func(tap string) string { _, key, _ := strings.Cut(tap, "?key="); return key }
	forbidden := "Not answered: this link was not made for that set and option.\n"
	for _, c := range []struct {
		name, path string
	}{
		{"another set's key", setPath(two, "tap/1?key=") + keyOf(tapOne[0])},
		{"another option's key", setPath(one, "tap/2?key=") + keyOf(tapOne[0])},
		{"a changed key", tapOne[0][:len(tapOne[0])-1] + "A"},
		{"no key", setPath(one, "tap/1")},
		{"an option it does not have", setPath(one, "tap/3?key=") + keyOf(tapOne[0])},
		{"no such set", "/sets/99/tap/1?key=" + keyOf(tapOne[0])},
	} {
		if r := w.tap(t, c.path); r.code != http.StatusForbidden || r.body != forbidden {
			t.Errorf("%s: %d %q", c.name, r.code, r.body)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, w.srv.URL+tapOne[0], nil)
	if r := w.do(t, req); r.code != http.StatusMethodNotAllowed || !strings.HasPrefix(r.body, "Not answered: this link answers with a POST") {
		t.Errorf("a GET: %d %q", r.code, r.body)
	}
	req, _ = http.NewRequest(http.MethodPost, w.srv.URL+tapTwo[0], nil)
	req.Header.Set("Origin", "https://evil.example")
	if r := w.do(t, req); r.code != http.StatusForbidden {
		t.Errorf("from another site: %d %q", r.code, r.body)
	}
	req, _ = http.NewRequest(http.MethodPost, w.srv.URL+tapTwo[0], nil)
	req.Host = "rebound.example.com"
	if r := w.do(t, req); r.code != http.StatusForbidden {
		t.Errorf("to another host name: %d %q", r.code, r.body)
	}
	stillWaits(t, one)
	stillWaits(t, two)
	// The page's token is no key: a link is not the page.
	if r := w.tap(t, setPath(one, "tap/1?token="+webToken)); r.code != http.StatusForbidden {
		t.Errorf("the page's token as a key: %d %q", r.code, r.body)
	}
	// Nor is a key the page's token.
	if r := w.get(t, "/"); r.code != http.StatusOK {
		t.Fatalf("the page: %d", r.code)
	}
	req, _ = http.NewRequest(http.MethodGet, w.srv.URL+"/?token="+keyOf(tapOne[0]), nil)
	if r := w.do(t, req); r.code != http.StatusForbidden {
		t.Errorf("a key as the page's token: %d", r.code)
	}
}

// The name of a set for the push service is its own, and tells nothing:
// two inboxes name their first set apart.
func TestSetName(t *testing.T) {
	q := newQueue()
	s1 := add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("A", "x", "y")}})
	s2 := add(t, q, &inbox.Set{From: "b", Questions: []schema.Question{question("B", "x", "y")}})
	one, other := NewLinks(), NewLinks()
	names := []string{one.SetName(s1), one.SetName(s2), other.SetName(s1)}
	for i, n := range names {
		if len(n) != 32 || strings.Trim(n, "0123456789abcdef") != "" || slices.Index(names, n) != i {
			t.Errorf("names %q", names)
		}
	}
	if one.SetName(s1) != names[0] {
		t.Error("a set's name changes")
	}
}
