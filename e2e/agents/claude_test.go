//go:build heavy

package agents

import (
	"testing"
)

// claude is Claude Code, the program bundled in the Agent SDK, run as
// claude -p. Its shell tool is Bash; MCP tools are mcp__SERVER__TOOL.
var claude = cli{
	name:    "Claude Code",
	api:     anthropicAPI,
	mcpTool: "mcp__askuser__askuser",
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
		claudeBin := bin("../@anthropic-ai/claude-agent-sdk-linux-x64/claude")
		args := []string{claudeBin, "-p", prompt, "--output-format", "text"}
		switch r.path {
		case shellPath:
			args = append(args, "--allowedTools", "Bash(askuser:*)")
		case mcpPath:
			args = append(args, "--mcp-config", `{"mcpServers":{"askuser":{"command":"askuser","args":["mcp"]}}}`, "--allowedTools", "mcp__askuser__askuser")
		}
		return args
	},
}
