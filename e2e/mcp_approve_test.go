package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/testutil"
)

// The approve tool of askuser mcp, called as Claude Code calls its
// permission prompt tool: the person answers in the inbox, and the
// decision comes back as JSON text.

// bashCall is a call to approve, with the tool-use ID id: a command with
// an escape sequence in it, which the inbox must show, not obey.
func bashCall(id string) string {
	return `{"tool_name":"Bash","input":` + bashInput(id) + `,"tool_use_id":"` + id + `"}`
}

// bashInput is the input of bashCall(id).
func bashInput(id string) string {
	return `{"command":"rm -rf build \u001b[2J&& make","description":"Rebuild ` + id + `"}`
}

// approveCall calls approve with args.
func (r *mcpRun) approveCall(t *testing.T, args string) <-chan outcome {
	t.Helper()
	ch := make(chan outcome, 1)
	go func() {
		res, err := r.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "approve", Arguments: json.RawMessage(args)})
		ch <- outcome{res, err}
	}()
	return ch
}

// decided checks that the call returned the decision want, as text.
func decided(t *testing.T, ch <-chan outcome, want string) {
	t.Helper()
	res, err := wait(t, ch)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %v", err, resultText(res))
	}
	if got := resultText(res); got != want {
		t.Errorf("decision %s\nwant %s", got, want)
	}
}

// The inbox shows which tool, from which agent and directory, and what
// the call will do, escaped; Allow returns the input to run, Allow for
// this session a rule for the command's prefix, named in the option, and
// Deny, Other or a note the person's reason.
func TestMCPApprove(t *testing.T) {
	in := startInbox(t)
	r := startMCP(t, inboxClient(t, in, "claude-code"))
	for i, tc := range []struct {
		name  string
		lines []string // what the person types
		want  string   // the decision, $INPUT for the call's
	}{
		{"Allow", []string{"1"}, `{"behavior":"allow","updatedInput":$INPUT}`},
		{"Allow for this session", []string{"3"}, `{"behavior":"allow","updatedInput":$INPUT,` +
			`"updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"go test *"}],"behavior":"allow","destination":"session"}]}`},
		{"Deny", []string{"2"}, `{"behavior":"deny","message":"The person denied this call of Bash, without saying why."}`},
		{"Deny with a note", []string{"n", "not before the release", "2"}, `{"behavior":"deny","message":"The person denied this call of Bash, and said why: not before the release"}`},
		{"Other", []string{"0", "use make clean"}, `{"behavior":"deny","message":"The person denied this call of Bash, and said why: use make clean"}`},
		{"cancelled", []string{"/cancel"}, `{"behavior":"deny","message":"Not allowed, for want of an answer: Cancelled: the person closed the questions without answering.` +
			` Do not ask again at once: carry on with what you know, or stop and say what you need."}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := fmt.Sprintf("toolu_%d", i)
			args, input := bashCall(id), bashInput(id)
			if tc.name == "Allow for this session" {
				input = `{"command":"go test ./...","description":"Rebuild ` + id + `"}`
				args = `{"tool_name":"Bash","input":` + input + `,"tool_use_id":"` + id + `"}`
			}
			call := r.approveCall(t, args)
			in.screen.waitFor(t, "│ description: Rebuild "+id+"\n", 10*time.Second)
			screen := in.screen.String()
			screen = screen[strings.LastIndex(screen, "[1/1] Approve"):]
			switch {
			case tc.name == "Allow for this session":
				if !strings.Contains(screen, "3. Allow for this session\n     Let it run, and every later call that Bash(go test *) covers") {
					t.Errorf("the inbox does not name the rule that Allow for this session adds:\n%s", screen)
				}
			case !strings.Contains(screen, "claude-code via MCP in ~/project asks to use Bash:\nrm -rf build \\x1b[2J&& make\n") ||
				!strings.Contains(screen, "│ command: rm -rf build \\x1b[2J&& make\n     │ description: Rebuild "+id+"\n"):
				t.Errorf("the inbox does not show the command, escaped, and every argument in the preview:\n%s", screen)
			case strings.Contains(screen, "Allow for this session"):
				t.Errorf("Allow for this session is offered for a command of several:\n%s", screen)
			}
			for _, line := range tc.lines {
				in.type_(t, line)
			}
			decided(t, call, strings.ReplaceAll(tc.want, "$INPUT", input))
		})
	}
}

// --timeout denies the call, saying that nobody answered in time.
func TestMCPApproveTimeout(t *testing.T) {
	in := startInbox(t)
	r := startMCP(t, inboxClient(t, in, "claude-code"), "--timeout", "1s")
	decided(t, r.approveCall(t, bashCall("toolu_01")), `{"behavior":"deny","message":"Not allowed, for want of an answer: Timed out after 1s: nobody answered in time.`+
		` Do not ask again at once: carry on with what you know, or stop and say what you need."}`)
}

// A client that declines forms at once, with no inbox running and no
// browser to open the page, hears at once, from both tools, that
// nobody can be reached, and how: askuser inbox, at its address.
func TestMCPNobodyToReach(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "none.sock")
	r := startMCP(t, mcpClient{version: "2025-11-25", env: []string{"ASKUSER_INBOX=" + sock, "BROWSER=" + filepath.Join(t.TempDir(), "no-browser")},
		elicit: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}})
	for _, tool := range []struct{ name, args string }{{"askuser", oneQuestion}, {"approve", bashCall("toolu_01")}} {
		t.Run(tool.name, func(t *testing.T) {
			start := time.Now()
			res, err := r.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool.name, Arguments: json.RawMessage(tool.args)})
			if took := time.Since(start); took > testutil.Slow {
				t.Errorf("the call took %s", took)
			}
			got := failed(t, res, err)
			if !strings.Contains(got, "No way of asking can reach the person (") || !strings.Contains(got, "inbox: no inbox answers at "+sock+"; web: no browser could show the page") ||
				!strings.HasSuffix(got, "Ask the person to run 'askuser inbox' in a terminal they keep in view, then ask again.") {
				t.Errorf("tool error %q", got)
			}
		})
	}
}
