package serve

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/history"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/schema"
)

// durable is an address whose sets outlive the inbox, as NATS's do.
type durable struct{ inbox.SocketAddr }

func (durable) Durable() bool { return true }

// keptOf runs a queue at addr whose first set is answered and second left
// waiting when the inbox quits, and returns what its history keeps.
func keptOf(t *testing.T, addr inbox.Addr) []history.Record {
	t.Helper()
	f := &history.File{Path: filepath.Join(t.TempDir(), "askuser", history.FileName)}
	var after sync.WaitGroup
	var out strings.Builder
	q := inbox.NewQueue(inbox.QueueOptions{})
	keepHistory(q, Options{Addr: addr, History: f}, &out, &after)
	sets := []*inbox.Set{
		{From: "answered", Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", true)}},
		{From: "waiting", Questions: []schema.Question{schema.ConfirmQuestion("Drop?", false)}},
	}
	for _, s := range sets {
		if _, err := q.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Answer(sets[0], inbox.ViaHere, []schema.Answer{{Labels: []string{schema.Yes}}}); err != nil {
		t.Fatal(err)
	}
	q.Close("the person quit the inbox")
	after.Wait()
	if out.Len() != 0 {
		t.Errorf("said %q", out.String())
	}
	rs, _, err := history.Read(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// Each set that ends is kept, the sets closed with the inbox too; but on a
// server where the sets wait for the next inbox (NATS), a set closed with
// this one has not ended, and the next inbox keeps it.
func TestKeepHistory(t *testing.T) {
	rs := keptOf(t, inbox.SocketAddr("/run/inbox.sock"))
	if len(rs) != 2 || rs[0].From != "waiting" || rs[0].Outcome != "closed" || rs[1].From != "answered" || rs[1].How() != "answered here" {
		t.Errorf("kept %+v", rs)
	}
	rs = keptOf(t, durable{"/run/inbox.sock"})
	if len(rs) != 1 || rs[0].From != "answered" {
		t.Errorf("on a durable address, kept %+v", rs)
	}
}

// A history that cannot be written is said once, and the inbox goes on.
func TestKeepHistoryFailure(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var after sync.WaitGroup
	var out lockedWriter
	var said strings.Builder
	out.w = &said
	q := inbox.NewQueue(inbox.QueueOptions{})
	keepHistory(q, Options{Addr: inbox.SocketAddr("/run/inbox.sock"), History: &history.File{Path: filepath.Join(blocker, "askuser", history.FileName)}}, &out, &after)
	for _, from := range []string{"a", "b"} {
		s := &inbox.Set{From: from, Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", true)}}
		if _, err := q.Add(s); err != nil {
			t.Fatal(err)
		}
		_ = q.Cancel(s, inbox.ViaHere)
	}
	after.Wait()
	if got := said.String(); strings.Count(got, "Warning: the history could not be written: ") != 1 || !strings.HasSuffix(got, "The inbox goes on; this is said once.\n") {
		t.Errorf("said %q", got)
	}
}

// An answer that its transport has not stored yet is kept only once it
// is, and one that is never sent is kept as such: the history never says
// that an asker has an answer it may never get.
func TestKeepHistoryNotSentYet(t *testing.T) {
	f := &history.File{Path: filepath.Join(t.TempDir(), "askuser", history.FileName)}
	var after sync.WaitGroup
	var out strings.Builder
	q := inbox.NewQueue(inbox.QueueOptions{})
	keepHistory(q, Options{Addr: durable{"/run/inbox.sock"}, History: f}, &out, &after)
	for i, last := range []error{nil, errors.New("the inbox quit first")} {
		s := &inbox.Set{From: fmt.Sprint("asker-", i), Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", true)}, Sent: make(chan error, 2)}
		if _, err := q.Add(s); err != nil {
			t.Fatal(err)
		}
		s.Sent <- &inbox.NotSentError{Pending: true, Err: errors.New("the server has not stored it")}
		if err := q.Answer(s, inbox.ViaHere, []schema.Answer{{Labels: []string{schema.Yes}}}); err == nil {
			t.Fatal("an answer not stored yet is said sent")
		}
		time.Sleep(100 * time.Millisecond)
		if rs, _, _ := history.Read(f.Path); len(rs) != i {
			t.Fatalf("kept before its last word: %+v", rs)
		}
		s.Sent <- last
		after.Wait()
		rs, _, err := history.Read(f.Path)
		if err != nil || len(rs) != i+1 {
			t.Fatalf("kept %+v (%v)", rs, err)
		}
		want := "answered here"
		if last != nil {
			want = "answered here (not sent: the inbox quit first)"
		}
		if got := rs[0].How(); got != want {
			t.Errorf("How() = %q, want %q", got, want)
		}
	}
}

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// ended is a set from from, queued at t0 and ended by end at t0+waited.
func ended(t *testing.T, from string, waited time.Duration, end func(*inbox.Queue, *inbox.Set)) *inbox.Set {
	t.Helper()
	now := t0
	q := inbox.NewQueue(inbox.QueueOptions{Now: func() time.Time { return now }})
	s := &inbox.Set{From: from, Questions: []schema.Question{
		{Header: "Database", Question: "Which database?", Options: []schema.Option{{Label: "PostgreSQL"}, {Label: "SQLite"}}},
	}}
	if _, err := q.Add(s); err != nil {
		t.Fatal(err)
	}
	now = t0.Add(waited)
	end(q, s)
	return s
}

func answer(via inbox.Via) func(*inbox.Queue, *inbox.Set) {
	return func(q *inbox.Queue, s *inbox.Set) {
		_ = q.Answer(s, via, []schema.Answer{{Labels: []string{"SQLite"}, Note: "one file"}})
	}
}

// A record says who asked, when, how it ended and where, how long the
// asker waited and the questions' headers; the answers only when they are
// kept. Its outcome and where it was given are in the history's words.
func TestRecordOf(t *testing.T) {
	s := ended(t, "deployer", 12500*time.Millisecond, answer(inbox.ViaNotification))
	r := recordOf(s, history.KeepOutcomes)
	want := history.Record{From: "deployer", Asked: t0, Ended: t0.Add(12500 * time.Millisecond), Outcome: "answered", Via: "notification", Waited: 12.5, Questions: []string{"Database"}}
	if fmt.Sprint(r) != fmt.Sprint(want) {
		t.Errorf("the record:\n%+v\nwant\n%+v", r, want)
	}
	r = recordOf(s, history.KeepAnswers)
	if len(r.Answers) != 1 || r.Answers[0] != (history.Answer{Header: "Database", Question: "Which database?", Answer: "SQLite", Note: "one file"}) {
		t.Errorf("the answers kept: %+v", r.Answers)
	}
	for _, c := range []struct {
		end  func(*inbox.Queue, *inbox.Set)
		how  string
		keep history.Keep
	}{
		{answer(inbox.ViaHere), "answered here", history.KeepAnswers},
		{answer(inbox.ViaPage), "answered on the page", history.KeepAnswers},
		{answer(inbox.ViaChat), "answered in the chat", history.KeepAnswers},
		{func(q *inbox.Queue, s *inbox.Set) {
			q.EndElsewhere(s, inbox.End{State: inbox.Answered, Reason: "by bob@laptop"})
		}, "answered elsewhere (by bob@laptop)", history.KeepAnswers},
		{func(q *inbox.Queue, s *inbox.Set) { _ = q.Cancel(s, inbox.ViaHere) }, "cancelled here", history.KeepAnswers},
		{func(q *inbox.Queue, s *inbox.Set) { q.Withdraw(s, "the asker was stopped") }, "withdrawn (the asker was stopped)", history.KeepAnswers},
		{func(q *inbox.Queue, s *inbox.Set) { q.Close("the person quit the inbox") }, "closed (the inbox quit)", history.KeepAnswers},
	} {
		r := recordOf(ended(t, "x", time.Second, c.end), c.keep)
		if r.How() != c.how {
			t.Errorf("How() = %q, want %q", r.How(), c.how)
		}
		if (r.Outcome == history.Answered && r.Via != history.ViaElsewhere) != (len(r.Answers) == 1) {
			t.Errorf("%s: answers %+v", c.how, r.Answers)
		}
	}
	for via, word := range map[inbox.Via]string{inbox.ViaHere: history.ViaHere, inbox.ViaPage: history.ViaPage, inbox.ViaNotification: history.ViaNotification, inbox.ViaChat: history.ViaChat, inbox.ViaElsewhere: history.ViaElsewhere} {
		if via.String() != word {
			t.Errorf("the inbox writes %q where the history reads %q", via, word)
		}
	}
	if inbox.Answered.String() != history.Answered {
		t.Errorf("the inbox writes %q where the history reads %q", inbox.Answered, history.Answered)
	}
}
