//go:build heavy

package agents

import (
	"path/filepath"
	"testing"
)

// codex is Codex, run as codex exec, with the mock as its model provider.
var codex = cli{
	name:    "Codex",
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

[model_providers.mock]
name = "mock"
base_url = "` + r.api + `/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
`
		if r.path == mcpPath {
			config += "\n[mcp_servers.askuser]\ncommand = \"askuser\"\nargs = [\"mcp\"]\nenv_vars = [\"ASKUSER_INBOX\"]\n"
		}
		writeFile(t, filepath.Join(codexHome, "config.toml"), config)
		r.env = append(r.env, "CODEX_HOME="+codexHome, "MOCK_API_KEY=mock")
		return []string{bin("codex"), "exec", "--skip-git-repo-check", prompt}
	},
}
