//go:build heavy

package agents

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// qwen is Qwen Code, run as qwen -p, with the mock as its
// OpenAI-compatible provider. Its shell tool is run_shell_command; MCP
// tools are mcp__SERVER__TOOL.
var qwen = cli{
	name:    "Qwen Code",
	command: "qwen",
	pkg:     "@qwen-code/qwen-code",
	modes: map[mode]string{
		defaultMode: "`qwen -p`",
		readmeMode:  "the permission that allows `askuser`, and `ASKUSER_UI=inbox` for the shell",
	},
	// Qwen Code gives the command's stdout, then its stderr.
	shellResult: "Command: $COMMAND\nDirectory: (root)\nOutput: " + answers + "\n" + waiting + "\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: (none)",
	mcpResult:   answers,
	varying:     map[string]string{`(?m)^Command: .*$`: "Command: $$COMMAND"},
	api:         chatAPI,
	mcpTool:     "mcp__askuser__askuser",
	deferred:    true,
	// Headless runs do not register it at all.
	questionTool: "ask_user_question",
	shellCall: func(command string) toolCall {
		return toolCall{Name: "run_shell_command", Args: map[string]any{"command": command, "description": "Ask the person"}}
	},
	setup: func(t *testing.T, r *runCtx) []string {
		settings := map[string]any{
			"general":  map[string]any{"enableAutoUpdate": false},
			"privacy":  map[string]any{"usageStatisticsEnabled": false},
			"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}},
			"model":    map[string]any{"name": "mock-model"},
		}
		if r.path == mcpPath {
			settings["mcpServers"] = snippetJSON(t, "qwen")["mcpServers"]
		}
		if r.readmeShell() {
			settings["permissions"] = snippetJSON(t, "qwen-shell")["permissions"]
		}
		b, _ := json.MarshalIndent(settings, "", "  ")
		writeFile(t, filepath.Join(r.home, ".qwen", "settings.json"), string(b))
		r.env = append(r.env, "OPENAI_API_KEY=mock", "OPENAI_BASE_URL="+r.api+"/v1", "OPENAI_MODEL=mock-model")
		return []string{"qwen", "-p", prompt}
	},
}
