//go:build heavy

package agents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// apiKey is the key Claude Code sends the mock.
const apiKey = "sk-ant-mock"

// claude is Claude Code, the program bundled in the Agent SDK, run as
// claude -p. Its shell tool is Bash; MCP tools are mcp__SERVER__TOOL.
var claude = cli{
	name:    "Claude Code",
	command: "claude",
	pkg:     "@anthropic-ai/claude-agent-sdk",
	modes: map[mode]string{
		defaultMode:     "`claude -p --allowedTools` the tool",
		readmeMode:      "the same, and `ASKUSER_UI=inbox` for the shell",
		interactiveMode: "`claude`, asking before each tool (`defaultMode` `default`)",
	},
	session: &session{
		approve: []keys{
			{shows: "Do you want to proceed?", send: []string{"Enter"}},
			// Offered after a call the person approved, by Claude Code
			// from 2.1.332 on some days: the person keeps asking before
			// each tool, as the session was set up.
			{shows: "Make auto mode your default permission mode?", send: []string{"Down", "Enter"}},
		},
		// Right opens the choices, Space takes the one under the cursor,
		// and Accept is below the field for the person's own answer.
		form: keys{shows: "requests your input", send: []string{"Right", "Down", "Space", "Down", "Down", "Enter"}},
		at:   map[path]place{shellPath: atInbox, stdinPath: atInbox, mcpPath: atForm},
	},
	shellResult: waiting + "\n" + answers,
	mcpResult:   answers,
	api:         anthropicAPI,
	mcpTool:     "mcp__askuser__askuser",
	shellCall: func(command string) toolCall {
		return toolCall{Name: "Bash", Args: map[string]any{"command": command, "description": "Ask the person"}}
	},
	setup: func(t *testing.T, r *runCtx) []string {
		r.env = append(r.env,
			"ANTHROPIC_BASE_URL="+r.api,
			"ANTHROPIC_API_KEY="+apiKey,
			// No update checks, telemetry or error reports: the mock is
			// the only address it may reach.
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
			"DISABLE_AUTOUPDATER=1",
		)
		// claude -p runs no tool that is not allowed.
		args := []string{"claude", "-p", prompt, "--output-format", "text", "--allowedTools", "Bash(askuser:*)"}
		if r.path == mcpPath {
			shell(t, r, snippet(t, "claude"))
			args[len(args)-1] = "mcp__askuser__askuser"
		}
		if r.mode == interactiveMode {
			claudeOnboarded(t, r)
			args = []string{"claude", prompt}
		}
		return args
	},
}

// claudeOnboarded marks Claude Code's first run as done, as a person's
// first session leaves it: its welcome (which checks its servers), the
// trust of the project, the API key approved. Its permission mode is
// default, which asks before each tool: auto mode, the default, checks
// each call with Anthropic's servers, which the mock is not.
func claudeOnboarded(t *testing.T, r *runCtx) {
	t.Helper()
	name := filepath.Join(r.home, ".claude.json")
	state := map[string]any{}
	if b, err := os.ReadFile(name); err == nil {
		if err := json.Unmarshal(b, &state); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	state["hasCompletedOnboarding"] = true
	state["projects"] = map[string]any{r.dir: map[string]any{"hasTrustDialogAccepted": true}}
	state["customApiKeyResponses"] = map[string]any{"approved": []string{apiKey}, "rejected": []string{}}
	b, _ := json.Marshal(state)
	writeFile(t, name, string(b))
	writeFile(t, filepath.Join(r.home, ".claude", "settings.json"), `{"permissions":{"defaultMode":"default"}}`)
}
