package view

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

func question(header string, labels ...string) schema.Question {
	q := schema.Question{Question: header + "?", Header: header}
	for _, l := range labels {
		q.Options = append(q.Options, schema.Option{Label: l, Description: "about " + l})
	}
	return q
}

// testScreen runs a Line screen over q, with an input the test writes.
type testScreen struct {
	q    *inbox.Queue
	in   *io.PipeWriter
	out  testutil.Buffer
	done chan error
}

func startScreen(t *testing.T, terminal bool, q *inbox.Queue, opts ...func(*Line)) *testScreen {
	t.Helper()
	pr, pw := io.Pipe()
	s := &testScreen{q: q, in: pw, done: make(chan error, 1)}
	l := &Line{Queue: q, In: pr, Out: &s.out, Terminal: terminal, Where: "/run/inbox.sock", Home: "/home/me"}
	for _, o := range opts {
		o(l)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { s.done <- l.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		pw.Close()
		<-s.done
	})
	return s
}

// arrival is when the sets of the tests arrive, unless they say: 12
// seconds before the time of newQueue's clock.
var arrival = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newQueue() *inbox.Queue {
	return inbox.NewQueue(inbox.QueueOptions{Now: func() time.Time { return arrival.Add(12 * time.Second) }})
}

func add(t *testing.T, q *inbox.Queue, s *inbox.Set) *inbox.Set {
	t.Helper()
	if s.Arrived.IsZero() {
		s.Arrived = arrival
	}
	if _, err := q.Add(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// waitOut waits until the screen has shown want.
func (s *testScreen) waitOut(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the screen did not show %q; it shows:\n%s", want, s.out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *testScreen) write(t *testing.T, text string) {
	t.Helper()
	if _, err := io.WriteString(s.in, text); err != nil {
		t.Fatal(err)
	}
}

func labels(l ...string) prompt.Answer { return prompt.Answer{Labels: l} }

func answered(t *testing.T, set *inbox.Set, want ...prompt.Answer) {
	t.Helper()
	if e := ended(t, set); e.State != inbox.Answered || !reflect.DeepEqual(e.Answers, want) {
		t.Errorf("the set from %s ended %v with %+v, want answered %+v", set.Source(), e.State, e.Answers, want)
	}
}

func ended(t *testing.T, set *inbox.Set) inbox.End {
	t.Helper()
	select {
	case <-set.Done():
	case <-time.After(10 * time.Second):
		t.Fatalf("the set from %s did not end", set.Source())
	}
	return set.End()
}

// A set is shown with where it came from and what waits behind it, and
// answered with the lines typed.
func TestLineAnswers(t *testing.T) {
	q := newQueue()
	a := add(t, q, &inbox.Set{Cwd: "/home/me/src/api", Questions: []schema.Question{question("Database", "PostgreSQL", "SQLite"), question("Cache", "Redis", "None")}})
	add(t, q, &inbox.Set{From: "deploy-bot", Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", false)}})
	s := startScreen(t, false, q)
	s.waitOut(t, "From ~/src/api · waiting 12s · 1 more waiting\n[1/2] Database\n")
	s.write(t, "2\nnone\n")
	if e := ended(t, a); e.State != inbox.Answered || !reflect.DeepEqual(e.Answers, []prompt.Answer{{Labels: []string{"SQLite"}}, {Labels: []string{"None"}}}) {
		t.Errorf("answered %+v", e)
	}
	s.waitOut(t, "✔ Sent to ~/src/api.\n\nFrom deploy-bot · waiting 12s\nDeploy? [y/N]: ")
}

// Where a set came from, and its questions, are shown as every text from
// an asker is: a character that draws nothing is shown by its code point.
func TestLineShowsInvisibleCharacters(t *testing.T) {
	q := newQueue()
	a := add(t, q, &inbox.Set{From: "claude\u200bcode", Questions: []schema.Question{question("Data\u2060base", "Postgre\ufeffSQL", "SQLite")}})
	s := startScreen(t, false, q)
	s.waitOut(t, "From claude⟨U+200B⟩code · waiting 12s\n[1/1] Data⟨U+2060⟩base\nData⟨U+2060⟩base?\n  1. Postgre⟨U+FEFF⟩SQL\n")
	s.write(t, "1\n")
	if e := ended(t, a); !reflect.DeepEqual(e.Answers, []prompt.Answer{{Labels: []string{"Postgre\ufeffSQL"}}}) {
		t.Errorf("answered %+v, want the label as given", e.Answers)
	}
	s.waitOut(t, "✔ Sent to claude⟨U+200B⟩code.\n")
}

// An empty answer of one's own goes back to the options, as on askuser's
// line prompts: the 2 typed next chooses option 2.
func TestLineBackFromOther(t *testing.T) {
	q := newQueue()
	a := add(t, q, &inbox.Set{From: "agent", Questions: []schema.Question{question("Database", "PostgreSQL", "SQLite")}})
	s := startScreen(t, false, q)
	s.waitOut(t, "From agent")
	s.write(t, "0\n\n2\n")
	if e := ended(t, a); e.State != inbox.Answered || !reflect.DeepEqual(e.Answers, []prompt.Answer{{Labels: []string{"SQLite"}}}) {
		t.Errorf("answered %+v, want SQLite", e)
	}
	s.waitOut(t, "Your answer: \nNothing typed: back to the options.\n[1/1] Database\n")
}

// Lines that are not typed at a terminal wait for the sets they answer:
// answers given ahead reach each set in turn, and none is lost between
// sets.
func TestLineAnswersAhead(t *testing.T) {
	q := newQueue()
	s := startScreen(t, false, q)
	s.write(t, "2\nyes\nmain\n")
	s.waitOut(t, "Waiting for questions at /run/inbox.sock.\n")
	a := add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("Database", "PostgreSQL", "SQLite")}})
	b := add(t, q, &inbox.Set{From: "b", Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", false)}})
	c := add(t, q, &inbox.Set{From: "c", Questions: []schema.Question{schema.InputQuestion("Branch?", "", "dev")}})
	if e := ended(t, a); e.State != inbox.Answered || e.Answers[0].Labels[0] != "SQLite" {
		t.Errorf("a: %+v", e)
	}
	if e := ended(t, b); e.State != inbox.Answered || !schema.IsYes(e.Answers[0]) {
		t.Errorf("b: %+v", e)
	}
	if e := ended(t, c); e.State != inbox.Answered || e.Answers[0].Other != "main" {
		t.Errorf("c: %+v", e)
	}
}

// /cancel cancels the set shown, /next moves to the next, /quit quits.
func TestLineCommands(t *testing.T) {
	q := newQueue()
	a := add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("One", "A", "B")}})
	b := add(t, q, &inbox.Set{From: "b", Questions: []schema.Question{question("Two", "C", "D")}})
	s := startScreen(t, true, q)
	s.waitOut(t, "From a · waiting 12s · 1 more waiting\n")
	time.Sleep(keyPause)
	s.write(t, "/next\n")
	s.waitOut(t, "From b · waiting 12s · 1 more waiting\n")
	s.write(t, " /CANCEL \n")
	if e := ended(t, b); e.State != inbox.Cancelled {
		t.Errorf("b: %+v", e)
	}
	s.waitOut(t, "Cancelled the questions from b.\n\nFrom a · waiting 12s\n")
	s.write(t, "/next\n")
	s.waitOut(t, "No other set is waiting.\n")
	s.write(t, "/quit\n")
	select {
	case err := <-s.done:
		s.done <- err
		if err != nil {
			t.Errorf("Run = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("/quit did not quit")
	}
	if a.End().State != inbox.Waiting {
		t.Error("quitting the screen ended a set: the inbox closes the queue itself")
	}
}

// /next moves to a set that came after the one shown was shown.
func TestLineNextToALaterSet(t *testing.T) {
	q := newQueue()
	add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("One", "A", "B")}})
	s := startScreen(t, true, q)
	s.waitOut(t, "From a · waiting 12s\n"+guardNote+"[1/1] One\n")
	b := add(t, q, &inbox.Set{From: "b", Questions: []schema.Question{schema.InputQuestion("Name?", "", "")}})
	time.Sleep(keyPause)
	s.write(t, "/next\n")
	s.waitOut(t, "From b · waiting 12s · 1 more waiting\nName?\n")
	if strings.Contains(s.out.String(), "No other set is waiting.") {
		t.Errorf("/next said no other set waits:\n%s", s.out.String())
	}
	s.write(t, "Ada\n")
	if e := ended(t, b); e.Answers[0].Other != "Ada" {
		t.Errorf("b: %+v", e)
	}
}

// A set withdrawn while it is shown leaves the screen at once, and the next
// is shown.
func TestLineWithdrawn(t *testing.T) {
	q := newQueue()
	a := add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("One", "A", "B")}})
	b := add(t, q, &inbox.Set{From: "b", Questions: []schema.Question{schema.InputQuestion("Name?", "", "")}})
	s := startScreen(t, true, q)
	s.waitOut(t, "[1/1] One\n")
	start := time.Now()
	q.Withdraw(a, "gone")
	s.waitOut(t, "The questions from a were withdrawn (gone).\n")
	s.waitOut(t, "From b · waiting 12s\n"+guardNote+"Name?\n")
	if d := time.Since(start); d > testutil.Slow {
		t.Errorf("the screen took %s", d)
	}
	time.Sleep(keyPause)
	s.write(t, "Ada\n")
	if e := ended(t, b); e.Answers[0].Other != "Ada" {
		t.Errorf("b: %+v", e)
	}
}

// How a set shown ended is said before the next set is shown: the queue
// wakes the view before it tells it of the end, and the view waits for
// its record. Withdrawn while its prompt waits, it is recorded below the
// prompt, and the next set's header follows.
func TestLineRecordsBeforeTheNext(t *testing.T) {
	for i := 0; i < 50; i++ {
		q := newQueue()
		a := add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("One", "A", "B")}})
		add(t, q, &inbox.Set{From: "b", Questions: []schema.Question{schema.InputQuestion("Name?", "", "")}})
		s := startScreen(t, false, q)
		s.waitOut(t, "[1/1] One\n")
		q.Withdraw(a, "gone")
		s.waitOut(t, "Name?\n")
		out := s.out.String()
		if rec, next := strings.Index(out, "The questions from a were withdrawn (gone).\n"), strings.Index(out, "From b"); rec < 0 || rec > next {
			t.Fatalf("run %d: the withdrawal of a is not said before b is shown:\n%s", i, out)
		}
	}
}

// Every set that ends is recorded, whichever view or inbox ended it and
// whether it was shown or waited behind: the answers given on the web
// page, a cancel there, a withdrawal, another inbox's answer. What is
// recorded while a prompt waits goes on lines of its own, with the prompt
// again below.
func TestLineRecordsEveryOutcome(t *testing.T) {
	q := newQueue()
	a := add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("One", "A", "B")}})
	b := add(t, q, &inbox.Set{From: "b", Questions: []schema.Question{question("Two", "C", "D"), question("Three", "E", "F")}})
	c := add(t, q, &inbox.Set{From: "c", Questions: []schema.Question{question("One", "A", "B")}})
	d := add(t, q, &inbox.Set{From: "d", Questions: []schema.Question{question("One", "A", "B")}})
	e := add(t, q, &inbox.Set{From: "e", Questions: []schema.Question{question("One", "A", "B")}})
	s := startScreen(t, false, q)
	s.waitOut(t, "Enter a number (Enter for 1, 0 for your own answer): ")
	if err := q.Answer(b, inbox.ViaPage, []prompt.Answer{{Labels: []string{"D"}, Note: "why not"}, {Other: "mine"}}); err != nil {
		t.Fatal(err)
	}
	if err := q.Cancel(c, inbox.ViaPage); err != nil {
		t.Fatal(err)
	}
	q.Withdraw(d, "the asker went away")
	q.EndElsewhere(e, inbox.End{State: inbox.Cancelled, Reason: "by bob@laptop"})
	const prompt = "Enter a number (Enter for 1, 0 for your own answer): "
	s.waitOut(t, prompt+"\n"+
		"✔ b, on the web page · Two: D\n"+
		"  Note: why not\n"+
		"✔ b, on the web page · Three: mine\n"+
		prompt+"\n"+
		"The questions from c were cancelled on the web page.\n"+
		prompt+"\n"+
		"The questions from d were withdrawn (the asker went away).\n"+
		prompt+"\n"+
		"The questions from e were cancelled elsewhere (by bob@laptop).\n"+
		prompt)
	s.write(t, "2\n")
	answered(t, a, labels("B"))
	s.waitOut(t, "bob@laptop).\n"+prompt+"2\n✔ Sent to a.\nWaiting for questions at /run/inbox.sock.\n")
}

// guardNote is what the screen says of a set that appeared without the
// person moving to it.
const guardNote = "(These questions just appeared: a line typed in the first half second is not taken.)\n"

// At a terminal, a set that appears without the person moving to it (the
// one before was withdrawn, or it is the first) takes no line for a while
// (keyPause; longer here, for a busy machine), and says so: a line typed 20, 100 or 400 ms after the set
// before was withdrawn, meant for it, is refused and the prompt shown
// again; a command too, but /quit. A line typed after that answers. A set
// the person moved to (by answering the one before, or /next) takes lines
// at once.
func TestLineTerminalKeyGuard(t *testing.T) {
	q := newQueue()
	a := add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("One", "A", "B")}})
	b := add(t, q, &inbox.Set{From: "b", Questions: []schema.Question{question("Two", "C", "D")}})
	c := add(t, q, &inbox.Set{From: "c", Questions: []schema.Question{question("Three", "E", "F")}})
	const guard = 1500 * time.Millisecond
	s := startScreen(t, true, q, func(l *Line) { l.keyGuard = guard })
	s.waitOut(t, "From a · waiting 12s · 2 more waiting\n"+guardNote+"[1/1] One\n")
	time.Sleep(guard)
	gone := time.Now()
	q.Withdraw(a, "gone")
	for _, at := range []time.Duration{20, 100, 400} {
		time.Sleep(time.Until(gone.Add(at * time.Millisecond)))
		s.write(t, "2\n")
	}
	s.write(t, "/cancel\n")
	s.waitOut(t, "From b · waiting 12s · 1 more waiting\n"+guardNote+"[1/1] Two\n")
	time.Sleep(guard)
	stillWaits(t, b)
	refused := strings.Count(s.out.String(), "(A line typed as these questions appeared was not taken: read them, then answer.)\n")
	if refused < 2 {
		t.Errorf("%d lines refused, want the 4 typed as the set appeared (some may have been typed before it)\n%s", refused, s.out.String())
	}
	s.write(t, "1\n")
	if e := ended(t, b); e.State != inbox.Answered || e.Answers[0].Labels[0] != "C" {
		t.Errorf("b: %+v", e)
	}
	s.waitOut(t, "✔ Sent to b.\n\nFrom c · waiting 12s\n[1/1] Three\n")
	s.write(t, "2\n")
	if e := ended(t, c); e.State != inbox.Answered || e.Answers[0].Labels[0] != "F" {
		t.Errorf("c: %+v", e)
	}
}

// At a terminal, what is typed while nothing waits answers nothing.
func TestLineTerminalIdle(t *testing.T) {
	q := newQueue()
	s := startScreen(t, true, q)
	s.waitOut(t, "Waiting for questions at /run/inbox.sock.\n")
	s.write(t, "2\n")
	s.waitOut(t, "No questions are waiting: nothing was answered.\n")
	a := add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("One", "A", "B")}})
	s.waitOut(t, "Enter a number")
	time.Sleep(keyPause)
	s.write(t, "1\n")
	if e := ended(t, a); e.Answers[0].Labels[0] != "A" {
		t.Errorf("a: %+v", e)
	}
}

// At a terminal, a line typed before a set was shown (for a set just
// withdrawn) does not answer it.
func TestLineTerminalDropsTypeahead(t *testing.T) {
	q := newQueue()
	b := add(t, q, &inbox.Set{From: "b", Questions: []schema.Question{schema.ConfirmQuestion("Delete the backups?", false)}})
	var out testutil.Buffer
	l := &Line{Queue: q, Out: &out, Terminal: true}
	l.out = &screenWriter{w: &out} // as Run makes it
	// "y" was read before b was shown; "n" is typed at its prompt.
	in := &lines{buf: []typed{{"y", time.Now()}}, wake: make(chan struct{})}
	done := make(chan error, 1)
	go func() {
		_, err := l.present(context.Background(), b, 0, in)
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "[y/N]: ") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(keyPause) // a line typed as the set appears is refused too
	in.add("n", nil)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if e := ended(t, b); e.State != inbox.Answered || schema.IsYes(e.Answers[0]) {
		t.Errorf("b: %+v", e)
	}
	if !strings.Contains(out.String(), "(A line typed before these questions were shown was dropped.)\n"+guardNote+"Delete the backups? [y/N]: ") {
		t.Errorf("screen:\n%s", out.String())
	}
}

// The end of the input quits, whether a set is shown or not. (Lines that
// no set has taken yet keep an inbox whose input is not a terminal for the
// sets to come: see TestLineAnswersAhead.)
func TestLineInputEnds(t *testing.T) {
	for _, withSet := range []bool{false, true} {
		q := newQueue()
		s := startScreen(t, false, q)
		if withSet {
			add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("One", "A", "B")}})
			s.write(t, "x\n")
		}
		s.in.Close()
		select {
		case err := <-s.done:
			s.done <- err
			if err != nil {
				t.Errorf("Run = %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the end of the input did not quit")
		}
		if withSet && !strings.Contains(s.out.String(), "The input ended: the inbox quits.\n") {
			t.Errorf("screen:\n%s", s.out.String())
		}
	}
}

// The context ending stops the screen with its cause.
func TestLineContext(t *testing.T) {
	q := newQueue()
	add(t, q, &inbox.Set{From: "a", Questions: []schema.Question{question("One", "A", "B")}})
	pr, _ := io.Pipe()
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error, 1)
	go func() { done <- (&Line{Queue: q, In: pr, Out: io.Discard}).Run(ctx) }()
	sig := errors.New("SIGTERM")
	cancel(sig)
	if err := <-done; !errors.Is(err, sig) {
		t.Errorf("Run = %v", err)
	}
}

// An answer or a cancel whose transport says when it has reached the
// asker's side (inbox.Set.Sent) is shown as sent only then; one that did
// not go, or has not yet, is shown as such.
func TestLineSentOnceStored(t *testing.T) {
	q := newQueue()
	qs := []schema.Question{question("Database", "PostgreSQL", "SQLite")}
	sets := make([]*inbox.Set, 3)
	for i, from := range []string{"stored", "late", "beaten"} {
		sets[i] = add(t, q, &inbox.Set{From: from, Questions: qs, Sent: make(chan error, 1)})
	}
	s := startScreen(t, false, q)
	s.waitOut(t, "From stored")
	s.write(t, "2\n")
	ended(t, sets[0])
	time.Sleep(100 * time.Millisecond)
	if strings.Contains(s.out.String(), "Sent to stored") {
		t.Fatalf("the answer was shown as sent before its transport said so:\n%s", s.out.String())
	}
	sets[0].Sent <- nil
	s.waitOut(t, "✔ Sent to stored.\n")
	s.waitOut(t, "From late")
	sets[1].Sent <- &inbox.NotSentError{Pending: true, Err: errors.New("the server has not stored it: timeout")}
	s.write(t, "1\n")
	s.waitOut(t, "Your answer to the questions from late is not sent yet (the server has not stored it: timeout): it goes as soon as it can.\n")
	s.waitOut(t, "From beaten")
	sets[2].Sent <- errors.New("they were answered elsewhere (by two) first")
	s.write(t, "/cancel\n")
	s.waitOut(t, "Your cancel of the questions from beaten was not sent: they were answered elsewhere (by two) first.\n")
	if strings.Contains(s.out.String(), "Sent to late") || strings.Contains(s.out.String(), "Cancelled the questions from beaten") {
		t.Errorf("what was not sent was shown as sent:\n%s", s.out.String())
	}
}
