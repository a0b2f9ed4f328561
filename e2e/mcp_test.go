package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/testutil"
)

// The tests of askuser mcp start the built askuser as an MCP server and
// talk to it with the official SDK's own client over stdio, as an MCP
// client application would. The reference TypeScript client's test is in
// mcp_node_test.go.

// mcpClient is how the test's client presents itself.
type mcpClient struct {
	// elicit, when set, fills in forms: the client declares elicitation.
	elicit func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)
	// version is the protocol version the client asks for; "" for the
	// SDK's newest, in which forms travel in the call's result.
	version string
	// env is added to askuser's environment.
	env []string
	// name is the client's name ("e2e" when empty), and dir the
	// directory it starts askuser mcp in (the test's when empty).
	name, dir string
}

// The protocol versions a client of forms may speak: one in which the
// server sends the form as a request of its own, and the newest, in which
// it hands the form back in the call's result.
var elicitVersions = []struct{ name, version string }{
	{"requests", "2025-11-25"},
	{"round trips", ""},
}

// mcpEnv is askuser mcp's environment in the tests, with more.
func mcpEnv(more ...string) []string {
	env := append(os.Environ(), "ASKUSER_TIMEOUT=", "ASKUSER_ANSWERS=", "ASKUSER_UI=", "ASKUSER_FROM=",
		// A race-enabled askuser sleeps a second before exiting by default.
		"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	return append(env, more...)
}

// mcpRun is a running askuser mcp with a client connected.
type mcpRun struct {
	cs     *mcp.ClientSession
	cmd    *exec.Cmd
	stderr *testutil.Buffer
	// opened is the file that $BROWSER writes each address it opens to.
	opened string
	// logs receives the client log messages the server sends.
	logs chan string
}

// startMCP starts askuser mcp with args and connects c to it.
func startMCP(t *testing.T, c mcpClient, args ...string) *mcpRun {
	t.Helper()
	dir := t.TempDir()
	r := &mcpRun{stderr: &testutil.Buffer{}, opened: filepath.Join(dir, "opened"), logs: make(chan string, 16)}
	browser := filepath.Join(dir, "browser")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\necho \"$1\" >> "+r.opened+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.cmd = exec.Command(askuserPath(t), append([]string{"mcp"}, args...)...)
	r.cmd.Env = mcpEnv(append([]string{"BROWSER=" + browser}, c.env...)...)
	r.cmd.Dir = c.dir
	r.cmd.Stderr = r.stderr
	opts := &mcp.ClientOptions{
		ElicitationHandler: c.elicit,
		//nolint:staticcheck // the server's log messages, deprecated from 2026-07-28 on, are still sent
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			if s, ok := req.Params.Data.(string); ok {
				select {
				case r.logs <- s:
				default:
				}
			}
		},
	}
	name := c.name
	if name == "" {
		name = "e2e"
	}
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: r.cmd, TerminateDuration: 5 * time.Second}, &mcp.ClientSessionOptions{ProtocolVersion: c.version})
	if err != nil {
		t.Fatalf("connect to askuser mcp: %v; stderr:\n%s", err, r.stderr)
	}
	r.cs = cs
	t.Cleanup(func() {
		// Closing waits for the calls under way, which a failed test may
		// leave waiting for a person.
		closed := make(chan struct{})
		go func() {
			cs.Close()
			close(closed)
		}()
		select {
		case <-closed:
		case <-time.After(5 * time.Second):
			r.cmd.Process.Kill()
			<-closed
		}
	})
	return r
}

// call calls the tool with args, a questions document.
func (r *mcpRun) call(t *testing.T, ctx context.Context, args string) (*mcp.CallToolResult, error) {
	t.Helper()
	// A client of the newest protocol says with every request which log
	// messages it wants; older ones set a level once, or leave it to the
	// server.
	meta := mcp.Meta{mcp.MetaKeyLogLevel: "info"} //nolint:staticcheck // as in startMCP
	return r.cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: "askuser", Arguments: json.RawMessage(args)})
}

// outcome is what a call made in the background returned.
type outcome struct {
	res *mcp.CallToolResult
	err error
}

// start calls the tool with args in the background.
func (r *mcpRun) start(t *testing.T, ctx context.Context, args string) <-chan outcome {
	t.Helper()
	ch := make(chan outcome, 1)
	go func() {
		res, err := r.call(t, ctx, args)
		ch <- outcome{res, err}
	}()
	return ch
}

// wait waits for a call made in the background.
func wait(t *testing.T, ch <-chan outcome) (*mcp.CallToolResult, error) {
	t.Helper()
	select {
	case o := <-ch:
		return o.res, o.err
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not return within 10s")
		return nil, nil
	}
}

// answered checks that res is the answers want, a line of askuser's
// output, as text and as structured content.
func answered(t *testing.T, res *mcp.CallToolResult, err error, want string) {
	t.Helper()
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	if res.IsError {
		t.Fatalf("call failed: %s", resultText(res))
	}
	if got := resultText(res); got != want {
		t.Errorf("text %s, want %s", got, want)
	}
	got, _ := json.Marshal(res.StructuredContent)
	var g, w any
	_ = json.Unmarshal(got, &g)
	_ = json.Unmarshal([]byte(want), &w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("structured content %s, want %s", got, want)
	}
}

// failed checks that res is a tool error and returns its text.
func failed(t *testing.T, res *mcp.CallToolResult, err error) string {
	t.Helper()
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	if !res.IsError {
		t.Fatalf("call succeeded: %s", resultText(res))
	}
	if res.StructuredContent != nil {
		t.Errorf("a failed call has structured content: %v", res.StructuredContent)
	}
	return resultText(res)
}

func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// run runs the built askuser with args and returns its stdout and stderr.
func runAskuser(t *testing.T, env []string, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(askuserPath(t), args...)
	cmd.Env = mcpEnv(env...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run()
	return stdout.String(), stderr.String()
}

// The tool listed is the one "askuser tool --format mcp" prints, and its
// input schema is "askuser schema", whatever the limits and the name.
func TestMCPListsTheTool(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{"default", nil, nil},
		{"name and limits", []string{"ASK_MAX_OPTIONS=6", "ASK_HEADER_MAX_LENGTH=20"}, []string{"--name", "ask_user"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := startMCP(t, mcpClient{env: tc.env}, tc.args...)
			res, err := r.cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			// The tools are listed by name: approve, for Claude Code's
			// permission prompts, comes first.
			if len(res.Tools) != 2 || res.Tools[0].Name != "approve" {
				t.Fatalf("%d tools, the first %q; want approve and askuser's", len(res.Tools), res.Tools[0].Name)
			}
			listed := res.Tools[1]
			// A model reads approve's description too (askuser's is
			// TestToolDefinitions'), and calls it without flags.
			if flag := regexp.MustCompile(`--[a-z]+`).FindString(res.Tools[0].Description); flag != "" {
				t.Errorf("approve's description names the flag %s, which a model cannot give", flag)
			}

			def, stderr := runAskuser(t, tc.env, append([]string{"tool", "--format", "mcp"}, tc.args...)...)
			var want struct {
				Name, Title, Description string
				InputSchema              any
				Annotations              *mcp.ToolAnnotations
			}
			if err := json.Unmarshal([]byte(def), &want); err != nil {
				t.Fatalf("askuser tool --format mcp: %v\n%s%s", err, def, stderr)
			}
			if listed.Name != want.Name || listed.Title != want.Title || listed.Description != want.Description {
				t.Errorf("listed %q %q, description:\n%s\nwant %q %q, description:\n%s", listed.Name, listed.Title, listed.Description, want.Name, want.Title, want.Description)
			}
			if !reflect.DeepEqual(listed.InputSchema, want.InputSchema) {
				t.Error("the input schema differs from askuser tool --format mcp's")
			}
			// Asking changes nothing and reaches nothing but the person:
			// clients (codex exec) may run such a tool without approval.
			no := false
			wantHints := &mcp.ToolAnnotations{Title: "Ask the user", ReadOnlyHint: true, DestructiveHint: &no, OpenWorldHint: &no}
			if !reflect.DeepEqual(listed.Annotations, wantHints) || !reflect.DeepEqual(want.Annotations, wantHints) {
				t.Errorf("annotations: listed %+v, askuser tool %+v, want %+v", listed.Annotations, want.Annotations, wantHints)
			}
			approveHints := &mcp.ToolAnnotations{Title: "Ask the user to approve a tool call", ReadOnlyHint: true, DestructiveHint: &no, OpenWorldHint: &no}
			if !reflect.DeepEqual(res.Tools[0].Annotations, approveHints) {
				t.Errorf("approve's annotations: %+v, want %+v", res.Tools[0].Annotations, approveHints)
			}

			schemaText, stderr := runAskuser(t, tc.env, "schema")
			var sch map[string]any
			if err := json.Unmarshal([]byte(schemaText), &sch); err != nil {
				t.Fatalf("askuser schema: %v\n%s", err, stderr)
			}
			delete(sch, "$schema") // a tool's schema is not a document of its own
			// The "not blank" pattern is advertised as one that every
			// client keeps intact; the calls are checked with the full one.
			text := sch["$defs"].(map[string]any)["text"].(map[string]any)
			text["pattern"] = `\S`
			text["$comment"] = listed.InputSchema.(map[string]any)["$defs"].(map[string]any)["text"].(map[string]any)["$comment"]
			if !reflect.DeepEqual(listed.InputSchema, any(sch)) {
				got, _ := json.MarshalIndent(listed.InputSchema, "", "  ")
				t.Errorf("the input schema is not askuser schema's:\n%s", got)
			}
		})
	}
}

// Every kind of question, answered in the client's own form: a choice,
// several choices, text, and the person's own answer.
func TestMCPElicitation(t *testing.T) {
	questions := formQuestions
	for _, v := range elicitVersions {
		t.Run(v.name, func(t *testing.T) {
			var forms []*mcp.ElicitParams
			r := startMCP(t, mcpClient{version: v.version, elicit: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				forms = append(forms, req.Params)
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{
					"q1_pick": "SQLite", "q2_pick": []any{"Export", "Login"}, "q3_text": "OrderList", "q4_other": "Mars",
				}}, nil
			}})
			res, err := r.call(t, context.Background(), questions)
			answered(t, res, err, `{"answers":{"Database":"SQLite","Features":"Login, Export","Name":"OrderList","Region":"Mars"}}`)
			if len(forms) != 1 {
				t.Fatalf("%d forms, want 1", len(forms))
			}
			var form struct {
				Properties map[string]struct {
					Type, Title, Description string
					OneOf                    []struct{ Const, Title string }
					Items                    *struct {
						AnyOf []struct{ Const, Title string }
					}
				}
				Required []string
			}
			b, _ := json.Marshal(forms[0].RequestedSchema)
			if err := json.Unmarshal(b, &form); err != nil {
				t.Fatal(err)
			}
			p := form.Properties
			if q := p["q1_pick"]; q.Type != "string" || len(q.OneOf) != 2 || q.OneOf[1].Const != "SQLite" || q.Title != "Database" ||
				!strings.Contains(q.Description, "Which database should we use?") || !strings.Contains(q.Description, "CREATE TABLE t ();") {
				t.Errorf("single-select field: %+v", q)
			}
			if q := p["q2_pick"]; q.Type != "array" || q.Items == nil || len(q.Items.AnyOf) != 3 || q.Items.AnyOf[2].Const != "Export" {
				t.Errorf("multi-select field: %+v", q)
			}
			if q := p["q3_text"]; q.Type != "string" || !strings.Contains(q.Description, "UserCard") || !reflect.DeepEqual(form.Required, []string{"q3_text"}) {
				t.Errorf("text field: %+v; required %v", q, form.Required)
			}
			for _, name := range []string{"q1_other", "q2_other", "q4_other"} {
				if p[name].Type != "string" {
					t.Errorf("no own-answer field %s: %v", name, p)
				}
			}
			if _, ok := p["q3_other"]; ok {
				t.Error("a text question has an own-answer field")
			}
		})
	}
}

// personsPace is longer than the soonest a person can decline or cancel a
// form (a second): a client that replies sooner could not show it.
const personsPace = 1200 * time.Millisecond

// Decline and cancel, at a person's pace, give no answers, and tell the
// model not to ask again at once.
func TestMCPElicitationDeclineAndCancel(t *testing.T) {
	for _, v := range elicitVersions {
		t.Run(v.name, func(t *testing.T) {
			action := "decline"
			r := startMCP(t, mcpClient{version: v.version, elicit: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				time.Sleep(personsPace)
				return &mcp.ElicitResult{Action: action}, nil
			}})
			res, err := r.call(t, context.Background(), oneQuestion)
			if got, want := failed(t, res, err), "Error: The person declined to answer. Do not ask again at once: carry on with what you know, or stop and say what you need."; got != want {
				t.Errorf("decline: %q, want %q", got, want)
			}
			action = "cancel"
			res, err = r.call(t, context.Background(), oneQuestion)
			if got, want := failed(t, res, err), "Error: Cancelled: the person closed the questions without answering. Do not ask again at once: carry on with what you know, or stop and say what you need."; got != want {
				t.Errorf("cancel: %q, want %q", got, want)
			}
		})
	}
}

// A form the person can put right is sent again, saying what to put right
// and keeping what was fine.
func TestMCPElicitationAsksAgain(t *testing.T) {
	for _, v := range elicitVersions {
		t.Run(v.name, func(t *testing.T) {
			var forms []*mcp.ElicitParams
			r := startMCP(t, mcpClient{version: v.version, elicit: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				forms = append(forms, req.Params)
				if len(forms) == 1 {
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_pick": "SQLite", "q1_other": "MySQL", "q2_pick": []any{"Search"}}}, nil
				}
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_other": "MySQL", "q2_pick": []any{"Search"}}}, nil
			}})
			res, err := r.call(t, context.Background(), twoQuestions)
			answered(t, res, err, `{"answers":{"Database":"MySQL","Features":"Search"}}`)
			if len(forms) != 2 {
				t.Fatalf("%d forms, want 2", len(forms))
			}
			if want := "Please check your answers:\n- Database: Choose an option or type your own answer, not both.\n\n"; !strings.HasPrefix(forms[1].Message, want) {
				t.Errorf("the second form says %q, want it to start %q", forms[1].Message, want)
			}
			b, _ := json.Marshal(forms[1].RequestedSchema)
			if !strings.Contains(string(b), `"default":["Search"]`) || strings.Contains(string(b), `"default":"SQLite"`) {
				t.Errorf("the second form does not keep only what was fine: %s", b)
			}
		})
	}
}

// An invalid call is refused as the command line refuses it, with every
// problem, and nothing is asked.
func TestMCPInvalidCall(t *testing.T) {
	const bad = `{"questions":[{"question":"Which database?","header":"A header far too long","options":[{"label":"SQLite","description":"Embedded"}],"multiselect":false}]}`
	asked := false
	r := startMCP(t, mcpClient{elicit: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = true
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}})
	res, err := r.call(t, context.Background(), bad)
	got := failed(t, res, err)
	_, want := runAskuser(t, nil, "validate", bad)
	if got+"\n" != want {
		t.Errorf("tool error:\n%s\nwant askuser validate's:\n%s", got, want)
	}
	if !strings.Contains(got, "- questions[0].multiselect: unknown field; did you mean \"multiSelect\"?") {
		t.Errorf("the error does not list every problem:\n%s", got)
	}
	res, err = r.call(t, context.Background(), `["Which database?"]`)
	got = failed(t, res, err)
	if _, want := runAskuser(t, nil, "validate", `["Which database?"]`); got+"\n" != want {
		t.Errorf("arguments that are not an object: %q, want askuser validate's %q", got, want)
	}
	if asked {
		t.Error("an invalid call was asked")
	}
}

// Answers known in advance, in the call or in ASKUSER_ANSWERS, are not
// asked, and --key keys the answers.
func TestMCPKnownAnswersAndKey(t *testing.T) {
	var asked []string
	r := startMCP(t, mcpClient{
		env: []string{`ASKUSER_ANSWERS={"Features":"export, tags"}`},
		elicit: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_pick": "SQLite"}}, nil
		},
	}, "--key", "question")
	res, err := r.call(t, context.Background(), twoQuestions)
	answered(t, res, err, `{"answers":{"Which database should we use?":"SQLite","Which features should the first release have?":"Export, tags"}}`)
	if len(asked) != 1 || asked[0] != "Which database should we use?" {
		t.Errorf("asked %q, want only the database question", asked)
	}
	res, err = r.call(t, context.Background(), strings.Replace(twoQuestions, `{"questions"`, `{"answers":{"Database":"mongodb"},"questions"`, 1))
	answered(t, res, err, `{"answers":{"Which database should we use?":"MongoDB","Which features should the first release have?":"Export, tags"}}`)
	if len(asked) != 1 {
		t.Errorf("asked again, though every answer was known")
	}
}

// Arguments that clients add to every tool's for their own use (Gemini
// CLI's wait_for_previous) are taken and ignored; any other unknown
// argument is refused as the command line refuses it.
func TestMCPClientArguments(t *testing.T) {
	r := startMCP(t, mcpClient{})
	known := strings.Replace(oneQuestion, `{"questions"`, `{"answers":{"Database":"SQLite"},"questions"`, 1)
	for _, v := range []string{"true", "false"} {
		res, err := r.call(t, context.Background(), strings.Replace(known, `{"answers"`, `{"wait_for_previous":`+v+`,"answers"`, 1))
		answered(t, res, err, `{"answers":{"Database":"SQLite"}}`)
	}
	other := strings.Replace(known, `{"answers"`, `{"wait_for_later":true,"answers"`, 1)
	res, err := r.call(t, context.Background(), other)
	got := failed(t, res, err)
	if _, want := runAskuser(t, nil, "validate", other); got+"\n" != want || !strings.Contains(got, "wait_for_later") {
		t.Errorf("an unknown argument: %q, want askuser validate's %q", got, want)
	}
}

// A call's output follows the command's: notes the input gave come back
// in "annotations", and --arrays writes multi-select answers as arrays.
func TestMCPNotesAndArrays(t *testing.T) {
	r := startMCP(t, mcpClient{
		elicit: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_pick": "SQLite"}}, nil
		},
	}, "--arrays")
	in := strings.Replace(twoQuestions, `{"questions"`,
		`{"answers":{"Features":"export, tags"},"annotations":{"Which database should we use?":{"notes":"it must run offline"}},"questions"`, 1)
	res, err := r.call(t, context.Background(), in)
	answered(t, res, err, `{"answers":{"Database":"SQLite","Features":["Export","tags"]},"annotations":{"Database":{"notes":"it must run offline"}}}`)
}

// --ui elicit refuses a client without forms; --ui web asks on the page
// even a client with them.
func TestMCPUIChoice(t *testing.T) {
	r := startMCP(t, mcpClient{}, "--ui", "elicit")
	res, err := r.call(t, context.Background(), oneQuestion)
	if got := failed(t, res, err); !strings.Contains(got, "did not declare elicitation") || !strings.Contains(got, "--ui elicit") {
		t.Errorf("--ui elicit without elicitation: %q", got)
	}

	r = startMCP(t, mcpClient{elicit: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		t.Error("--ui web asked through the client")
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}}, "--ui", "web")
	call := r.start(t, context.Background(), oneQuestion)
	page := r.page(t)
	wantCode(t, "answer", page.do(t, "POST", page.at(t, "/answer"), "q0=2", page.sameOrigin(t)), http.StatusOK)
	res, err = wait(t, call)
	answered(t, res, err, `{"answers":{"Database":"SQLite"}}`)
}

// page waits for the address of the next web page the server opens: it is
// sent to the client's log, printed on stderr and opened in the browser.
// The notices of questions asked in the inbox before, and of forms the
// client could not show, are passed over.
func (r *mcpRun) page(t *testing.T) *webRun {
	t.Helper()
	var u string
	timeout := time.After(10 * time.Second)
	for u == "" {
		select {
		case msg := <-r.logs:
			if addr, ok := strings.CutPrefix(msg, "Answer in your browser: "); ok {
				u = addr
			} else if !strings.HasPrefix(msg, "Waiting for an answer in the inbox ") && !strings.HasPrefix(msg, "The MCP client could not show the form: ") {
				t.Fatalf("log message %q", msg)
			}
		case <-timeout:
			t.Fatalf("no page address in the client's log; stderr:\n%s", r.stderr)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, _ := os.ReadFile(r.opened)
		opened := strings.Contains(string(b), u+"\n")
		printed := strings.Contains(r.stderr.String(), "Answer in your browser: "+u+"\n")
		if opened && printed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the browser did not open %s, or stderr does not give it; it opened:\n%s\nstderr:\n%s", u, b, r.stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return &webRun{url: u}
}

// sameOrigin sets the page's own Origin on a request, as a browser does.
func (r *webRun) sameOrigin(t *testing.T) func(*http.Request) {
	host := r.host(t)
	return func(req *http.Request) { req.Header.Set("Origin", "http://"+host) }
}

// A client without forms gets the web page, answered over HTTP.
func TestMCPWebPage(t *testing.T) {
	for _, v := range elicitVersions {
		t.Run(v.name, func(t *testing.T) {
			r := startMCP(t, mcpClient{version: v.version})
			call := r.start(t, context.Background(), twoQuestions)
			page := r.page(t)
			got := page.do(t, "GET", page.url, "", nil)
			wantCode(t, "page", got, http.StatusOK)
			if !strings.Contains(got.body, "Which features should the first release have?") {
				t.Errorf("the page does not ask the questions:\n%s", got.body)
			}
			wantCode(t, "answer", page.do(t, "POST", page.at(t, "/answer"), "q0=2&q1=1&q1=3&q1=0&q1-other=Tags", page.sameOrigin(t)), http.StatusOK)
			res, err := wait(t, call)
			answered(t, res, err, `{"answers":{"Database":"SQLite","Features":"Login, Export, Tags"}}`)
		})
	}
}

// Two calls at once each get their own answers, through forms and on web
// pages.
func TestMCPTwoCallsAtOnce(t *testing.T) {
	colour := `{"questions":[{"question":"Which colour?","header":"Colour","multiSelect":false,
	  "options":[{"label":"Red","description":"Warm"},{"label":"Blue","description":"Cool"}]}]}`
	for _, v := range elicitVersions {
		t.Run("forms, "+v.name, func(t *testing.T) {
			var arrived sync.WaitGroup
			arrived.Add(2)
			r := startMCP(t, mcpClient{version: v.version, elicit: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				// Both forms are out before either is answered.
				arrived.Done()
				arrived.Wait()
				if strings.Contains(req.Params.Message, "colour") {
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_pick": "Blue"}}, nil
				}
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_pick": "SQLite"}}, nil
			}})
			colourCall := r.start(t, context.Background(), colour)
			databaseCall := r.start(t, context.Background(), oneQuestion)
			res, err := wait(t, colourCall)
			answered(t, res, err, `{"answers":{"Colour":"Blue"}}`)
			res, err = wait(t, databaseCall)
			answered(t, res, err, `{"answers":{"Database":"SQLite"}}`)
		})
	}
	t.Run("web pages", func(t *testing.T) {
		r := startMCP(t, mcpClient{})
		colourCall := r.start(t, context.Background(), colour)
		databaseCall := r.start(t, context.Background(), oneQuestion)
		pages := []*webRun{r.page(t), r.page(t)}
		if pages[0].url == pages[1].url {
			t.Fatalf("both calls on one page: %s", pages[0].url)
		}
		// Each page shows its own questions; both are answered with their
		// first option.
		for _, p := range pages {
			got := p.do(t, "GET", p.url, "", nil)
			if strings.Contains(got.body, "Which colour?") == strings.Contains(got.body, "Which database should we use?") {
				t.Errorf("a page does not show one call's questions:\n%s", got.body)
			}
			wantCode(t, "answer", p.do(t, "POST", p.at(t, "/answer"), "q0=1", p.sameOrigin(t)), http.StatusOK)
		}
		res, err := wait(t, colourCall)
		answered(t, res, err, `{"answers":{"Colour":"Red"}}`)
		res, err = wait(t, databaseCall)
		answered(t, res, err, `{"answers":{"Database":"PostgreSQL (Recommended)"}}`)
	})
}

// A request the client cancels withdraws its question: the page says so at
// once, and a form the client shows is cancelled.
func TestMCPClientCancels(t *testing.T) {
	t.Run("web page", func(t *testing.T) {
		r := startMCP(t, mcpClient{})
		ctx, cancel := context.WithCancel(context.Background())
		call := r.start(t, ctx, oneQuestion)
		page := r.page(t)
		waited := make(chan webResponse, 1)
		go func() { waited <- page.do(t, "GET", page.at(t, "/wait"), "", nil) }()
		time.Sleep(100 * time.Millisecond) // the page is waiting
		cancel()
		if _, err := wait(t, call); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled call: %v", err)
		}
		select {
		case got := <-waited:
			if !strings.Contains(got.body, "Question withdrawn") || !strings.Contains(got.body, "the MCP client cancelled the request") {
				t.Errorf("the waiting page does not learn that the question was withdrawn:\n%s", got.body)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the waiting page was not told within 5s")
		}
		// The server goes on serving.
		res, err := r.call(t, context.Background(), strings.Replace(oneQuestion, `{"questions"`, `{"answers":{"Database":"SQLite"},"questions"`, 1))
		answered(t, res, err, `{"answers":{"Database":"SQLite"}}`)
	})
	t.Run("form", func(t *testing.T) {
		withdrawn := make(chan struct{})
		shown := make(chan struct{})
		r := startMCP(t, mcpClient{version: "2025-11-25", elicit: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			close(shown)
			select {
			case <-ctx.Done():
				close(withdrawn)
			case <-time.After(10 * time.Second):
			}
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}})
		ctx, cancel := context.WithCancel(context.Background())
		call := r.start(t, ctx, oneQuestion)
		<-shown
		cancel()
		wait(t, call)
		select {
		case <-withdrawn:
		case <-time.After(5 * time.Second):
			t.Fatal("the form was not withdrawn from the client within 5s")
		}
	})
}

// --timeout (or ASKUSER_TIMEOUT) ends a call that nobody answers, and
// withdraws its question.
func TestMCPTimeout(t *testing.T) {
	const want = "Error: Timed out after 1s: nobody answered in time. Do not ask again at once: carry on with what you know, or stop and say what you need."
	t.Run("web page", func(t *testing.T) {
		r := startMCP(t, mcpClient{}, "--timeout", "1s")
		call := r.start(t, context.Background(), oneQuestion)
		page := r.page(t)
		got := page.do(t, "GET", page.at(t, "/wait"), "", nil)
		if !strings.Contains(got.body, "Question withdrawn") || !strings.Contains(got.body, "timed out after 1s") {
			t.Errorf("the waiting page does not learn that the question was withdrawn:\n%s", got.body)
		}
		res, err := wait(t, call)
		if got := failed(t, res, err); got != want {
			t.Errorf("tool error %q, want %q", got, want)
		}
	})
	t.Run("form", func(t *testing.T) {
		withdrawn := make(chan struct{})
		r := startMCP(t, mcpClient{version: "2025-11-25", env: []string{"ASKUSER_TIMEOUT=1s"}, elicit: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			select {
			case <-ctx.Done():
				close(withdrawn)
			case <-time.After(10 * time.Second):
			}
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}})
		res, err := r.call(t, context.Background(), oneQuestion)
		if got := failed(t, res, err); got != want {
			t.Errorf("tool error %q, want %q", got, want)
		}
		select {
		case <-withdrawn:
		case <-time.After(5 * time.Second):
			t.Fatal("the form was not withdrawn from the client within 5s")
		}
	})
}

// lineChecker passes on what it reads, and records every line that is not
// a JSON-RPC 2.0 message.
type lineChecker struct {
	r       io.Reader
	mu      sync.Mutex
	partial []byte
	bad     []string
}

func (c *lineChecker) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.partial = append(c.partial, p[:n]...)
	for {
		i := bytes.IndexByte(c.partial, '\n')
		if i < 0 {
			break
		}
		line := c.partial[:i]
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if json.Unmarshal(line, &msg) != nil || msg.JSONRPC != "2.0" {
			c.bad = append(c.bad, string(line))
		}
		c.partial = c.partial[i+1:]
	}
	if err != nil && len(c.partial) > 0 {
		c.bad = append(c.bad, string(c.partial))
		c.partial = nil
	}
	return n, err
}

func (c *lineChecker) Close() error { return nil }

// startPiped starts cmd with pipes to its stdin and from its stdout, and
// its stderr kept.
func startPiped(t *testing.T, cmd *exec.Cmd) (io.WriteCloser, io.ReadCloser, *testutil.Buffer, *process) {
	t.Helper()
	stderr := &testutil.Buffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	return stdin, stdout, stderr, startProcess(t, cmd, (*exec.Cmd).Start)
}

// Stdout carries the protocol and nothing else, whichever way the person
// is asked, and the server ends, exit 0, when the client closes its input.
func TestMCPStdoutCarriesOnlyTheProtocol(t *testing.T) {
	for _, ui := range []string{"auto", "web"} {
		t.Run(ui, func(t *testing.T) {
			cmd := exec.Command(askuserPath(t), "mcp", "--ui", ui)
			dir := t.TempDir()
			browser := filepath.Join(dir, "browser")
			if err := os.WriteFile(browser, []byte("#!/bin/sh\necho opening \"$1\"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd.Env = mcpEnv("BROWSER=" + browser)
			stdin, stdout, stderr, p := startPiped(t, cmd)
			checker := &lineChecker{r: stdout}
			logs := make(chan string, 4)
			client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_pick": "SQLite"}}, nil
				},
				//nolint:staticcheck // as in startMCP
				LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
					logs <- req.Params.Data.(string)
				},
			})
			cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: checker, Writer: stdin}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				t.Fatal(err)
			}
			r := &mcpRun{cs: cs, cmd: cmd, stderr: stderr, logs: logs}
			call := r.start(t, context.Background(), oneQuestion)
			if ui == "web" {
				msg := <-logs
				page := &webRun{url: strings.TrimPrefix(msg, "Answer in your browser: ")}
				wantCode(t, "answer", page.do(t, "POST", page.at(t, "/answer"), "q0=2", page.sameOrigin(t)), http.StatusOK)
			}
			res, err := wait(t, call)
			answered(t, res, err, `{"answers":{"Database":"SQLite"}}`)
			res, err = r.call(t, context.Background(), `{"questions":[]}`)
			failed(t, res, err)

			cs.Close()
			select {
			case <-p.done:
			case <-time.After(10 * time.Second):
				t.Fatalf("askuser mcp still running 10s after its input closed; stderr:\n%s", stderr)
			}
			if p.code() != 0 {
				t.Errorf("exit %d, want 0; stderr:\n%s", p.code(), stderr)
			}
			checker.mu.Lock()
			defer checker.mu.Unlock()
			if len(checker.bad) > 0 {
				t.Errorf("stdout carries more than the protocol:\n%s", strings.Join(checker.bad, "\n"))
			}
		})
	}
}

// A signal ends the server: the questions under way are withdrawn, their
// calls told so, and the exit code is the signal's.
func TestMCPStopsOnSignal(t *testing.T) {
	r := startMCP(t, mcpClient{})
	call := r.start(t, context.Background(), oneQuestion)
	page := r.page(t)
	waited := make(chan webResponse, 1)
	go func() { waited <- page.do(t, "GET", page.at(t, "/wait"), "", nil) }()
	time.Sleep(100 * time.Millisecond) // the page is waiting
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if got := <-waited; !strings.Contains(got.body, "Question withdrawn") || !strings.Contains(got.body, "askuser mcp stopped") {
		t.Errorf("the waiting page does not learn that the question was withdrawn:\n%s", got.body)
	}
	res, err := wait(t, call)
	if got, want := failed(t, res, err), "Error: Askuser mcp stopped, and the questions were withdrawn."; got != want {
		t.Errorf("tool error %q, want %q", got, want)
	}
	r.cs.Close()
	if code := r.cmd.ProcessState.ExitCode(); code != 143 {
		t.Errorf("exit %d, want 143; stderr:\n%s", code, r.stderr)
	}
}

// A client that goes away (its end of stdin closed, as when it crashes)
// withdraws the questions it was waiting for, and the server ends, exit 0.
func TestMCPClientGoesAway(t *testing.T) {
	cmd := exec.Command(askuserPath(t), "mcp")
	cmd.Env = mcpEnv("BROWSER=true")
	stderr := &testutil.Buffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := startProcess(t, cmd, (*exec.Cmd).Start)
	call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
		"params": map[string]any{"name": "askuser", "arguments": json.RawMessage(oneQuestion)}})
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+string(call)+"\n")
	deadline := time.Now().Add(10 * time.Second)
	var page *webRun
	for page == nil {
		if m := addressLine.FindStringSubmatch(stderr.String()); m != nil {
			page = &webRun{url: m[1]}
		} else if time.Now().After(deadline) {
			t.Fatalf("no page address on stderr:\n%s", stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	waited := make(chan webResponse, 1)
	go func() { waited <- page.do(t, "GET", page.at(t, "/wait"), "", nil) }()
	time.Sleep(100 * time.Millisecond) // the page is waiting
	stdin.Close()
	if got := <-waited; !strings.Contains(got.body, "Question withdrawn") || !strings.Contains(got.body, "the MCP client went away") {
		t.Errorf("the waiting page does not learn that the question was withdrawn:\n%s", got.body)
	}
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		t.Fatalf("askuser mcp still running 5s after its client went; stderr:\n%s", stderr)
	}
	if p.code() != 0 {
		t.Errorf("exit %d, want 0; stderr:\n%s", p.code(), stderr)
	}
}

// A client that declines a form at once has asked nothing: with no inbox
// running, the call is asked on the web page, and the model gets the
// person's answer, not "declined".
func TestMCPInstantDeclineAsksOnThePage(t *testing.T) {
	for _, v := range elicitVersions {
		t.Run(v.name, func(t *testing.T) {
			r := startMCP(t, mcpClient{version: v.version, env: []string{"ASKUSER_INBOX=" + filepath.Join(t.TempDir(), "none.sock")},
				elicit: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "decline"}, nil
				}})
			r.answeredOnPage(t)
		})
	}
}

// printed reports whether askuser mcp's stderr matches re within 5 s.
// stderr is copied from a pipe: a line written before the question left
// may still be on its way when the answer is back.
func (r *mcpRun) printed(re *regexp.Regexp) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if re.MatchString(r.stderr.String()) {
			return true
		}
	}
	return re.MatchString(r.stderr.String())
}

// answeredOnPage calls the tool with oneQuestion, and checks that it is
// asked on the web page and answered there.
func (r *mcpRun) answeredOnPage(t *testing.T) {
	t.Helper()
	call := r.start(t, context.Background(), oneQuestion)
	page := r.page(t)
	wantCode(t, "answer", page.do(t, "POST", page.at(t, "/answer"), "q0=2", page.sameOrigin(t)), http.StatusOK)
	res, err := wait(t, call)
	answered(t, res, err, `{"answers":{"Database":"SQLite"}}`)
}

// A client that declares forms but fails to show one has asked nothing:
// auto goes on to the web page, and --ui elicit says what went wrong.
func TestMCPFormFails(t *testing.T) {
	cannot := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return nil, errors.New("forms are not shown here")
	}
	r := startMCP(t, mcpClient{version: "2025-11-25", elicit: cannot})
	r.answeredOnPage(t)
	if !regexp.MustCompile(`(?m)^askuser mcp: The MCP client could not show the form: .*forms are not shown here\. Asking another way\.$`).MatchString(r.stderr.String()) {
		t.Errorf("stderr does not say why the page was opened:\n%s", r.stderr)
	}

	r = startMCP(t, mcpClient{version: "2025-11-25", elicit: cannot}, "--ui", "elicit")
	res, err := r.call(t, context.Background(), oneQuestion)
	if got := failed(t, res, err); !strings.HasPrefix(got, "Error: The MCP client could not show the form: ") || !strings.HasSuffix(got, "forms are not shown here. Tell the person, who can run askuser mcp with --ui web.") {
		t.Errorf("tool error %q", got)
	}
}

// askuser mcp survives any line a client writes: each line below is
// answered with an error (or logged and dropped), the ping after it is
// answered, and the call that waited on the web page all along gets its
// answers. A request the client cancelled gets no reply.
func TestMCPSurvivesAnyLine(t *testing.T) {
	cmd := exec.Command(askuserPath(t), "mcp", "--ui", "web")
	cmd.Env = mcpEnv("BROWSER=true")
	stdin, stdout, stderr, p := startPiped(t, cmd)
	replies := make(chan map[string]any, 64)
	go func() {
		dec := json.NewDecoder(stdout)
		for {
			var m map[string]any
			if dec.Decode(&m) != nil {
				close(replies)
				return
			}
			replies <- m
		}
	}()
	// reply reads until the reply to id, and returns it with the replies
	// before it (notifications left out).
	reply := func(id string) (map[string]any, []map[string]any) {
		t.Helper()
		var before []map[string]any
		for {
			select {
			case m, ok := <-replies:
				if !ok {
					t.Fatalf("stdout ended before the reply to %s; stderr:\n%s", id, stderr)
				}
				if got, _ := json.Marshal(m["id"]); string(got) == id && m["method"] == nil {
					return m, before
				}
				if m["method"] == nil { // not the server's notice
					before = append(before, m)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("no reply to %s; stderr:\n%s", id, stderr)
			}
		}
	}
	send := func(line string) {
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatalf("write: %v; stderr:\n%s", err, stderr)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`)
	reply("1")
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "waits", "method": "tools/call",
		"params": map[string]any{"name": "askuser", "arguments": json.RawMessage(oneQuestion)}})
	send(string(call))

	for i, line := range []string{
		`not json`,
		`{}`,
		`[]`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"} trailing`,
		`{"jsonrpc":"2.0","id":{"an":"object"},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"a":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}`,
		`{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"a":"` + strings.Repeat("x", 16<<20) + `"}}`,
	} {
		send(line)
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+i))
		got, before := reply(strconv.Itoa(100 + i))
		if got["error"] != nil {
			t.Errorf("line %d: the ping after it failed: %v", i, got)
		}
		if len(before) != 1 || before[0]["error"] == nil {
			t.Errorf("line %.40q: replies before the ping %v, want one error", line, before)
		}
	}

	// A request reusing the id of the call in flight is refused; one the
	// client cancels gets no reply.
	send(string(call))
	if got, _ := reply(`"waits"`); got["error"] == nil {
		t.Errorf("a second request with the id in flight: %v, want an error", got)
	}
	cancelled := strings.Replace(string(call), `"waits"`, `"cancelled"`, 1)
	send(cancelled)
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"cancelled"}}`)

	var page *webRun
	for deadline := time.Now().Add(10 * time.Second); page == nil; time.Sleep(10 * time.Millisecond) {
		if m := addressLine.FindStringSubmatch(stderr.String()); m != nil {
			page = &webRun{url: m[1]}
		} else if time.Now().After(deadline) {
			t.Fatalf("no page address on stderr:\n%s", stderr)
		}
	}
	wantCode(t, "answer", page.do(t, "POST", page.at(t, "/answer"), "q0=2", page.sameOrigin(t)), http.StatusOK)
	got, before := reply(`"waits"`)
	if !strings.Contains(fmt.Sprint(got["result"]), `{"answers":{"Database":"SQLite"}}`) {
		t.Errorf("the call that waited: %v", got)
	}
	stdin.Close()
	for m := range replies {
		if m["method"] == nil {
			before = append(before, m)
		}
	}
	if len(before) > 0 {
		t.Errorf("more replies (to the cancelled call?): %v", before)
	}
	<-p.done
	if p.code() != 0 {
		t.Errorf("exit %d, want 0; stderr:\n%s", p.code(), stderr)
	}
}
