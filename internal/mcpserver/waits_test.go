package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// person is a way of asking where the person answers when the test says
// so: it counts the sets it was asked, and tells when one was withdrawn.
type person struct {
	mu        sync.Mutex
	asked     int
	answer    chan string   // the label the person chooses
	withdrawn chan struct{} // a set left the screen unanswered
}

func newPerson() *person {
	return &person{answer: make(chan string, 1), withdrawn: make(chan struct{}, 4)}
}

func (p *person) way() ask.Way {
	return ask.Way{Name: "inbox", Open: func(context.Context) (*ask.Opened, error) {
		p.mu.Lock()
		p.asked++
		p.mu.Unlock()
		return &ask.Opened{Prompter: askerFunc(func(ctx context.Context, _ []schema.Question) ([]prompt.Answer, error) {
			select {
			case label := <-p.answer:
				return []prompt.Answer{{Labels: []string{label}}}, nil
			case <-ctx.Done():
				p.withdrawn <- struct{}{}
				return nil, context.Cause(ctx)
			}
		})}, nil
	}}
}

func (p *person) sets() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.asked
}

// calling calls askuser's tool on cs in the background, and gives the
// text of its result when it returns.
func calling(cs *mcp.ClientSession) <-chan string {
	got := make(chan string, 1)
	go func() {
		text, _ := callWith(context.Background(), cs, nil)
		got <- text
	}()
	return got
}

// callWith calls the tool with questionArgs in ctx, with the progress
// token when it is not nil.
func callWith(ctx context.Context, cs *mcp.ClientSession, token any) (string, error) {
	params := &mcp.CallToolParams{Name: "askuser", Arguments: questionArgs}
	if token != nil {
		params.SetProgressToken(token)
	}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		return "", err
	}
	return res.Content[0].(*mcp.TextContent).Text, nil
}

// While a call waits for the person, the client is sent progress on the
// call's progress token, ever higher, so that a client that resets its time
// limit on progress (OpenCode, Copilot CLI) keeps waiting; a call without a
// token is sent none.
func TestProgressWhileWaiting(t *testing.T) {
	p := newPerson()
	progress := make(chan *mcp.ProgressNotificationParams, 100)
	cs := serve(t, Options{Route: route(ask.UIInbox, p.way(), ask.Way{}), ProgressEvery: 20 * time.Millisecond},
		&mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			progress <- r.Params
		}})
	done := make(chan string, 1)
	go func() {
		text, _ := callWith(context.Background(), cs, "call-1")
		done <- text
	}()
	last := -1.0
	for range 3 {
		select {
		case n := <-progress:
			if n.ProgressToken != "call-1" || n.Progress <= last || n.Message != "Waiting for the person's answer" {
				t.Errorf("progress %+v after %v", n, last)
			}
			last = n.Progress
		case <-time.After(5 * time.Second):
			t.Fatal("no progress while the call waited")
		}
	}
	p.answer <- "SQLite"
	if text := <-done; text != `{"answers":{"Database":"SQLite"}}` {
		t.Errorf("call: %s", text)
	}

	go func() {
		text, _ := callWith(context.Background(), cs, nil)
		done <- text
	}()
	time.Sleep(200 * time.Millisecond)
	p.answer <- "SQLite"
	<-done
	for len(progress) > 0 {
		if n := <-progress; n.ProgressToken != "call-1" {
			t.Errorf("progress sent for a call without a token: %+v", n)
		}
	}
}

// A client that stops waiting for a call for a time limit of its own (Go's
// SDK says its deadline passed, TypeScript's that the request timed out)
// leaves the questions waiting for the person; a call with the same
// questions waits for them, or gets the answer given meanwhile, and the
// person is asked once.
func TestTimedOutCallLeavesQuestionsWaiting(t *testing.T) {
	p := newPerson()
	cs := serve(t, Options{Route: route(ask.UIInbox, p.way(), ask.Way{})}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := callWith(ctx, cs, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the call ended with %v, want its deadline", err)
	}
	select {
	case <-p.withdrawn:
		t.Fatal("the questions were withdrawn when the client's time limit passed")
	case <-time.After(300 * time.Millisecond):
	}
	// The person answers while no call waits; the next call gets it.
	p.answer <- "SQLite"
	time.Sleep(100 * time.Millisecond)
	if text, err := callWith(context.Background(), cs, nil); err != nil || text != `{"answers":{"Database":"SQLite"}}` {
		t.Errorf("the call made again got %q, %v", text, err)
	}
	if n := p.sets(); n != 1 {
		t.Errorf("the person was asked %d times", n)
	}

	// A call made again before the answer waits for it.
	ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	callWith(ctx, cs, nil)
	done := make(chan string, 1)
	go func() {
		text, _ := callWith(context.Background(), cs, nil)
		done <- text
	}()
	time.Sleep(200 * time.Millisecond)
	p.answer <- "PostgreSQL"
	if text := <-done; text != `{"answers":{"Database":"PostgreSQL"}}` {
		t.Errorf("the call made again got %q", text)
	}
	if n := p.sets(); n != 2 {
		t.Errorf("the person was asked %d times, want 2", n)
	}
}

// A call the client cancels for any other reason (the person interrupted
// the agent) withdraws its questions at once, and the same questions asked
// again are a new set.
func TestCancelledCallWithdraws(t *testing.T) {
	p := newPerson()
	cs := serve(t, Options{Route: route(ask.UIInbox, p.way(), ask.Way{})}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(200 * time.Millisecond)
		cancel()
	}()
	if _, err := callWith(ctx, cs, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("the call ended with %v", err)
	}
	select {
	case <-p.withdrawn:
	case <-time.After(testutil.Slow):
		t.Fatal("the questions were not withdrawn")
	}
	p.answer <- "SQLite"
	if text, _ := callWith(context.Background(), cs, nil); text != `{"answers":{"Database":"SQLite"}}` {
		t.Errorf("call: %s", text)
	}
	if n := p.sets(); n != 2 {
		t.Errorf("the person was asked %d times, want 2", n)
	}
}

// The same questions asked again meet those that wait, however the client
// spaces them and whatever arguments of its own it adds; other questions,
// or another tool, do not.
func TestCallKey(t *testing.T) {
	key := callKey("askuser", json.RawMessage(`{"questions":[{"question":"Which database?"}]}`))
	for args, same := range map[string]bool{
		"{ \"questions\" : [ {\"question\": \"Which database?\"} ] }\n":           true,
		`{"wait_for_previous":true,"questions":[{"question":"Which database?"}]}`: true,
		`{"questions":[{"question":"Which  database?"}]}`:                         false,
	} {
		if got := callKey("askuser", json.RawMessage(args)); (got == key) != same {
			t.Errorf("%s: key %q, want it the same as %q: %v", args, got, key, same)
		}
	}
	if callKey("approve", json.RawMessage(`{"questions":[{"question":"Which database?"}]}`)) == key {
		t.Error("another tool's call meets askuser's")
	}
}
