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
var opencode = func() cli {
	c := openCodeLike("OpenCode", "opencode", "opencode-ai", filepath.Join(".config", "opencode", "opencode.json"), "OPENCODE_")
	c.modes[interactiveMode] = "`opencode --prompt`"
	c.session = &session{at: map[path]place{shellPath: atInbox, stdinPath: atInbox, mcpPath: atInbox}}
	return c
}()

// kilo is Kilo Code's CLI, a fork of OpenCode that keeps its
// configuration's shape under its own names. Its telemetry, on by
// default, holds up every run trying to reach its server.
var kilo = openCodeLike("Kilo Code", "kilo", "@kilocode/cli", filepath.Join(".config", "kilo", "kilo.json"), "KILO_", "KILO_TELEMETRY_LEVEL=off")

// openCodeLike is OpenCode or a fork of it: its program, npm package,
// configuration file (under HOME), the prefix of its variables, and
// more variables of its own.
func openCodeLike(name, command, pkg, config, prefix string, env ...string) cli {
	return cli{
		name:    name,
		command: command,
		pkg:     pkg,
		modes: map[mode]string{
			defaultMode: "`" + command + " run`",
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
			cfg := map[string]any{
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
				cfg["mcp"] = snippetJSON(t, command)["mcp"]
			}
			b, _ := json.MarshalIndent(cfg, "", "  ")
			writeFile(t, filepath.Join(r.home, config), string(b))
			for _, v := range []string{"DISABLE_MODELS_FETCH", "DISABLE_AUTOUPDATE", "DISABLE_DEFAULT_PLUGINS", "DISABLE_LSP_DOWNLOAD", "DISABLE_SHARE"} {
				r.env = append(r.env, prefix+v+"=1")
			}
			r.env = append(r.env, env...)
			if r.mode == interactiveMode {
				return []string{command, "--prompt", prompt}
			}
			return []string{command, "run", prompt}
		},
	}
}
