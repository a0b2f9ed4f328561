//go:build heavy

package agents

import (
	"path/filepath"
	"testing"
	"time"
)

// copilot is GitHub Copilot CLI, run as copilot -p, with the mock as its
// own model provider (COPILOT_PROVIDER_BASE_URL, offline: no GitHub
// account). Its shell tool is bash; MCP tools are SERVER-TOOL.
var copilot = cli{
	name:    "Copilot CLI",
	command: "copilot",
	pkg:     "@github/copilot",
	modes: map[mode]string{
		defaultMode:     "`copilot -p`, and `--allow-tool 'shell(askuser)'` for the shell",
		readmeMode:      "the same, and `ASKUSER_UI=inbox` for the shell",
		interactiveMode: "`copilot -i`, approving the command when it asks",
	},
	session: &session{
		approve: []keys{
			{shows: "Do you trust the files in this folder?", send: []string{"1"}},
			{shows: "Do you want to run this command?", send: []string{"1"}},
		},
		// Its form opens on the choice: Down takes the second option,
		// Enter moves on to the field for the person's own answer, and
		// Enter there sends the form.
		form: keys{shows: "askuser needs information", send: []string{"Down", "Enter", "Enter"}, after: time.Second},
		at:   map[path]place{shellPath: atInbox, stdinPath: atInbox, mcpPath: atForm},
	},
	shellResult:  waiting + "\n" + answers + "\n<shellId: $ID completed with exit code 0>",
	varying:      map[string]string{`<shellId: \w+ `: "<shellId: $$ID "},
	mcpResult:    answers,
	api:          chatAPI,
	mcpTool:      "askuser-askuser",
	questionTool: "ask_user",
	shellCall: func(command string) toolCall {
		return toolCall{Name: "bash", Args: map[string]any{"command": command, "description": "Ask the person"}}
	},
	setup: func(t *testing.T, r *runCtx) []string {
		r.env = append(r.env,
			"COPILOT_PROVIDER_BASE_URL="+r.api+"/v1",
			"COPILOT_PROVIDER_API_KEY=mock",
			"COPILOT_MODEL=mock-model",
			"COPILOT_OFFLINE=true",
			"COPILOT_AUTO_UPDATE=false",
			copilotCache(cacheDir),
		)
		// copilot -p refuses a command that is not allowed; it calls
		// askuser's MCP tool as it is.
		if r.path == mcpPath {
			shell(t, r, snippet(t, "copilot"))
		}
		switch {
		case r.mode == interactiveMode:
			return []string{"copilot", "-i", prompt}
		case r.path == mcpPath:
			return []string{"copilot", "-p", prompt}
		}
		return []string{"copilot", "-p", prompt, "--allow-tool", "shell(askuser)"}
	},
}

// copilotCache is where Copilot CLI unpacks itself, the first time it
// runs: in the suite's cache dir, for every run.
func copilotCache(dir string) string {
	return "COPILOT_CACHE_HOME=" + filepath.Join(dir, "copilot")
}
