// Package mcpserver is askuser's MCP server: the tool askuser, which takes
// the questions as askuser does, and approve, which asks whether an
// agent's tool call may run. It is built on the official MCP SDK, which
// owns the protocol, and on the ask engine (internal/ask), which checks,
// routes, answers and words a call as it does a run of askuser, so that
// the two agree exactly: the route of ways that reach the person (the
// inbox, a web page) is the engine's. This package owns only what is
// MCP's: the tools and their calls, the client's own forms (elicitation),
// which it adds to the route, the notices in the client's log, the
// outcomes of the client's own, and the line filter that keeps JSON-RPC's
// rules where the SDK's transport does not.
package mcpserver

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/elicit"
	"github.com/askuser/askuser/schema"
	"github.com/askuser/askuser/schema/jsonout"
)

// Options configure a Server.
type Options struct {
	// Implementation names the server to its clients.
	Implementation *mcp.Implementation
	// Tool is the one tool, with its name, description and input schema.
	Tool *mcp.Tool
	// Request checks each call's arguments, the questions document, and
	// writes its answers, as the command line does with its input: its
	// Schema, Key, Arrays and Presets serve every call, which gives the Doc.
	Request ask.Request
	// Route returns the route of one call (see ask.Place.Client): own is
	// the client's own way of reaching the person, its forms, nil when it
	// declared none; from names where the call comes from, in the inbox,
	// when askuser mcp was not told (--from). A route without ways is
	// --ui elicit, for a client without forms.
	Route func(own *ask.Way, from string) *ask.Route
	// Quickest is the soonest a person can decline or cancel a form; a
	// client that does so sooner could not show it (see elicit.Unattended).
	// 0 means elicit.Quickest.
	Quickest time.Duration
	// ProgressEvery is how often a waiting call sends the client progress;
	// 0 means DefaultProgressEvery.
	ProgressEvery time.Duration
	// Log receives notices for the person who runs the server: stderr,
	// never stdout, which carries the protocol.
	Log io.Writer
}

// Server serves the tool; see Run.
type Server struct {
	opts Options
	// ctx ends when Run ends: every call with it, and no call starts
	// after it.
	ctx context.Context

	mu     sync.Mutex
	calls  sync.WaitGroup // the calls under way, to wait for
	asking sync.WaitGroup // the questions being asked, to wait for
	// waits are the sets of questions being asked, by their calls' keys
	// (see callKey); timedOut the keys of calls that the client cancelled
	// for a time limit of its own.
	waits    map[string]*waiting
	timedOut map[string]bool
}

// New returns a server with opts.
func New(opts Options) *Server {
	opts.Quickest = cmp.Or(opts.Quickest, elicit.Quickest)
	opts.ProgressEvery = cmp.Or(opts.ProgressEvery, DefaultProgressEvery)
	return &Server{opts: opts, waits: map[string]*waiting{}, timedOut: map[string]bool{}}
}

// stopGrace is how long stopping waits for the replies of the calls it
// ends to be written, and for the questions it ends to be withdrawn.
const stopGrace = 2 * time.Second

// Run serves the tool on in and out (stdin and stdout) until the client
// goes or ctx ends, then ends the calls still waiting (withdrawing their
// questions) and the questions that wait for no call (beside a form handed
// back to the client), and returns once their replies are written and the
// questions withdrawn.
func (s *Server) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	s.ctx = ctx

	// The session closes its reader when it stops, to end the read under
	// way; closing stdin does not interrupt a read of a pipe, closing a
	// pipe of our own does. The wire passes on only what the SDK reads.
	input, feed := io.Pipe()
	output := &wire{out: out, log: s.opts.Log, timedOut: s.noteTimedOut,
		inFlight: map[jsonrpc.ID]bool{}, calls: map[jsonrpc.ID]string{}, wrote: make(chan struct{})}
	go output.pump(in, feed)

	srv := mcp.NewServer(s.opts.Implementation, &mcp.ServerOptions{
		Logger: slog.New(slog.NewTextHandler(s.opts.Log, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	srv.AddTool(s.opts.Tool, s.counted(s.call))
	srv.AddTool(approveTool, s.counted(s.approve))
	// A client that never sets a level still hears where to answer: with
	// no level set, the protocol lets the server choose what to send.
	// The wire bounds the lines; the SDK's own limit, which counts what its
	// decoder buffers ahead, could refuse a line the wire passed.
	ss, err := srv.Connect(ctx, &mcp.IOTransport{Reader: input, Writer: output, MaxLineLength: -1},
		&mcp.ServerSessionOptions{State: &mcp.ServerSessionState{LogLevel: "info"}})
	if err != nil {
		return fmt.Errorf("serve MCP: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
	}
	// No call starts once ctx ends (see counted).
	s.mu.Lock()
	stop(errStopped)
	s.mu.Unlock()
	s.calls.Wait()
	withdrawn := make(chan struct{})
	go func() {
		s.asking.Wait()
		close(withdrawn)
	}()
	select {
	case <-withdrawn:
	case <-time.After(stopGrace):
	}
	// The session writes nothing once it is closing: the replies of the
	// calls just ended go out first.
	output.await(stopGrace)
	_ = ss.Close()
	if err != nil {
		return fmt.Errorf("serve MCP: %w", err)
	}
	return nil
}

// counted returns the handler h of a tool, with its calls counted in and out
// for Run to wait for, and refused once Run is ending.
func (s *Server) counted(h mcp.ToolHandler) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.mu.Lock()
		if s.ctx.Err() != nil {
			s.mu.Unlock()
			return toolError(errStopped), nil
		}
		s.calls.Add(1)
		s.mu.Unlock()
		defer s.calls.Done()
		return h(ctx, req)
	}
}

// call handles one call of the tool.
func (s *Server) call(reqCtx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	// The arguments are checked as the command line checks its input (none
	// at all are an empty object), and the answers given in advance taken.
	r := s.opts.Request
	r.Doc = jsonout.Without(req.Params.Arguments, clientArgs...)
	if len(r.Doc) == 0 {
		r.Doc = []byte("{}")
	}
	c, err := ask.Prepare(r)
	if err != nil {
		return toolError(err), nil
	}
	if len(c.Pending) > 0 {
		got, back, err := s.ask(reqCtx, req, c.Questions(), declaresElicitation(req), errNoForms)
		switch {
		case back != nil:
			return back, nil
		case err != nil:
			return toolError(err), nil
		}
		c.Fill(got)
	}
	var b bytes.Buffer
	if err := c.Write(&b); err != nil {
		return toolError(err), nil
	}
	out := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(out)}},
		StructuredContent: json.RawMessage(out),
	}, nil
}

// Why a call is not asked through the client's forms with --ui elicit.
var (
	errNoForms      = errors.New("the MCP client cannot show questions: it did not declare elicitation, and askuser mcp runs with --ui elicit")
	errApproveForms = errors.New("approve does not ask through the MCP client's forms, which the client holds until the approval ends, and askuser mcp runs with --ui elicit")
)

// forms returns the client's own way of reaching the person, a form filled
// in in its own interface, for the questions that wait in w, which the call
// first asks first: as the server's own request (elicit.Prompter), or
// handed back in the call's result, as the client takes it. The
// form waits beside the inbox: one asked as the server's own request is
// ended when the inbox answers first (the SDK sends
// notifications/cancelled); one handed back in the call's result is the
// client's until it calls again with the reply, which then comes too late
// and is dropped. A call that starts with a reply, to a form of which
// nothing waits here, takes it at once.
func (s *Server) forms(w *waiting, first turn) *ask.Way {
	req := first.req
	var form prompt.Prompter = &elicit.Prompter{Elicit: req.Session.Elicit, Version: req.ProtocolVersion(), Quickest: s.opts.Quickest}
	if roundTrips(req) {
		// The client fills in forms between calls: each form is handed
		// back to the call that waits (see elicitRound), and the next call
		// that meets the questions waiting in w brings its reply. The form
		// ends, and a reply that comes after is dropped, when ctx ends: the
		// inbox beside it answered first.
		form = prompt.PrompterFunc(func(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
			for t := first; ; {
				answers, back, err := s.elicitRound(t.req, qs)
				if back == nil {
					return answers, err
				}
				t.back <- back
				select {
				case t = <-w.turns:
				case <-ctx.Done():
					return nil, context.Cause(ctx)
				}
				if ctx.Err() != nil {
					if replied(t.req) {
						s.dropped(context.WithoutCancel(ctx), t.req)
					}
					return nil, context.Cause(ctx)
				}
			}
		})
	}
	beside := !roundTrips(req) || !replied(req)
	return &ask.Way{Name: ask.WayForm, BesideInbox: beside, Open: func(context.Context) (*ask.Opened, error) {
		return &ask.Opened{Prompter: form}, nil
	}}
}

// replied reports whether the call req carries a reply to askuser's form.
func replied(req *mcp.CallToolRequest) bool {
	_, ok := req.Params.InputResponses[formID]
	return ok
}

// dropped tells the person, on stderr and in the client's log, that the
// reply to the form that the call req carries came after the questions
// were answered another way (in the inbox), and is dropped.
func (s *Server) dropped(ctx context.Context, req *mcp.CallToolRequest) {
	s.tell(ctx, req, "The questions were answered another way (in the inbox) before the MCP client sent the form's reply, which is dropped.")
}

// formID names the form among a call's input requests.
const formID = "askuser"

// elicitRound asks through a client that fills in forms between calls:
// the first call hands back the form, a result that asks the client to
// fill it in and call again (not an answer yet, nor an error), and the
// call made again with the person's reply returns the answers, or hands
// back the form again with what to put right. The call carries the
// questions again, and the first form's request state when it was sent,
// so that a reply is taken even by a server that kept nothing of the form.
func (s *Server) elicitRound(req *mcp.CallToolRequest, qs []schema.Question) (answers []prompt.Answer, back *mcp.CallToolResult, err error) {
	version := req.ProtocolVersion()
	reply, ok := req.Params.InputResponses[formID]
	if !ok {
		// The request state says when the form was sent: the client hands
		// it back with the reply, and the server keeps nothing.
		return nil, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{formID: elicit.Form(qs, version)},
			RequestState: time.Now().Format(time.RFC3339Nano)}, nil
	}
	res, ok := reply.(*mcp.ElicitResult)
	if !ok {
		return nil, nil, &elicit.ClientError{Msg: fmt.Sprintf("a %T", reply)}
	}
	// Only the first form carries when it was sent (see elicit.Prompter).
	if sent, err := time.Parse(time.RFC3339Nano, req.Params.RequestState); err == nil {
		if err := elicit.Unattended(res, time.Since(sent), s.opts.Quickest); err != nil {
			return nil, nil, err
		}
	}
	answers, again, err := elicit.Outcome(qs, version, res)
	if again != nil {
		return nil, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{formID: again}}, nil
	}
	return answers, nil, err
}

// newestBeforeRoundTrips is the newest protocol version in which a server
// sends requests of its own (elicitation) while serving a call; from the
// next, it returns them to the client in the call's result.
const newestBeforeRoundTrips = "2025-11-25"

// roundTrips reports whether the client takes the form in the call's
// result rather than as a request of the server's, as the SDK decides.
func roundTrips(req *mcp.CallToolRequest) bool {
	p := req.Session.InitializeParams()
	return p == nil || p.ProtocolVersion > newestBeforeRoundTrips
}

// declaresElicitation reports whether the client can fill in forms.
func declaresElicitation(req *mcp.CallToolRequest) bool {
	caps := req.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	// A client that names neither mode means forms, from before there were
	// others.
	e := caps.Elicitation
	return e.Form != nil || e.URL == nil
}

// notice tells the person where to answer: on stderr, as the way of asking
// does itself, and in the client's log.
func (s *Server) notice(ctx context.Context, req *mcp.CallToolRequest, text string) {
	// Log messages are deprecated from protocol 2026-07-28 on, and still
	// what clients show; the notice only helps, the way of asking says it
	// too.
	_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "notice", Logger: "askuser", Data: text}) //nolint:staticcheck // see above
}

// tell tells the person text on stderr and in the client's log, where no
// way of asking says it itself.
func (s *Server) tell(ctx context.Context, req *mcp.CallToolRequest, text string) {
	_, _ = fmt.Fprintf(s.opts.Log, "askuser mcp: %s\n", text)
	s.notice(ctx, req, text)
}

// Why a call stopped waiting other than for an answer. Their text is what
// a web page shows when its questions are withdrawn.
var (
	errClientCancelled = errors.New("the MCP client cancelled the request")
	errClientGone      = errors.New("the MCP client went away")
	errStopped         = errors.New("askuser mcp stopped")
)

// toolError returns the result of a call that got no answers: what happened,
// and what to do next, worded for the model.
func toolError(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: toolText(err)}}}
}

// toolText words the outcomes that are the MCP client's and the call's
// own, and has the engine word the others (see ask.ToolErrorText).
func toolText(err error) string {
	client, fromClient := errors.AsType[*elicit.ClientError](err)
	nobody, askedNobody := errors.AsType[*prompt.NobodyError](err)
	switch {
	case errors.Is(err, elicit.ErrDeclined):
		return "Error: The person declined to answer." + ask.DontAskAgain
	case fromClient:
		return fmt.Sprintf("Error: %s; no answers were taken from it.", prompt.Capitalize(client.Error()))
	case askedNobody:
		// The client's form asked nobody, and no way came after it.
		return fmt.Sprintf("Error: %s. Tell the person, who can run askuser mcp with --ui web.", prompt.Capitalize(nobody.Error()))
	case withdrawn(err):
		return fmt.Sprintf("Error: %s, and the questions were withdrawn.", prompt.Capitalize(err.Error()))
	}
	return ask.ToolErrorText(err)
}

// withdrawn reports whether err ended a call's questions from the
// client's side or the server's: the client cancelled the call or went, or
// the server stopped.
func withdrawn(err error) bool {
	return errors.Is(err, errClientCancelled) || errors.Is(err, errClientGone) || errors.Is(err, errStopped)
}
