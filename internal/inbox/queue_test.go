package inbox

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

var testQuestion = schema.Question{
	Question: "Which database?", Header: "Database",
	Options: []schema.Option{{Label: "PostgreSQL", Description: "a"}, {Label: "SQLite", Description: "b"}, {Label: "MySQL", Description: "c"}},
}

func askSet(from string, qs ...schema.Question) *Set {
	if len(qs) == 0 {
		qs = []schema.Question{testQuestion}
	}
	return &Set{From: from, Questions: qs}
}

func mustAdd(t *testing.T, q *Queue, s *Set) int {
	t.Helper()
	ahead, err := q.Add(s)
	if err != nil {
		t.Fatal(err)
	}
	return ahead
}

func sources(sets []*Set) string {
	var names []string
	for _, s := range sets {
		names = append(names, s.Source())
	}
	return strings.Join(names, " ")
}

// The end of a set is its one record: how it ended, where the person
// answered or cancelled it, and when; each end is told to every OnEnd once,
// after the set has ended, the inbox's quitting too.
func TestQueueRecordsEachEnd(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	q := NewQueue(QueueOptions{Now: func() time.Time { return now }})
	var told []string
	q.OnEnd(func(s *Set) {
		if s.End().State == Waiting {
			t.Errorf("%s told before it ended", s.From)
		}
		told = append(told, s.From)
	})
	q.OnEnd(func(s *Set) { told = append(told, s.From+" again") })
	here, page, other, gone, left := askSet("here"), askSet("page"), askSet("other"), askSet("gone"), askSet("left")
	for _, s := range []*Set{here, page, other, gone, left} {
		mustAdd(t, q, s)
	}
	now = now.Add(time.Minute)
	if err := q.Answer(here, ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}}); err != nil {
		t.Fatal(err)
	}
	if err := q.Cancel(page, ViaPage); err != nil {
		t.Fatal(err)
	}
	q.EndElsewhere(other, End{State: Answered, Reason: "by bob"})
	q.Withdraw(gone, "the asker went away")
	_ = q.Cancel(here, ViaPage) // ended already: not told again
	q.Close("the person quit the inbox")
	for _, tt := range []struct {
		s    *Set
		want End
	}{
		{here, End{State: Answered, Via: ViaHere, At: now, Answers: []prompt.Answer{{Labels: []string{"SQLite"}}}}},
		{page, End{State: Cancelled, Via: ViaPage, At: now}},
		{other, End{State: Answered, Via: ViaElsewhere, At: now, Reason: "by bob"}},
		{gone, End{State: Withdrawn, At: now, Reason: "the asker went away"}},
		{left, End{State: Closed, At: now, Reason: "the person quit the inbox"}},
	} {
		if got := tt.s.End(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s ended %+v, want %+v", tt.s.From, got, tt.want)
		}
	}
	if want := "here here again page page again other other again gone gone again left left again"; strings.Join(told, " ") != want {
		t.Errorf("told %q, want %q", strings.Join(told, " "), want)
	}
}

// Sets wait in the order they arrived; the oldest is shown; a skip moves
// the shown one to the back; every end takes a set out exactly once.
func TestQueueOrder(t *testing.T) {
	q := NewQueue(QueueOptions{})
	a, b, c := askSet("a"), askSet("b"), askSet("c")
	for i, s := range []*Set{a, b, c} {
		if ahead := mustAdd(t, q, s); ahead != i {
			t.Errorf("set %s: %d ahead, want %d", s.From, ahead, i)
		}
	}
	if first(q) != a || sources(q.Snapshot().Sets) != "a b c" {
		t.Fatalf("queue %q, shown %v", sources(q.Snapshot().Sets), first(q).From)
	}
	if err := q.Skip(a); err != nil {
		t.Fatal(err)
	}
	if got := sources(q.Snapshot().Sets); got != "b c a" {
		t.Errorf("after a skip: %q", got)
	}
	if err := q.Answer(b, ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}}); err != nil {
		t.Fatal(err)
	}
	if err := q.Cancel(b, ViaHere); !errors.Is(err, ErrEnded) {
		t.Errorf("cancel after answer: %v", err)
	}
	if err := q.Skip(b); !errors.Is(err, ErrEnded) {
		t.Errorf("skip after answer: %v", err)
	}
	if e := b.End(); e.State != Answered || !reflect.DeepEqual(e.Answers, []prompt.Answer{{Labels: []string{"SQLite"}}}) {
		t.Errorf("b ended %+v", e)
	}
	if !q.Withdraw(c, "gone") || q.Withdraw(c, "again") {
		t.Error("a set withdraws once")
	}
	if e := c.End(); e.State != Withdrawn || e.Reason != "gone" {
		t.Errorf("c ended %+v", e)
	}
	if err := q.Cancel(a, ViaHere); err != nil {
		t.Fatal(err)
	}
	if first(q) != nil || q.Len() != 0 {
		t.Errorf("queue not empty: %q", sources(q.Snapshot().Sets))
	}
	// A skip of the only set leaves it shown.
	d := askSet("d")
	mustAdd(t, q, d)
	if err := q.Skip(d); err != nil || first(q) != d {
		t.Errorf("skip of the only set: %v, shown %v", err, first(q))
	}
}

// An answer is checked against the set before it ends it: a view cannot
// send what the person could not have given.
func TestQueueAnswerChecked(t *testing.T) {
	q := NewQueue(QueueOptions{})
	s := askSet("a")
	mustAdd(t, q, s)
	for _, bad := range [][]prompt.Answer{
		nil,
		{{Labels: []string{"Oracle"}}},
		{{Labels: []string{"SQLite", "MySQL"}}},
		{{Other: " \t "}},
	} {
		if err := q.Answer(s, ViaHere, bad); err == nil {
			t.Errorf("answer %+v accepted", bad)
		}
	}
	if s.End().State != Waiting {
		t.Fatal("a refused answer ended the set")
	}
	in := askSet("a", schema.InputQuestion("Name?", "", ""))
	mustAdd(t, q, in)
	if err := q.Answer(in, ViaHere, []prompt.Answer{{Other: "\x1b\x07 "}}); err == nil {
		t.Error("input answered with nothing but an escape sequence")
	}
	if err := q.Answer(in, ViaHere, []prompt.Answer{{Other: "  main\t"}}); err != nil || in.End().Answers[0].Other != "main" {
		t.Errorf("input: %v, %+v", err, in.End())
	}
	cf := askSet("a", schema.ConfirmQuestion("Go?", true))
	mustAdd(t, q, cf)
	if err := q.Answer(cf, ViaHere, []prompt.Answer{{Labels: []string{"Yes"}, Note: "sure"}}); err == nil {
		t.Error("confirm answered with a note")
	}
	if err := q.Answer(cf, ViaHere, []prompt.Answer{{Labels: []string{"Yes"}}}); err != nil || !schema.IsYes(cf.End().Answers[0]) {
		t.Errorf("confirm: %v, %+v", err, cf.End())
	}
}

// Every change wakes every view waiting on the queue; the bell rings for
// each arrival.
func TestQueueWakesViews(t *testing.T) {
	var arrived []string
	var mu sync.Mutex
	q := NewQueue(QueueOptions{OnArrive: func(s *Set) {
		mu.Lock()
		arrived = append(arrived, s.From)
		mu.Unlock()
	}})
	changes := []func(s *Set){
		func(s *Set) { mustAdd(t, q, s) },
		func(s *Set) { mustAdd(t, q, askSet("other")) },
		func(s *Set) { _ = q.Skip(s) },
		func(s *Set) { _ = q.Cancel(s, ViaHere) },
		func(*Set) { q.Close("quit") },
	}
	s := askSet("s")
	for i, change := range changes {
		v1, v2 := q.Snapshot(), q.Snapshot()
		change(s)
		for _, v := range []Snapshot{v1, v2} {
			select {
			case <-v.Changed:
			case <-time.After(testutil.Slow):
				t.Fatalf("change %d woke no view", i)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(arrived, " ") != "s other" {
		t.Errorf("arrivals notified: %q", arrived)
	}
}

// A snapshot is the queue at one moment: the changes after it, and what
// its holder appends to it, leave it and the queue apart.
func TestQueueSnapshotKept(t *testing.T) {
	q := NewQueue(QueueOptions{})
	a, b, c := askSet("a"), askSet("b"), askSet("c")
	for _, s := range []*Set{a, b, c} {
		mustAdd(t, q, s)
	}
	v := q.Snapshot()
	held := append(v.Sets, askSet("x"))
	mustAdd(t, q, askSet("d"))
	q.Withdraw(b, "gone")
	w := q.Snapshot()
	_ = q.Skip(a)
	if got := sources(v.Sets); got != "a b c" {
		t.Errorf("the snapshot taken before the changes holds %q", got)
	}
	if got := sources(w.Sets); got != "a c d" {
		t.Errorf("the snapshot taken before the skip holds %q", got)
	}
	if got := sources(held); got != "a b c x" {
		t.Errorf("what was appended to the snapshot holds %q", got)
	}
	if got := sources(q.Snapshot().Sets); got != "c d a" {
		t.Errorf("the queue holds %q", got)
	}
}

// Closing ends every waiting set, once, and refuses new ones.
func TestQueueClose(t *testing.T) {
	q := NewQueue(QueueOptions{})
	sets := []*Set{askSet("a"), askSet("b")}
	for _, s := range sets {
		mustAdd(t, q, s)
	}
	q.Close("the inbox quit")
	q.Close("twice")
	for _, s := range sets {
		select {
		case <-s.Done():
		default:
			t.Fatalf("%s still waits", s.From)
		}
		if e := s.End(); e.State != Closed || e.Reason != "the inbox quit" {
			t.Errorf("%s ended %+v", s.From, e)
		}
	}
	if _, err := q.Add(askSet("late")); !errors.Is(err, errClosed) {
		t.Errorf("add after close: %v", err)
	}
	if !q.Snapshot().Closed {
		t.Error("snapshot does not say closed")
	}
}

// Many goroutines answering, cancelling, skipping and withdrawing the same
// sets end each exactly once.
func TestQueueConcurrent(t *testing.T) {
	q := NewQueue(QueueOptions{})
	const n = 200
	sets := make([]*Set, n)
	for i := range sets {
		sets[i] = askSet("s")
		mustAdd(t, q, sets[i])
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := make([]int, n)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, s := range sets {
				var won bool
				switch (i + w) % 4 {
				case 0:
					won = q.Answer(s, ViaHere, []prompt.Answer{{Labels: []string{"MySQL"}}}) == nil
				case 1:
					won = q.Cancel(s, ViaHere) == nil
				case 2:
					won = q.Withdraw(s, "gone")
				case 3:
					_ = q.Skip(s)
					_ = q.Snapshot()
				}
				if won {
					mu.Lock()
					wins[i]++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for i, w := range wins {
		if w != 1 {
			t.Fatalf("set %d ended %d times", i, w)
		}
	}
	if q.Len() != 0 {
		t.Errorf("%d sets left", q.Len())
	}
}

// checkAnswers checks one answer per question, each with Question.Check
// (tested in schema), and says which answer does not fit.
func TestCheckAnswers(t *testing.T) {
	multi := schema.Question{Question: "Which?", Header: "Features", MultiSelect: true,
		Options: []schema.Option{{Label: "Auth", Description: "a"}, {Label: "Search", Description: "b"}}}
	qs := []schema.Question{testQuestion, multi}
	got, err := checkAnswers(qs, []prompt.Answer{{Labels: []string{"MySQL"}, Note: " fast\tenough "}, {Labels: []string{"Search", "Auth"}}})
	want := []prompt.Answer{{Labels: []string{"MySQL"}, Note: "fast enough"}, {Labels: []string{"Auth", "Search"}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("checkAnswers = %+v, %v; want %+v", got, err, want)
	}
	for _, c := range []struct {
		answers []prompt.Answer
		problem string
	}{
		{[]prompt.Answer{{Labels: []string{"SQLite"}}}, "1 answers for 2 questions"},
		{[]prompt.Answer{{Labels: []string{"SQLite"}}, {}}, `answer 2 ("Features"): nothing is chosen`},
	} {
		if _, err := checkAnswers(qs, c.answers); err == nil || err.Error() != c.problem {
			t.Errorf("checkAnswers(%+v) = %v, want %q", c.answers, err, c.problem)
		}
	}
}

// first is the set the views show: the oldest that waits and was not
// skipped, or nil when none waits.
func first(q *Queue) *Set {
	if v := q.Snapshot(); len(v.Sets) > 0 {
		return v.Sets[0]
	}
	return nil
}
