//go:build heavy

package agents

import (
	"path/filepath"
	"testing"
	"time"
)

// codex is Codex, run as codex exec, with the mock as its model provider.
var codex = cli{
	name:    "Codex",
	command: "codex",
	pkg:     "@openai/codex",
	modes: map[mode]string{
		defaultMode:     "`codex exec` (read-only sandbox, approval never)",
		readmeMode:      "workspace-write with `network_access`, and `ASKUSER_UI=inbox` for the shell",
		interactiveMode: "`codex`, with README's workspace-write and `network_access` for the shell",
	},
	session: &session{
		// The form opens at the first field by name, the person's own
		// answer, which is optional; Ctrl+N moves on to the choice, the
		// last field, where a digit chooses an option and sends the form.
		// A key pressed as the form appears is lost: the person reads
		// first.
		form: keys{shows: "enter to submit", send: []string{"C-n", "2"}, after: time.Second},
		at:   map[path]place{shellPath: atInbox, stdinPath: atInbox, mcpPath: atForm},
	},
	shellResult: "Chunk ID: $ID\nWall time: $T seconds\nProcess exited with code 0\nOriginal token count: $N\nOutput:\n" + waiting + "\n" + answers,
	mcpResult:   "Wall time: $T seconds\nOutput:\n" + answers,
	varying: map[string]string{
		`Chunk ID: \w+`:                "Chunk ID: $$ID",
		`Wall time: [0-9.]+ seconds`:   "Wall time: $$T seconds",
		`Original token count: [0-9]+`: "Original token count: $$N",
	},
	api:     responsesAPI,
	mcpTool: "mcp__askuser/askuser",
	shellCall: func(command string) toolCall {
		return toolCall{Name: "exec_command", Args: map[string]any{"cmd": command}}
	},
	setup: func(t *testing.T, r *runCtx) []string {
		codexHome := filepath.Join(r.home, ".codex")
		config := `model = "mock-model"
model_provider = "mock"
check_for_update_on_startup = false
`
		if r.readmeShell() {
			config += snippet(t, "codex-shell")
		}
		if r.path == mcpPath {
			config += "\n" + snippet(t, "codex")
		}
		config += `
[model_providers.mock]
name = "mock"
base_url = "` + r.api + `/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
`
		args := []string{"codex", "exec", "--skip-git-repo-check", prompt}
		if r.mode == interactiveMode {
			// The person trusted the project on their first run; the
			// session runs in-process, with no background server to
			// outlive it.
			config += "\n[projects.\"" + r.dir + "\"]\ntrust_level = \"trusted\"\n"
			args = []string{"codex", "--no-daemon", prompt}
		}
		writeFile(t, filepath.Join(codexHome, "config.toml"), config)
		r.env = append(r.env, "CODEX_HOME="+codexHome, "MOCK_API_KEY=mock")
		return args
	},
}
