package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/elicit"
	"github.com/askuser/askuser/schema"
)

// The server's routing, in-process, with ways of asking that the tests
// make up; e2e/mcp_test.go meets the built askuser mcp as clients do.

// askerFunc is a prompt.Prompter.
type askerFunc func(context.Context, []schema.Question) ([]prompt.Answer, error)

func (f askerFunc) Ask(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
	return f(ctx, qs)
}

// way is a way that records that it was opened, and answers with label,
// or is unavailable when label is "".
func way(name, label string, opened *[]string) ask.Way {
	return ask.Way{Name: name, Open: func(context.Context) (*ask.Opened, error) {
		*opened = append(*opened, name)
		if label == "" {
			return nil, &prompt.UnavailableError{Err: fmt.Errorf("no %s here", name)}
		}
		return &ask.Opened{
			Prompter: askerFunc(func(context.Context, []schema.Question) ([]prompt.Answer, error) {
				return []prompt.Answer{{Labels: []string{label}}}, nil
			}),
			Where: "Answer on " + name,
		}, nil
	}}
}

// route is the engine's route of mode for Options, with the inbox and web
// ways given, and a browser that shows the page.
func route(mode ask.UI, inbox, web ask.Way) func(*ask.Way, string) *ask.Route {
	return func(own *ask.Way, _ string) *ask.Route {
		browse := func(string) error { return nil }
		return ask.Place{Inbox: inbox, Web: web, Browse: browse}.Client(ask.Options{Mode: mode}, own)
	}
}

// serve runs a server with o (its Parse, Answers and Tool filled in) and
// connects a client with copts to it.
func serve(t *testing.T, o Options, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return serveVersion(t, o, copts, "2025-11-25")
}

// serveVersion is serve, with a client that asks for protocol version
// ("" for the SDK's newest).
func serveVersion(t *testing.T, o Options, copts *mcp.ClientOptions, version string) *mcp.ClientSession {
	t.Helper()
	complete(&o)
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- New(o).Run(ctx, serverIn, serverOut) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).
		Connect(context.Background(), &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-ran; err != nil {
			t.Errorf("Run: %v", err)
		}
		cs.Close()
	})
	return cs
}

// repoSchema is askuser's schema, which checks every call.
var repoSchema = func() *schema.Schema {
	raw, err := os.ReadFile("../../schema.json")
	if err != nil {
		panic(err)
	}
	sch, err := schema.Compile(raw, schema.Limits{})
	if err != nil {
		panic(err)
	}
	return sch
}()

// questionArgs are the arguments of a call that asks question.
var questionArgs = json.RawMessage(`{"questions":[{"question":"Which database?","header":"Database","multiSelect":false,
	"options":[{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"Embedded"}]}]}`)

// complete fills in what o needs besides its ways: a server of one
// question, which it answers with the label chosen.
func complete(o *Options) {
	o.Implementation = &mcp.Implementation{Name: "askuser", Version: "test"}
	o.Tool = &mcp.Tool{Name: "askuser", InputSchema: json.RawMessage(`{"type":"object"}`)}
	o.Request = ask.Request{Schema: repoSchema, Key: schema.KeyHeader}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

func call(t *testing.T, cs *mcp.ClientSession) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "askuser", Arguments: questionArgs})
	if err != nil {
		t.Fatal(err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// The ways are tried in order, passing over those that cannot reach the
// person now; the one that asks says where, in the client's log.
func TestWaysInOrder(t *testing.T) {
	var opened []string
	logs := make(chan string, 4)
	cs := serve(t, Options{Route: route(ask.UIAuto, way("inbox", "", &opened), way("web", "SQLite", &opened))},
		&mcp.ClientOptions{LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) { //nolint:staticcheck // the notice is a log message
			logs <- r.Params.Data.(string)
		}})
	if text, isErr := call(t, cs); isErr || text != `{"answers":{"Database":"SQLite"}}` {
		t.Errorf("call: %q (error %v)", text, isErr)
	}
	if strings.Join(opened, " ") != "inbox web" {
		t.Errorf("opened %v, want inbox then web", opened)
	}
	select {
	case got := <-logs:
		if got != "Answer on web" {
			t.Errorf("log %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Error("no notice in the client's log")
	}
}

// With no way that can reach the person, the call says why for each.
func TestNoWayReachesThePerson(t *testing.T) {
	var opened []string
	cs := serve(t, Options{Route: route(ask.UIAuto, way("inbox", "", &opened), way("web", "", &opened))}, nil)
	text, isErr := call(t, cs)
	if want := "Error: No way of asking can reach the person (inbox: no inbox here; web: no web here). Tell the person, who can change how askuser mcp is set up."; !isErr || text != want {
		t.Errorf("call: %q, want the error %q", text, want)
	}
}

// With one way and it cannot reach the person, the call says why and what
// the person can do; with several, each way's why and every hint.
func TestNoWayHints(t *testing.T) {
	var opened []string
	inbox := way("inbox", "", &opened)
	inbox.Hint = "Ask the person to start the inbox, then ask again."
	cs := serve(t, Options{Route: route(ask.UIInbox, inbox, way("web", "", &opened))}, nil)
	text, isErr := call(t, cs)
	if want := "Error: No inbox here. Ask the person to start the inbox, then ask again."; !isErr || text != want {
		t.Errorf("one way: %q, want the error %q", text, want)
	}
	cs = serve(t, Options{Route: route(ask.UIAuto, inbox, way("web", "", &opened))}, nil)
	text, isErr = call(t, cs)
	if want := "Error: No way of asking can reach the person (inbox: no inbox here; web: no web here). Ask the person to start the inbox, then ask again."; !isErr || text != want {
		t.Errorf("two ways: %q, want the error %q", text, want)
	}
}

// The route is told which client called, as the client named itself, to
// say in the inbox where the call comes from.
func TestRouteKnowsTheClient(t *testing.T) {
	got := make(chan string, 1)
	var opened []string
	cs := serve(t, Options{Route: func(own *ask.Way, from string) *ask.Route {
		got <- from
		return route(ask.UIAuto, way("inbox", "", &opened), way("web", "", &opened))(own, from)
	}}, nil)
	call(t, cs)
	if from := <-got; !strings.HasPrefix(from, "test via MCP") {
		t.Errorf("the route was told the call comes from %q", from)
	}
}

// A way that goes while the questions wait there (an inbox that quits) is
// a call that got no answer, not a way to pass over: the person could
// have seen the questions.
func TestWayGoesWhileWaiting(t *testing.T) {
	var opened []string
	goes := ask.Way{Name: "inbox", Open: func(context.Context) (*ask.Opened, error) {
		opened = append(opened, "inbox")
		return &ask.Opened{
			Prompter: askerFunc(func(context.Context, []schema.Question) ([]prompt.Answer, error) {
				return nil, &prompt.UnavailableError{Err: errors.New("the inbox at /run/inbox.sock closed before the questions were answered (the person quit the inbox)")}
			}),
		}, nil
	}}
	cs := serve(t, Options{Route: route(ask.UIAuto, goes, way("web", "SQLite", &opened))}, nil)
	text, isErr := call(t, cs)
	if want := "Error: The inbox at /run/inbox.sock closed before the questions were answered (the person quit the inbox). Do not ask again at once: carry on with what you know, or stop and say what you need."; !isErr || text != want {
		t.Errorf("call: %q, want the error %q", text, want)
	}
	if strings.Join(opened, " ") != "inbox" {
		t.Errorf("opened %v, want only the inbox", opened)
	}
}

// --ui inbox asks a client that has forms through the inbox; auto asks it
// through its forms, with the inbox beside them (see TestInboxBesideForm).
func TestElicitation(t *testing.T) {
	elicited := 0
	copts := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		elicited++
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_pick": "PostgreSQL"}}, nil
	}}
	var opened []string
	cs := serve(t, Options{Route: route(ask.UIInbox, way("inbox", "SQLite", &opened), way("web", "MySQL", &opened))}, copts)
	if text, _ := call(t, cs); text != `{"answers":{"Database":"SQLite"}}` || elicited != 0 {
		t.Errorf("--ui inbox: %q, %d forms", text, elicited)
	}
	p := newPerson()
	cs = serve(t, Options{Route: route(ask.UIAuto, p.way(), way("web", "MySQL", &opened))}, copts)
	if text, _ := call(t, cs); text != `{"answers":{"Database":"PostgreSQL"}}` || elicited != 1 {
		t.Errorf("auto: %q, %d forms", text, elicited)
	}
	if len(opened) != 1 || p.sets() != 1 {
		t.Errorf("ways opened: %v, and the inbox %d times", opened, p.sets())
	}
}

// A client that declines or cancels the form sooner than a person could
// read it (a headless client that declares forms and shows none) asked
// the person nothing: the call is asked the next way, and the person is
// told why, in the client's log and on stderr. A decline or cancel at a
// person's pace is the person's. Both as the server's own request and as
// a form handed back in the call's result.
func TestInstantDeclineIsTheClients(t *testing.T) {
	const quickest = 200 * time.Millisecond
	for _, version := range []string{"2025-11-25", ""} {
		for _, action := range []string{"decline", "cancel"} {
			t.Run(version+" "+action, func(t *testing.T) {
				reply := func(delay time.Duration) *mcp.ClientOptions {
					return &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						time.Sleep(delay)
						return &mcp.ElicitResult{Action: action}, nil
					}}
				}
				// The inbox, which asks beside the form, is answered once the
				// form is passed over.
				var opened []string
				log := newPassLog()
				inbox := way("inbox", "SQLite", &opened)
				open := inbox.Open
				inbox.Open = func(ctx context.Context) (*ask.Opened, error) {
					o, err := open(ctx)
					if err == nil {
						answer := o.Prompter
						o.Prompter = askerFunc(func(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
							select {
							case <-log.passed:
								return answer.Ask(ctx, qs)
							case <-ctx.Done():
								return nil, context.Cause(ctx)
							}
						})
					}
					return o, err
				}
				o := Options{Quickest: quickest, Route: route(ask.UIAuto, inbox, way("web", "", &opened)), Log: log}
				logs := make(chan string, 4)
				instant := reply(0)
				instant.LoggingMessageHandler = func(_ context.Context, r *mcp.LoggingMessageRequest) { //nolint:staticcheck // the notice is a log message
					logs <- r.Params.Data.(string)
				}
				cs := serveVersion(t, o, instant, version)
				if text, isErr := call(t, cs); isErr || text != `{"answers":{"Database":"SQLite"}}` {
					t.Errorf("an instant %s: %q (error %v), want the inbox's answer", action, text, isErr)
				}
				if want := "askuser mcp: The MCP client could not show the form: it " + action; !strings.HasPrefix(log.String(), want) || !strings.Contains(log.String(), passedOver) {
					t.Errorf("stderr: %q, want it to start %q", log.String(), want)
				}
				// From 2026-07-28 on, a call sends log messages only at the
				// level the client asks for in it, and this client asks none.
				// Where the inbox beside the form waits comes first there.
				for said := ""; version != "" && !strings.HasPrefix("askuser mcp: "+said+"\n", log.String()); {
					select {
					case said = <-logs:
					case <-time.After(5 * time.Second):
						t.Fatalf("no notice in the client's log says what stderr says, %q", log.String())
					}
				}

				// The person's own decline wins over the inbox beside the
				// form, which is withdrawn.
				p := newPerson()
				cs = serveVersion(t, Options{Quickest: quickest, Route: route(ask.UIAuto, p.way(), way("web", "", &opened))}, reply(quickest+100*time.Millisecond), version)
				want := map[string]string{"decline": "Error: The person declined to answer.", "cancel": "Error: Cancelled: the person closed the questions"}[action]
				if text, isErr := call(t, cs); !isErr || !strings.HasPrefix(text, want) || p.sets() != 1 || len(p.withdrawn) != 1 {
					t.Errorf("a %s at a person's pace: %q, the inbox asked %d times and withdrawn %d; want %q", action, text, p.sets(), len(p.withdrawn), want)
				}
			})
		}
	}
}

// With --ui elicit, an instant decline is no answer, and the model is
// told that the client could not show the form, not that the person
// declined.
func TestInstantDeclineWithFormsOnly(t *testing.T) {
	copts := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}}
	var opened []string
	cs := serve(t, Options{Route: route(ask.UIElicit, way("inbox", "SQLite", &opened), way("web", "MySQL", &opened))}, copts)
	text, isErr := call(t, cs)
	if want := "Error: The MCP client could not show the form: it declined the form "; !isErr || !strings.HasPrefix(text, want) || !strings.HasSuffix(text, "sooner than a person can read it. Tell the person, who can run askuser mcp with --ui web.") {
		t.Errorf("call: %q, want it to start %q", text, want)
	}
}

// The route of askuser mcp, as the server walks it: the client's own
// forms when it declares them, with the inbox beside them when one
// answers, else the inbox when one answers, else the web page; --ui
// elicit, inbox and web keep one way of these.
func TestRoute(t *testing.T) {
	forms := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_pick": "PostgreSQL"}}, nil
	}}
	for _, tc := range []struct {
		rule       string
		mode       ask.UI
		client     *mcp.ClientOptions
		inbox      bool
		want       string // the answer, or the start of the error
		wantProbed []string
	}{
		{"forms declared: the client asks, the inbox beside", ask.UIAuto, forms, true, "PostgreSQL", []string{"inbox"}},
		{"forms declared, no inbox: the client asks alone", ask.UIAuto, forms, false, "PostgreSQL", []string{"inbox"}},
		{"--ui elicit: the forms alone", ask.UIElicit, forms, true, "PostgreSQL", nil},
		{"no forms, an inbox answers: the inbox", ask.UIAuto, nil, true, "SQLite", []string{"inbox"}},
		{"no forms, no inbox: the web page", ask.UIAuto, nil, false, "MySQL", []string{"inbox", "web"}},
		{"--ui inbox: never the forms", ask.UIInbox, forms, true, "SQLite", []string{"inbox"}},
		{"--ui elicit without forms: nobody", ask.UIElicit, nil, true, "Error: The MCP client cannot show questions", nil},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			var probed []string
			probe := func(name string, reaches bool) func(context.Context) error {
				return func(context.Context) error {
					probed = append(probed, name)
					if !reaches {
						return &prompt.UnavailableError{Err: errors.New("no " + name)}
					}
					return nil
				}
			}
			var opened []string
			inbox, web := way("inbox", "SQLite", &opened), way("web", "MySQL", &opened)
			if tc.client != nil && tc.mode == ask.UIAuto {
				// Beside the forms, the person answers in the form.
				inbox = newPerson().way()
			}
			inbox.Reaches, web.Reaches = probe("inbox", tc.inbox), probe("web", true)
			cs := serve(t, Options{Route: route(tc.mode, inbox, web)}, tc.client)
			text, _ := call(t, cs)
			if !strings.Contains(text, tc.want) || strings.Join(probed, " ") != strings.Join(tc.wantProbed, " ") {
				t.Errorf("%q, ways probed %v; want %q, %v", text, probed, tc.want, tc.wantProbed)
			}
		})
	}
}

// What a call tells the model of the outcomes that are the client's and
// the call's own; the engine words the others.
func TestToolText(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{elicit.ErrDeclined, "Error: The person declined to answer. Do not ask again at once"},
		{&elicit.ClientError{Msg: "nothing"}, "Error: The MCP client replied to the form with nothing; no answers were taken from it."},
		{&prompt.NobodyError{Err: errors.New("the MCP client could not show the form: no")}, "Error: The MCP client could not show the form: no. Tell the person, who can run askuser mcp with --ui web."},
		{errClientGone, "Error: The MCP client went away, and the questions were withdrawn."},
		{errStopped, "Error: Askuser mcp stopped, and the questions were withdrawn."},
		{prompt.ErrCancelled, "Error: Cancelled: the person closed the questions without answering."},
	} {
		if got := toolText(tc.err); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%v: %q, want it to start %q", tc.err, got, tc.want)
		}
	}
}

// approve is never asked through the client's forms, which the client
// holds while it waits on the approval: the inbox asks it, and with --ui
// elicit nothing does.
func TestApproveNeverAsksTheForms(t *testing.T) {
	forms := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		t.Error("approve asked through the client's form")
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_pick": "Allow"}}, nil
	}}
	args := json.RawMessage(`{"tool_name":"Bash","input":{"command":"make"}}`)
	for mode, want := range map[ask.UI]string{
		ask.UIAuto:   `{"behavior":"deny","message":"The person denied this call of Bash, without saying why."}`,
		ask.UIElicit: "Error: Approve does not ask through the MCP client's forms, which the client holds until the approval ends, and askuser mcp runs with --ui elicit. Tell the person, who can change how askuser mcp is set up.",
	} {
		var opened []string
		cs := serve(t, Options{Route: route(mode, way("inbox", "Deny", &opened), way("web", "", &opened))}, forms)
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ApproveName, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; got != want {
			t.Errorf("--ui %s: %s, want %s", mode, got, want)
		}
	}
}

// approve allows a call of the server's own tool, as Claude Code names it
// in README's set-up, with askuser's input, without asking: it asks the
// person itself. A tool of another server whose name ends the same, or a
// call with more than questions, is asked about as any other.
func TestApproveOwnTool(t *testing.T) {
	questions := `{"questions":[{"question":"Which database?","header":"Database","multiSelect":false,"options":[{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"Embedded"}]}]}`
	for _, tc := range []struct {
		args, want string
	}{
		{`{"tool_name":"mcp__askuser__askuser","input":` + questions + `}`, `{"behavior":"allow","updatedInput":` + questions + `}`},
		{`{"tool_name":"mcp__shell__exec__askuser","input":{"command":"rm -rf ~","questions":[{"q":1}]}}`, `{"behavior":"deny","message":"The person denied this call of mcp__shell__exec__askuser, without saying why."}`},
		{`{"tool_name":"mcp__askuser__askuser","input":{"command":"rm -rf ~","questions":[{"q":1}]}}`, `{"behavior":"deny","message":"The person denied this call of mcp__askuser__askuser, without saying why."}`},
	} {
		var opened []string
		cs := serve(t, Options{Route: route(ask.UIAuto, way("inbox", "Deny", &opened), way("web", "", &opened))}, nil)
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ApproveName, Arguments: json.RawMessage(tc.args)})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; got != tc.want {
			t.Errorf("%s: %s, want %s", tc.args, got, tc.want)
		}
	}
}
