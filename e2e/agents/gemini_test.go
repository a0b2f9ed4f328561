//go:build heavy

package agents

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// gemini is Gemini CLI, run as gemini -p with an API key, against the mock
// through GOOGLE_GEMINI_BASE_URL. Its shell tool is run_shell_command; MCP
// tools keep their own names.
var gemini = cli{
	name:    "Gemini CLI",
	api:     geminiAPI,
	mcpTool: "mcp_askuser_askuser",
	shellCall: func(command string) toolCall {
		return toolCall{Name: "run_shell_command", Args: map[string]any{"command": command, "description": "Ask the person"}}
	},
	setup: func(t *testing.T, r *runCtx) []string {
		settings := map[string]any{
			"general":  map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
			"privacy":  map[string]any{"usageStatisticsEnabled": false},
			"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		}
		if r.path == mcpPath {
			settings["mcpServers"] = map[string]any{"askuser": map[string]any{"command": "askuser", "args": []string{"mcp"}, "trust": true}}
		}
		if r.mode == readmeMode && r.path == shellPath {
			writeFile(t, filepath.Join(r.home, ".gemini", "policies", "askuser.toml"), "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"askuser\"\ndecision = \"allow\"\npriority = 100\n")
		}
		b, _ := json.MarshalIndent(settings, "", "  ")
		writeFile(t, filepath.Join(r.home, ".gemini", "settings.json"), string(b))
		r.env = append(r.env, "GEMINI_API_KEY=mock", "GOOGLE_GEMINI_BASE_URL="+r.api)
		return []string{bin("gemini"), "--skip-trust", "-p", prompt}
	},
}
