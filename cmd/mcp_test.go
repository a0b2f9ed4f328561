package cmd

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/ask"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// --ui chooses among mcp's own ways; ASKUSER_UI, read as every command
// reads it, chooses when --ui is not given, and its terminal ways count as
// auto.
func TestMCPUI(t *testing.T) {
	for _, tc := range []struct {
		flag    string
		given   bool
		env     string
		want    ask.UI
		wantErr string
	}{
		{given: false, want: ask.UIAuto},
		{flag: "inbox", given: true, want: ask.UIInbox},
		{flag: "elicit", given: true, env: "web", want: ask.UIElicit},
		{flag: "auto", given: true, env: "inbox", want: ask.UIAuto},
		{flag: "tui", given: true, wantErr: `invalid --ui "tui": must be auto, elicit, inbox or web`},
		{env: "inbox", want: ask.UIInbox},
		{env: " web ", want: ask.UIWeb},
		{env: "auto", want: ask.UIAuto},
		{env: "tui", want: ask.UIAuto},
		{env: "line", want: ask.UIAuto},
		{env: "elicit", wantErr: `invalid ASKUSER_UI "elicit": must be auto, tui, line, web or inbox`},
		{env: "popup", wantErr: `invalid ASKUSER_UI "popup": must be auto, tui, line, web or inbox`},
	} {
		env := &Env{Getenv: varsEnv(map[string]string{"ASKUSER_UI": tc.env})}
		got, err := mcpUI(tc.flag, tc.given, env)
		switch {
		case tc.wantErr != "":
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("--ui %q (given %v), ASKUSER_UI %q: %v, want the error %q", tc.flag, tc.given, tc.env, err, tc.wantErr)
			}
		case err != nil || got != tc.want:
			t.Errorf("--ui %q (given %v), ASKUSER_UI %q: %q, %v; want %q", tc.flag, tc.given, tc.env, got, err, tc.want)
		}
	}
}

// In the inbox, a call's questions say which client asked, and from which
// directory, in a form the inbox accepts.
func TestMCPFrom(t *testing.T) {
	long := strings.Repeat("n", 100)
	for _, tc := range []struct {
		client    *mcp.Implementation
		cwd, home string
		want      string
	}{
		{&mcp.Implementation{Name: "claude-code"}, "/home/ann/src/api", "/home/ann", "claude-code via MCP in ~/src/api"},
		{&mcp.Implementation{Name: "claude-code"}, "/home/ann", "/home/ann/", "claude-code via MCP in ~"},
		{&mcp.Implementation{Name: "claude-code"}, "/home/annex/api", "/home/ann", "claude-code via MCP in /home/annex/api"},
		{&mcp.Implementation{Name: "claude-ai", Title: "Claude Desktop"}, "/", "/home/ann", "Claude Desktop via MCP"},
		{&mcp.Implementation{Name: "codex", Title: "  "}, "/srv/app", "/", "codex via MCP in /srv/app"},
		{&mcp.Implementation{Name: "vs\x00code\n  insiders"}, "", "/home/ann", "vscode insiders via MCP"},
		{&mcp.Implementation{Name: long}, "/src", "", strings.Repeat("n", maxFromClient-1) + "… via MCP in /src"},
		{&mcp.Implementation{Name: "c"}, "/" + strings.Repeat("d", 300), "", "c via MCP"},
		{&mcp.Implementation{Name: " "}, "/src", "", ""},
		{nil, "/src", "/home/ann", ""},
	} {
		got := mcpFrom(tc.client, tc.cwd, tc.home)
		if got != tc.want {
			t.Errorf("mcpFrom(%+v, %q, %q) = %q, want %q", tc.client, tc.cwd, tc.home, got, tc.want)
		}
		if n := len([]rune(got)); n > maxFrom {
			t.Errorf("mcpFrom(%+v, %q, %q) is %d characters long", tc.client, tc.cwd, tc.home, n)
		}
	}
}
