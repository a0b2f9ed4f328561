package inbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

var questions = []schema.Question{
	{Question: "Which database?", Header: "Database", Options: []schema.Option{{Label: "PostgreSQL", Description: "a"}, {Label: "SQLite", Description: "b"}}},
	{Question: "Which features?", Header: "Features", MultiSelect: true, Options: []schema.Option{{Label: "Auth", Description: "a"}, {Label: "Search", Description: "b"}}},
}

func newAsker(a Addr, out *testutil.Buffer) prompt.Prompter {
	return NewAsker(AskerOptions{Addr: a, From: "tests", Cwd: "/src", Out: out})
}

// shown waits for the queue's shown set.
func shown(t *testing.T, q *Queue) *Set {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		v := q.Snapshot()
		if len(v.Sets) > 0 {
			return v.Sets[0]
		}
		select {
		case <-v.Changed:
		case <-deadline:
			t.Fatal("no set arrived")
		}
	}
}

type outcome struct {
	answers []prompt.Answer
	err     error
}

func TestAskerAnswered(t *testing.T) {
	in := startInbox(t)
	q, a := in.q, in.addr
	var out testutil.Buffer
	done := make(chan outcome, 1)
	go func() {
		got, err := newAsker(a, &out).Ask(context.Background(), questions)
		done <- outcome{got, err}
	}()
	s := shown(t, q)
	if s.From != "tests" || s.Cwd != "/src" || !reflect.DeepEqual(s.Questions, questions) {
		t.Fatalf("the inbox got %+v", s)
	}
	reply := []prompt.Answer{{Labels: []string{"SQLite"}, Note: "small is fine"}, {Labels: []string{"Auth", "Search"}, Other: "SSO"}}
	if err := q.Answer(s, ViaHere, reply); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || !reflect.DeepEqual(r.answers, reply) {
		t.Errorf("Ask = %+v, %v", r.answers, r.err)
	}
	if got, want := out.String(), "Waiting for an answer in the inbox (askuser inbox) at "+string(a)+"…\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
}

// The asker says how many sets wait before its own.
func TestAskSaysWhatIsAhead(t *testing.T) {
	in := startInbox(t)
	q, a := in.q, in.addr
	for _, from := range []string{"a", "b"} {
		if _, err := q.Add(&Set{From: from, Questions: []schema.Question{schema.ConfirmQuestion("Go?", true)}}); err != nil {
			t.Fatal(err)
		}
	}
	var out testutil.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go newAsker(a, &out).Ask(ctx, []schema.Question{schema.ConfirmQuestion("Deploy?", true)})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "\n") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if want := "Waiting for an answer in the inbox (askuser inbox) at " + string(a) + "… 2 sets of questions are ahead of this one.\n"; out.String() != want {
		t.Errorf("stderr %q, want %q", out.String(), want)
	}
}

// The questions of askuser confirm and input go to the inbox as they
// are, and their answers come back.
func TestAskerConfirmAndInput(t *testing.T) {
	in := startInbox(t)
	q, a := in.q, in.addr
	asker := newAsker(a, new(testutil.Buffer))
	for _, c := range []struct {
		q      schema.Question
		answer prompt.Answer
	}{
		{schema.ConfirmQuestion("Deploy?", false), prompt.Answer{Labels: []string{"Yes"}}},
		{schema.InputQuestion("Branch?", "main", "dev"), prompt.Answer{Other: "release-2"}},
	} {
		done := make(chan outcome, 1)
		go func() {
			got, err := asker.Ask(context.Background(), []schema.Question{c.q})
			done <- outcome{got, err}
		}()
		s := shown(t, q)
		if !reflect.DeepEqual(s.Questions, []schema.Question{c.q}) {
			t.Fatalf("queued %+v, want %+v", s.Questions, c.q)
		}
		if err := q.Answer(s, ViaHere, []prompt.Answer{c.answer}); err != nil {
			t.Fatal(err)
		}
		if r := <-done; r.err != nil || !reflect.DeepEqual(r.answers, []prompt.Answer{c.answer}) {
			t.Errorf("%s: Ask = %+v, %v", c.q.Question, r.answers, r.err)
		}
	}
}

// Esc in the inbox is the person's cancel: exit 130 for the asker.
func TestCancelled(t *testing.T) {
	in := startInbox(t)
	q, a := in.q, in.addr
	done := make(chan error, 1)
	go func() {
		_, err := newAsker(a, new(testutil.Buffer)).Ask(context.Background(), questions)
		done <- err
	}()
	_ = q.Cancel(shown(t, q), ViaHere)
	if err := <-done; !errors.Is(err, prompt.ErrCancelled) {
		t.Errorf("Ask = %v, want ErrCancelled", err)
	}
}

// An inbox that quits ends the asker within 2 seconds, unavailable.
func TestInboxQuits(t *testing.T) {
	in := startInbox(t)
	q, srv, a := in.q, in.srv, in.addr
	done := make(chan error, 1)
	go func() {
		_, err := newAsker(a, new(testutil.Buffer)).Ask(context.Background(), questions)
		done <- err
	}()
	shown(t, q)
	go srv.Close("the person quit the inbox")
	select {
	case err := <-done:
		_, ok := errors.AsType[*prompt.UnavailableError](err)
		if !ok || err.Error() != "the inbox at "+string(a)+" closed before the questions were answered (the person quit the inbox)" {
			t.Errorf("Ask = %v", err)
		}
	case <-time.After(testutil.Slow):
		t.Fatal("the asker still waits long after the inbox quit")
	}
}

// The asker's context ending withdraws the questions and returns its cause.
func TestWithdrawn(t *testing.T) {
	in := startInbox(t)
	q, a := in.q, in.addr
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := newAsker(a, new(testutil.Buffer)).Ask(ctx, []schema.Question{schema.InputQuestion("Name?", "", "")})
		done <- err
	}()
	s := shown(t, q)
	timeout := errors.New("timed out after 1s")
	cancel(timeout)
	if err := <-done; !errors.Is(err, timeout) {
		t.Errorf("Input = %v, want the cause", err)
	}
	select {
	case <-s.Done():
	case <-time.After(testutil.Slow):
		t.Fatal("the set is still queued")
	}
}

func TestNoInbox(t *testing.T) {
	a := SocketAddr(filepath.Join(t.TempDir(), "none.sock"))
	_, err := newAsker(a, new(testutil.Buffer)).Ask(context.Background(), questions)
	_, ok := errors.AsType[*prompt.UnavailableError](err)
	if !ok || err.Error() != "no inbox answers at "+string(a)+": start one with 'askuser inbox' in a terminal the person sees" {
		t.Errorf("Ask = %v", err)
	}
}

// fakeInbox answers every set with the event given, whatever it says: an
// inbox of another version, or a broken one.
func fakeInbox(t *testing.T, event string) SocketAddr {
	t.Helper()
	path := filepath.Join(t.TempDir(), "inbox.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, `{"event":"queued"}`)
		if event == "" {
			c, _, _ := http.NewResponseController(w).Hijack()
			c.Close()
			return
		}
		fmt.Fprintln(w, event)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return SocketAddr(path)
}

// An answer that does not fit the questions is never printed: the asker
// fails instead.
func TestAnswerNeverInvented(t *testing.T) {
	for _, c := range []struct {
		event string
		ask   func(prompt.Prompter) (any, error)
	}{
		{`{"event":"answered","answers":[{"labels":["MySQL"]},{"labels":["Auth"]}]}`, askAll},
		{`{"event":"answered","answers":[{"labels":["SQLite"]}]}`, askAll},
		{`{"event":"answered","answers":[{"labels":["SQLite","PostgreSQL"]},{"labels":["Auth"]}]}`, askAll},
		{`{"event":"answered","answers":[{"other":"\u001b\u0007"},{"labels":["Auth"]}]}`, askAll},
		{`{"event":"answered","answers":[{"labels":["SQLite"],"note":"\u0000"},{"labels":["Auth"]}]}`, askAll},
		{`{"event":"answered"}`, askOne(schema.ConfirmQuestion("Go?", true))},
		{`{"event":"answered","answers":[{"labels":["Yes"],"other":"no"}]}`, askOne(schema.ConfirmQuestion("Go?", true))},
		{`{"event":"answered","answers":[{"other":"  "}]}`, askOne(schema.InputQuestion("Name?", "", ""))},
	} {
		got, err := c.ask(newAsker(fakeInbox(t, c.event), new(testutil.Buffer)))
		if err == nil || !strings.Contains(err.Error(), "sent an answer that does not fit the questions") {
			t.Errorf("%s: got %v, %v", c.event, got, err)
		}
	}
}

func askAll(a prompt.Prompter) (any, error) { return a.Ask(context.Background(), questions) }

func askOne(q schema.Question) func(prompt.Prompter) (any, error) {
	return func(a prompt.Prompter) (any, error) { return a.Ask(context.Background(), []schema.Question{q}) }
}

// An inbox that dies while the questions wait ends the asker at once,
// unavailable.
func TestInboxGone(t *testing.T) {
	a := fakeInbox(t, "")
	start := time.Now()
	_, err := newAsker(a, new(testutil.Buffer)).Ask(context.Background(), questions)
	_, ok := errors.AsType[*prompt.UnavailableError](err)
	if !ok || err.Error() != "the inbox at "+string(a)+" went away before the questions were answered" || time.Since(start) > testutil.Slow {
		t.Errorf("Ask = %v after %s", err, time.Since(start))
	}
}
