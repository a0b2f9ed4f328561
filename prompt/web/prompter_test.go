package web

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// asked is a Prompter at work in the test: its address, and what its ask
// returns once it does.
type asked struct {
	w     *Prompter
	url   string
	out   *testutil.Buffer
	done  chan struct{}
	end   time.Time
	value any
	err   error
}

// startPrompter serves a new Prompter on a loopback port and runs ask with it.
func startPrompter(t *testing.T, ctx context.Context, ask func(context.Context, *Prompter) (any, error)) *asked {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a := &asked{out: &testutil.Buffer{}, done: make(chan struct{})}
	w := New(Options{Listener: ln, Out: a.out})
	a.w, a.url = w, w.URL()
	go func() {
		defer close(a.done)
		a.value, a.err = ask(ctx, w)
		a.end = time.Now()
	}()
	t.Cleanup(func() {
		select {
		case <-a.done:
		case <-time.After(10 * time.Second):
			t.Errorf("the asker is still asking")
		}
	})
	return a
}

// waitFor waits until n pages wait on the asker's set.
func (a *asked) waitFor(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if a.w.waiting() >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d pages waiting", n)
		}
	}
}

func (a *asked) at(path string) string {
	u, _ := url.Parse(a.url)
	u.Path = path
	return u.String()
}

func (a *asked) wait(t *testing.T) {
	t.Helper()
	select {
	case <-a.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the asker did not return")
	}
}

func askQuestions(qs []schema.Question) func(context.Context, *Prompter) (any, error) {
	return func(ctx context.Context, w *Prompter) (any, error) { return w.Ask(ctx, qs) }
}

func get(t *testing.T, client *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := client.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func post(client *http.Client, u, form string) (int, string, error) {
	resp, err := client.Post(u, "application/x-www-form-urlencoded", strings.NewReader(form))
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// TestPrompterNote checks that a note sent with the form comes back on its
// answer, checked as a typed answer is.
func TestPrompterNote(t *testing.T) {
	qs := []schema.Question{webQuestions[0], webQuestions[1]}
	a := startPrompter(t, context.Background(), askQuestions(qs))
	client := &http.Client{}
	defer client.CloseIdleConnections()
	code, body, err := post(client, a.at("/answer"), "q0=2&q0-note=small+data%1B[0m&q1=1&q1=3&q1-note=+")
	if err != nil || code != http.StatusOK {
		t.Fatalf("answer: %d %v\n%s", code, err, body)
	}
	if !strings.Contains(body, `<span class="note-tag">Note</span> small data[0m</dd>`) {
		t.Errorf("the answered page does not show the note:\n%s", body)
	}
	a.wait(t)
	want := []prompt.Answer{{Labels: []string{"SQLite"}, Note: "small data[0m"}, {Labels: []string{"Login", "Export, all of it"}}}
	if got, ok := a.value.([]prompt.Answer); a.err != nil || !ok || len(got) != 2 ||
		got[0].String() != want[0].String() || got[0].Note != want[0].Note || got[1].String() != want[1].String() || got[1].Note != "" {
		t.Errorf("Ask = %#v, %v; want %#v", a.value, a.err, want)
	}
	// A Prompter asks once: asked again, it says so, and gives no answers
	// (not those of the first time).
	if got, err := a.w.Ask(context.Background(), qs); err == nil || got != nil {
		t.Errorf("a second Ask returned %v, %v; want an error", got, err)
	}
}

// TestPrompterConfirmAndInputHaveNoNote checks that askuser confirm and input,
// which print only the answer, offer no note, and take none.
func TestPrompterConfirmAndInputHaveNoNote(t *testing.T) {
	for name, tc := range map[string]struct {
		ask  func(context.Context, *Prompter) (any, error)
		form string
		want any
	}{
		"confirm": {askQuestions([]schema.Question{schema.ConfirmQuestion("Deploy?", false)}), "q0=yes&q0-note=sure", []prompt.Answer{{Labels: []string{"Yes"}}}},
		"input":   {askQuestions([]schema.Question{schema.InputQuestion("Name?", "", "Card")}), "q0-other=Deck&q0-note=why", []prompt.Answer{{Other: "Deck"}}},
	} {
		t.Run(name, func(t *testing.T) {
			a := startPrompter(t, context.Background(), tc.ask)
			client := &http.Client{}
			defer client.CloseIdleConnections()
			code, page := get(t, client, a.url)
			if code != http.StatusOK || strings.Contains(page, `class="note"`) || strings.Contains(page, `q0-note`) {
				t.Errorf("the page offers a note:\n%s", page)
			}
			if code, body, err := post(client, a.at("/answer"), tc.form); err != nil || code != http.StatusOK {
				t.Fatalf("answer: %d %v\n%s", code, err, body)
			}
			a.wait(t)
			if a.err != nil || !reflect.DeepEqual(a.value, tc.want) {
				t.Errorf("got %v, %v; want %v", a.value, a.err, tc.want)
			}
		})
	}
}

// TestPrompterWithdrawn checks that a page waiting when the context ends
// learns why, and that Ask returns the context's cause.
func TestPrompterWithdrawn(t *testing.T) {
	cause := errors.New("timed out after 1s")
	ctx, cancel := context.WithCancelCause(context.Background())
	a := startPrompter(t, ctx, askQuestions([]schema.Question{webQuestions[0]}))
	client := &http.Client{}
	defer client.CloseIdleConnections()
	waited := make(chan string, 1)
	go func() {
		resp, err := client.Get(a.at("/wait"))
		if err != nil {
			waited <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		waited <- strconv.Itoa(resp.StatusCode) + " " + string(b)
	}()
	a.waitFor(t, 1)
	cancel(cause)
	a.wait(t)
	if !errors.Is(a.err, cause) {
		t.Errorf("Ask returned %v, want %v", a.err, cause)
	}
	if got := <-waited; !strings.HasPrefix(got, "200 ") || !strings.Contains(got, "Question withdrawn") || !strings.Contains(got, "(timed out after 1s)") {
		t.Errorf("the waiting page got %.300s", got)
	}
	if out := a.out.String(); !strings.HasPrefix(out, "Answer in your browser: http://127.0.0.1:") || strings.Count(out, "\n") != 1 {
		t.Errorf("the asker wrote %q", out)
	}
}

// TestPrompterManyClients has 50 clients, each on connections of its own,
// load the page and wait on it, then all answer at once: every request
// gets a proper reply, exactly one answer wins and is the one Ask returns,
// every waiting page learns that it was answered, Ask returns at once, and
// nothing is left running.
func TestPrompterManyClients(t *testing.T) {
	before := runtime.NumGoroutine()
	a := startPrompter(t, context.Background(), askQuestions([]schema.Question{webQuestions[0]}))
	const clients = 50
	type result struct {
		form       string
		answer     int
		answerErr  error
		answerBody string
		wait       string
		answered   time.Time
	}
	results := make([]result, clients)
	page, wait, answer := a.url, a.at("/wait"), a.at("/answer")
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	ready.Add(clients)
	done.Add(clients)
	for i := range clients {
		go func() {
			defer done.Done()
			res := &results[i]
			res.form = "q0=0&q0-other=client+" + strconv.Itoa(i)
			if i%3 == 0 {
				res.form = "q0=" + strconv.Itoa(i%2+1) + "&q0-note=from+client+" + strconv.Itoa(i)
			}
			client := &http.Client{Transport: &http.Transport{}, Timeout: 20 * time.Second}
			defer client.CloseIdleConnections()
			waitClient := &http.Client{Transport: &http.Transport{}, Timeout: 20 * time.Second}
			defer waitClient.CloseIdleConnections()
			load := func() {
				resp, err := client.Get(page)
				if err != nil {
					t.Errorf("client %d: page: %v", i, err)
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `id="answers"`) {
					t.Errorf("client %d: page: %d\n%.300s", i, resp.StatusCode, b)
				}
			}
			load()
			waitDone := make(chan struct{})
			go func() {
				defer close(waitDone)
				resp, err := waitClient.Get(wait)
				if err != nil {
					res.wait = err.Error()
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				res.wait = strconv.Itoa(resp.StatusCode) + " " + string(b)
			}()
			load()
			ready.Done()
			<-start
			res.answer, res.answerBody, res.answerErr = post(client, answer, res.form)
			res.answered = time.Now()
			<-waitDone
		}()
	}
	ready.Wait()
	a.waitFor(t, clients)
	select {
	case <-a.done:
		t.Fatalf("the asker returned before the answers: %v, %v", a.value, a.err)
	default:
	}
	close(start)
	done.Wait()
	a.wait(t)

	winner := -1
	for i, res := range results {
		switch {
		case res.answer == http.StatusOK:
			if winner >= 0 {
				t.Errorf("clients %d and %d both answered", winner, i)
			}
			winner = i
			if !strings.Contains(res.answerBody, "Answered") {
				t.Errorf("client %d: the winning answer's page does not say Answered", i)
			}
		case res.answer == http.StatusConflict:
			if !strings.Contains(res.answerBody, "Answered") {
				t.Errorf("client %d: the page answered elsewhere does not say so:\n%.300s", i, res.answerBody)
			}
		case res.answerErr != nil:
			// Sent as the server stopped, once the answer was in.
		default:
			t.Errorf("client %d: answer: status %d\n%.300s", i, res.answer, res.answerBody)
		}
		if !strings.HasPrefix(res.wait, "200 ") || !strings.Contains(res.wait, "Answered") {
			t.Errorf("client %d: the waiting page did not learn it was answered: %.300s", i, res.wait)
		}
	}
	if winner < 0 {
		t.Fatal("no answer won")
	}
	values, _ := url.ParseQuery(results[winner].form)
	want := prompt.Answer{Other: values.Get("q0-other"), Note: values.Get("q0-note")}
	if n := values.Get("q0"); n != "0" {
		j, _ := strconv.Atoi(n)
		want = prompt.Answer{Labels: []string{webQuestions[0].Options[j-1].Label}, Note: want.Note}
	}
	got, _ := a.value.([]prompt.Answer)
	if a.err != nil || len(got) != 1 || got[0].String() != want.String() || got[0].Note != want.Note {
		t.Errorf("Ask = %#v, %v; want the winner's %#v", a.value, a.err, want)
	}
	if took := a.end.Sub(results[winner].answered); took > testutil.Slow {
		t.Errorf("Ask returned %v after the answer", took)
	}
	// Nothing of the server is left running.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}
