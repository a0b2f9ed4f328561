//go:build heavy

package agents

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// opencode is OpenCode, run as opencode run, with the mock as an
// OpenAI-compatible provider. Its shell tool is bash; MCP tools are
// SERVER_TOOL.
var opencode = cli{
	name:    "OpenCode",
	command: "opencode",
	pkg:     "opencode-ai",
	modes: map[mode]string{
		defaultMode: "`opencode run`",
		readmeMode:  "the same, and `ASKUSER_UI=inbox` for the shell",
	},
	shellResult:     waiting + "\n" + answers,
	mcpResult:       answers,
	linesInAnyOrder: true,
	api:             chatAPI,
	mcpTool:         "askuser_askuser",
	shellCall: func(command string) toolCall {
		return toolCall{Name: "bash", Args: map[string]any{"command": command, "description": "Ask the person"}}
	},
	setup: func(t *testing.T, r *runCtx) []string {
		config := map[string]any{
			"$schema":    "https://opencode.ai/config.json",
			"autoupdate": false,
			"share":      "disabled",
			"model":      "mock/mock-model",
			"provider": map[string]any{"mock": map[string]any{
				"npm":     "@ai-sdk/openai-compatible",
				"name":    "Mock",
				"options": map[string]any{"baseURL": r.api + "/v1", "apiKey": "mock"},
				"models":  map[string]any{"mock-model": map[string]any{"name": "Mock model", "tool_call": true}},
			}},
		}
		if r.path == mcpPath {
			config["mcp"] = snippetJSON(t, "opencode")["mcp"]
		}
		b, _ := json.MarshalIndent(config, "", "  ")
		writeFile(t, filepath.Join(r.home, ".config", "opencode", "opencode.json"), string(b))
		r.env = append(r.env, "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1",
			"OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1")
		return []string{"opencode", "run", prompt}
	},
}
