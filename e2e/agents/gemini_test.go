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
	command: "gemini",
	pkg:     "@google/gemini-cli",
	modes: map[mode]string{
		defaultMode: "`gemini -p`",
		readmeMode:  "the policy that allows `askuser`, and `ASKUSER_UI=inbox` for the shell",
	},
	shellResult: "<untrusted_context>\nOutput: " + waiting + "\n" + answers + "\nProcess Group PGID: $PGID\n</untrusted_context>",
	mcpResult:   "<untrusted_context>\n" + answers + "\n</untrusted_context>",
	// Ajv's strict mode warns of a schema keyword without its type.
	noise:   []string{"strict mode:"},
	varying: map[string]string{`Process Group PGID: [0-9]+`: "Process Group PGID: $$PGID"},
	api:     geminiAPI,
	mcpTool: "mcp_askuser_askuser",
	// Gemini CLI adds wait_for_previous to every tool's schema, and models
	// fill it in.
	mcpExtra: map[string]any{"wait_for_previous": false},
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
			settings["mcpServers"] = snippetJSON(t, "gemini")["mcpServers"]
		}
		if r.mode == readmeMode && r.path.shell() {
			writeFile(t, filepath.Join(r.home, ".gemini", "policies", "askuser.toml"), snippet(t, "gemini-shell"))
		}
		b, _ := json.MarshalIndent(settings, "", "  ")
		writeFile(t, filepath.Join(r.home, ".gemini", "settings.json"), string(b))
		r.env = append(r.env, "GEMINI_API_KEY=mock", "GOOGLE_GEMINI_BASE_URL="+r.api)
		// --skip-trust: the project is new, and headless runs cannot ask
		// whether to trust it.
		return []string{"gemini", "--skip-trust", "-p", prompt}
	},
}
