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
		defaultMode:     "`qwen -p`",
		readmeMode:      "the permission that allows `askuser`, and `ASKUSER_UI=inbox` for the shell",
		interactiveMode: "`qwen -i`, with README's permission for the shell",
	},
	session: &session{
		approve: []keys{{shows: "Allow execution of", send: []string{"1"}}},
		// A command runs in a terminal inside its screen, which shows
		// its last lines: Ctrl+F moves the keyboard into it.
		terminal: "Enter or 1-2 choose",
		focus:    keys{send: []string{"C-f"}, shows: "(Focused)"},
		at:       map[path]place{shellPath: atTerminal, stdinPath: atInbox, mcpPath: atInbox},
		// The command's terminal holds its stderr and its stdout both:
		// askuser's summary, then the answers.
		results: map[path]string{
			shellPath: "Command: $COMMAND\nDirectory: (root)\nOutput: ✔ Database: SQLite\n" + answers + "\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: $PGID",
			stdinPath: "Command: $COMMAND\nDirectory: (root)\nOutput: " + waiting + "\n" + answers + "\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: $PGID",
		},
	},
	// Qwen Code gives the command's stdout, then its stderr.
	shellResult: "Command: $COMMAND\nDirectory: (root)\nOutput: " + answers + "\n" + waiting + "\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: (none)",
	mcpResult:   answers,
	varying:     map[string]string{`(?m)^Command: .*$`: "Command: $$COMMAND", `Process Group PGID: [0-9]+`: "Process Group PGID: $$PGID"},
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
		if r.mode == interactiveMode {
			// The person trusted the project on their first run.
			writeFile(t, filepath.Join(r.home, ".qwen", "trustedFolders.json"), `{"`+r.dir+`": "TRUST_FOLDER"}`)
			return []string{"qwen", "-i", prompt}
		}
		return []string{"qwen", "-p", prompt}
	},
}
