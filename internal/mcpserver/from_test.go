package mcpserver

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/inbox"
)

// In the inbox, a call's questions say which client asked, and from which
// directory, in a form the inbox accepts.
func TestClientFrom(t *testing.T) {
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
		got := clientFrom(tc.client, tc.cwd, tc.home)
		if got != tc.want {
			t.Errorf("clientFrom(%+v, %q, %q) = %q, want %q", tc.client, tc.cwd, tc.home, got, tc.want)
		}
		if n := len([]rune(got)); n > inbox.MaxFrom {
			t.Errorf("clientFrom(%+v, %q, %q) is %d characters long", tc.client, tc.cwd, tc.home, n)
		}
	}
}
