//go:build heavy

package agents

import (
	"testing"
)

// claude is Claude Code, the program bundled in the Agent SDK, run as
// claude -p. Its shell tool is Bash; MCP tools are mcp__SERVER__TOOL.
var claude = cli{
	name:    "Claude Code",
	command: "claude",
	pkg:     "@anthropic-ai/claude-agent-sdk",
	modes: map[mode]string{
		defaultMode: "`claude -p --allowedTools` the tool",
		readmeMode:  "the same, and `ASKUSER_UI=inbox` for the shell",
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
			"ANTHROPIC_API_KEY=sk-ant-mock",
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
		return args
	},
}
