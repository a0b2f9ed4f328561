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
	c := openCodeLike("OpenCode", "opencode", "opencode-ai", "@opencode-ai/plugin", filepath.Join(".config", "opencode", "opencode.json"), "OPENCODE_")
	c.modes[interactiveMode] = "`opencode --prompt`"
	c.session = &session{at: map[path]place{shellPath: atInbox, stdinPath: atInbox, mcpPath: atInbox}}
	return c
}()

// kilo is Kilo Code's CLI, a fork of OpenCode that keeps its
// configuration's shape under its own names, and runs OpenCode's plugins.
// The suite runs it on its own MCP configuration, its own questions and
// the past time limits; its other cells of the matrix are OpenCode's. Its
// telemetry, on by default, holds up every run trying to reach its server.
var kilo = func() cli {
	c := openCodeLike("Kilo Code", "kilo", "@kilocode/cli", "@kilocode/plugin", filepath.Join(".config", "kilo", "kilo.json"), "KILO_", "KILO_TELEMETRY_LEVEL=off")
	c.modes[interactiveMode] = "`kilo --prompt`"
	c.session = &session{at: map[path]place{shellPath: atInbox, stdinPath: atInbox, mcpPath: atInbox}}
	c.forkOf = &opencode
	return c
}()

// openCodeLike is OpenCode or a fork of it: its program, npm package, the
// npm package of its plugins, configuration file (under HOME), the prefix
// of its variables, and more variables of its own.
func openCodeLike(name, command, pkg, plugin, config, prefix string, env ...string) cli {
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
			// It installs the package of its plugins into its
			// configuration's directory from npm, and its interactive
			// session waits for that: this machine has no network. The
			// lock file says the package is there.
			dir := filepath.Dir(filepath.Join(r.home, config))
			writeFile(t, filepath.Join(dir, "node_modules", ".keep"), "")
			writeFile(t, filepath.Join(dir, "package-lock.json"), `{"packages":{"":{"dependencies":{"`+plugin+`":"*"}}}}`)
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
