//go:build heavy

package agents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// notRun is an agent tool that the suite cannot run against a scripted
// model: its npm package, why, in the matrix, and the version that was
// tried when the package is not installed.
type notRun struct {
	name, pkg, why string
	tried          string
}

// version is the version tried, as the matrix gives it.
func (n notRun) version() string {
	v := n.tried
	if v == "" {
		v = packageVersion(n.pkg)
	}
	return "`" + n.pkg + "` " + v
}

// notRunnable are those tools, in the matrix's order.
var notRunnable = []notRun{
	{
		name: "Crush",
		pkg:  "@charmland/crush",
		// Not in package.json: its install fails here.
		tried: "0.96.1",
		why: "not run here: the npm package downloads the program from GitHub when it installs, which this machine cannot reach, " +
			"and the Go module proxy refuses `github.com/charmbracelet/crush`; README's line for its `crushrc` has the shape of Crush's documentation",
	},
	{
		name: "Auggie",
		pkg:  "@augmentcode/auggie",
		why: "not run: it cannot be pointed at a local model API (every run needs an Augment account, " +
			"and its model calls go to Augment's own service); README's command, run as written, writes the `mcpServers` entry of its documentation",
	},
}

// packageVersion is the version of an installed npm package.
func packageVersion(pkg string) string {
	var p struct{ Version string }
	b, err := os.ReadFile(filepath.Join(cacheDir, "node_modules", pkg, "package.json"))
	if err != nil || json.Unmarshal(b, &p) != nil {
		return "(version unknown)"
	}
	return p.Version
}

// The snippets of the tools the suite cannot run have the shape of their
// documentation: Cursor's mcpServers (command and args), VS Code's servers
// (type stdio, command and args), a line of Crush's crushrc (mcp add with
// --command and --args); all start askuser mcp. Auggie's command is run as
// written, and must write its documented settings.
func TestUnrunSnippets(t *testing.T) {
	server := map[string]any{"command": "askuser", "args": []any{"mcp"}}
	if got := snippetJSON(t, "cursor"); !reflect.DeepEqual(got, map[string]any{"mcpServers": map[string]any{"askuser": server}}) {
		t.Errorf("Cursor's mcp.json: %v", got)
	}
	server["type"] = "stdio"
	if got := snippetJSON(t, "vscode"); !reflect.DeepEqual(got, map[string]any{"servers": map[string]any{"askuser": server}}) {
		t.Errorf("VS Code's mcp.json: %v", got)
	}
	if got := strings.Fields(snippet(t, "crush")); !reflect.DeepEqual(got, strings.Fields("mcp add askuser --command askuser --args mcp")) {
		t.Errorf("Crush's crushrc: %q", got)
	}

	r := newRun(t, defaultMode, mcpPath)
	r.env = baseEnv(r.home)
	shell(t, r, snippet(t, "auggie"))
	var settings map[string]any
	b, err := os.ReadFile(filepath.Join(r.home, ".augment", "settings.json"))
	if err != nil {
		t.Fatalf("auggie mcp add wrote no settings: %v", err)
	}
	if err := json.Unmarshal(b, &settings); err != nil {
		t.Fatalf("Auggie's settings.json: %v\n%s", err, b)
	}
	server["env"] = map[string]any{}
	if want := map[string]any{"askuser": server}; !reflect.DeepEqual(settings["mcpServers"], want) {
		t.Errorf("auggie mcp add wrote the servers %v, want %v", settings["mcpServers"], want)
	}
}
