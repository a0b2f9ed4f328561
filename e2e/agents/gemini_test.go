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
		defaultMode:     "`gemini -p`",
		readmeMode:      "the policy that allows `askuser`, and `ASKUSER_UI=inbox` for the shell",
		interactiveMode: "`gemini -i`, with README's policy for the shell",
	},
	session: &session{
		approve: []keys{{shows: "Allow execution of", send: []string{"1"}}},
		// Tab moves the keyboard into the command's terminal.
		focus: keys{send: []string{"Tab"}, shows: "to unfocus"},
		at:    map[path]place{shellPath: atTerminal, stdinPath: atInbox, mcpPath: atInbox},
		// The command's terminal holds its stderr and its stdout both:
		// what is left of askuser's screen (the header, in brackets with
		// NO_COLOR), its summary, then the answers.
		results: map[path]string{shellPath: "<untrusted_context>\nOutput: [Database]\n✔ Database: SQLite\n" + answers + "\nProcess Group PGID: $PGID\n</untrusted_context>"},
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
		if r.readmeShell() {
			writeFile(t, filepath.Join(r.home, ".gemini", "policies", "askuser.toml"), snippet(t, "gemini-shell"))
		}
		b, _ := json.MarshalIndent(settings, "", "  ")
		writeFile(t, filepath.Join(r.home, ".gemini", "settings.json"), string(b))
		r.env = append(r.env, "GEMINI_API_KEY=mock", "GOOGLE_GEMINI_BASE_URL="+r.api)
		if r.mode == interactiveMode {
			// The person trusted the project on their first run.
			writeFile(t, filepath.Join(r.home, ".gemini", "trustedFolders.json"), `{"`+r.dir+`": "TRUST_FOLDER"}`)
			return []string{"gemini", "-i", prompt}
		}
		// --skip-trust: the project is new, and headless runs cannot ask
		// whether to trust it.
		return []string{"gemini", "--skip-trust", "-p", prompt}
	},
}
