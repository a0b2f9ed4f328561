package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
	"github.com/askuser/askuser/schema/jsonout"
)

// A person may take longer to answer than an MCP client waits for a call.
// Clients that reset their time limit on progress (OpenCode and Copilot
// CLI, after 60 s; Claude Code, after 30 minutes) are sent progress while
// a call waits. Clients with a limit of their own that progress does not
// move (Gemini CLI and Qwen Code: the server's "timeout", 10 minutes by
// default) cancel the call when it passes, saying it timed out: the
// questions then keep waiting for the person, and a call with the same
// questions, which the tool's description tells the model to make, gets
// their answer. Any other cancel withdraws them, as the end of an asker
// does.

// DefaultProgressEvery is how often a waiting call tells the client that
// it still waits, when the client gave it a progress token: well within
// the shortest limit that progress resets (60 s).
const DefaultProgressEvery = 20 * time.Second

// progress sends the client progress on req's progress token until ctx
// ends, every s.opts.ProgressEvery, when req has one. It returns at once.
func (s *Server) progress(ctx context.Context, req *mcp.CallToolRequest) {
	token := req.Params.GetProgressToken()
	if token == nil {
		return
	}
	go func() {
		start := time.Now()
		tick := time.NewTicker(s.opts.ProgressEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			// Progress only helps: the call goes on without it.
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token, Progress: time.Since(start).Seconds(), Message: "Waiting for the person's answer",
			})
		}
	}()
}

// waiting is one set of questions that a call asked, asked apart from the
// call, so that it can outlive it (see keep).
type waiting struct {
	done chan struct{}
	got  []prompt.Answer
	err  error
	stop context.CancelCauseFunc
	// calls are the calls that wait for the answer; form, that the
	// client's own form asks, which ends with the call (s.mu holds both).
	calls int
	form  bool
	// turns takes the calls that come while a form handed back to the
	// client waits for its reply (see Server.forms).
	turns chan turn
}

// turn is a call that meets the questions waiting for it: the form it
// carries a reply to, when any, goes to the form that waits for the
// reply, and back takes the form handed back to the client in its result.
type turn struct {
	req  *mcp.CallToolRequest
	back chan *mcp.CallToolResult
}

// ask reaches the person with qs for the call req along its route, the
// client's forms first when forms is true (see Server.forms), and says on
// stderr and in the client's log where the questions wait, and why the
// form was passed over when it asked nobody. A route of no way is none,
// unavailable. A form handed back to the client to fill in, and call again
// with, is back, the call's result, and the questions keep waiting (in the
// inbox, when one runs) for the call that carries the form's reply. A call
// whose questions already wait, from a call the client stopped waiting for
// or one that handed back a form, waits for their answer instead of asking
// again, and hands the form that waits its reply, when it carries one.
func (s *Server) ask(reqCtx context.Context, req *mcp.CallToolRequest, qs []schema.Question, forms bool, none error) (got []prompt.Answer, back *mcp.CallToolResult, err error) {
	key := callKey(req.Params.Name, req.Params.Arguments)
	t := turn{req: req, back: make(chan *mcp.CallToolResult, 1)}
	var offer chan<- turn
	s.mu.Lock()
	w := s.waits[key]
	if w == nil {
		w = s.start(key, t, qs, forms, none)
	} else {
		offer = w.turns
	}
	w.calls++
	s.mu.Unlock()
	ctx, stopProgress := context.WithCancel(reqCtx)
	defer stopProgress()
	s.progress(ctx, req)
wait:
	for {
		select {
		case offer <- t:
			offer = nil
		case back = <-t.back:
			s.mu.Lock()
			w.calls--
			s.mu.Unlock()
			return nil, back, nil
		case <-w.done:
			if offer != nil && w.err == nil && replied(req) {
				s.dropped(reqCtx, req)
			}
			// The call takes the outcome, and the questions are forgotten.
			s.mu.Lock()
			defer s.mu.Unlock()
			w.calls--
			if s.waits[key] == w {
				delete(s.waits, key)
			}
			delete(s.timedOut, key)
			return w.got, nil, w.err
		case <-reqCtx.Done():
			break wait
		}
	}
	return nil, nil, s.stopped(reqCtx, key, w)
}

// stopped ends the call whose client stopped waiting for it (reqCtx ended)
// while the questions of w wait: they stop too, unless another call waits
// for them or they are kept (see keep). It returns the call's error.
func (s *Server) stopped(reqCtx context.Context, key string, w *waiting) error {
	cause := errClientCancelled
	if errors.Is(context.Cause(reqCtx), io.EOF) {
		cause = errClientGone
	}
	s.mu.Lock()
	w.calls--
	kept := w.calls > 0 || s.keep(key, w, cause)
	if !kept && s.waits[key] == w {
		delete(s.waits, key)
	}
	s.mu.Unlock()
	if !kept {
		w.stop(cause)
		<-w.done
		return cause
	}
	_, _ = fmt.Fprintf(s.opts.Log, "askuser mcp: %s.\n", errStillWaiting)
	return errStillWaiting
}

// keep reports whether the questions of w, whose last call the client
// stopped waiting for with cause, keep waiting for the person: when the
// client gave up on the call for a time limit of its own, and the questions
// are not in its form, which goes with the call. s.mu is held.
func (s *Server) keep(key string, w *waiting, cause error) bool {
	timedOut := s.timedOut[key]
	delete(s.timedOut, key)
	return timedOut && cause == errClientCancelled && !w.form
}

// errStillWaiting is why a call ended while its questions still wait.
var errStillWaiting = errors.New("the MCP client stopped waiting for a call (a time limit of its own); its questions still wait for the person, and a call with the same questions gets the answer")

// start starts asking qs for the call first, in a context of their own
// that ends when every call that waits for them is withdrawn, or when the
// server stops, whatever stopped it (a signal, or the client closing the
// session), with errStopped. s.mu is held.
func (s *Server) start(key string, first turn, qs []schema.Question, forms bool, none error) *waiting {
	ctx, stop := context.WithCancelCause(context.WithoutCancel(s.ctx))
	stopped := context.AfterFunc(s.ctx, func() { stop(errStopped) })
	w := &waiting{done: make(chan struct{}), stop: stop, turns: make(chan turn)}
	s.waits[key] = w
	req := first.req
	var way *ask.Way
	if forms {
		way = s.forms(w, first)
	}
	s.asking.Add(1)
	go func() {
		defer s.asking.Done()
		defer close(w.done)
		defer stop(nil)
		defer stopped()
		route := s.opts.Route(way, callFrom(req))
		if len(route.Ways) == 0 {
			w.err = &prompt.UnavailableError{Err: none}
			return
		}
		route.OnOpen = func(ctx context.Context, name string, o *ask.Opened, after error) {
			s.mu.Lock()
			w.form = o.Prompter != nil && way != nil && name == way.Name
			s.mu.Unlock()
			if after != nil {
				// The client's form asked nobody: say why, before another
				// way asks.
				s.tell(ctx, req, prompt.Capitalize(after.Error())+". Asking another way.")
			}
			if o.Where != "" {
				s.notice(ctx, req, o.Where)
			}
		}
		defer route.Close()
		w.got, w.err = route.Ask(ctx, qs)
		s.mu.Lock()
		idle := w.calls == 0
		s.mu.Unlock()
		if idle && w.err == nil {
			_, _ = fmt.Fprintf(s.opts.Log, "askuser mcp: %s\n", answeredIdle)
		}
	}()
	return w
}

// answeredIdle says that the person answered questions that no call waited
// for: one the client stopped waiting for, or one whose form the client
// still shows, whose reply will be dropped.
const answeredIdle = "The person answered questions that no call waits for now (in the inbox, beside a form the MCP client may still show, whose reply is then dropped); the next call with the same questions gets the answers."

// callKey names a call by its tool and its arguments, without those the
// client adds for its own use, so that the same questions asked again meet
// those that wait.
func callKey(tool string, args json.RawMessage) string {
	// The arguments as gjson's @ugly writes them: without the space
	// between their tokens.
	return tool + "\n" + gjson.GetBytes(jsonout.Without(args, clientArgs...), "@ugly").Raw
}

// timeoutReason matches the reason of a cancel that a client's own time
// limit made: the MCP TypeScript SDK's "McpError: MCP error -32001: Request
// timed out", the Go SDK's "context deadline exceeded", and the like.
var timeoutReason = regexp.MustCompile(`(?i)timed? ?out|deadline exceeded|-32001`)

// noteTimedOut notes that the client cancelled the call of key for a time
// limit of its own (see keep).
func (s *Server) noteTimedOut(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.timedOut[key] = true
}
