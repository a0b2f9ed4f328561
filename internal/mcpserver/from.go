package mcpserver

import (
	"os"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

// maxFromClient is how long the client's name may be, in characters, in
// where a call's questions come from: it leaves room for the directory
// within inbox.MaxFrom.
const maxFromClient = 60

// callFrom returns where the call req comes from: see clientFrom.
func callFrom(req *mcp.CallToolRequest) string {
	cwd, _ := os.Getwd()
	home, _ := os.UserHomeDir()
	return clientFrom(req.ClientInfo(), cwd, home)
}

// clientFrom returns where a call's questions come from, in the inbox, when
// --from and ASKUSER_FROM are empty: the MCP client as it names itself, and
// the directory it started the server in ("claude-code via MCP in
// ~/src/api"), which tells one project's agent from another's. It is ""
// (the inbox then shows the directory) when the client gave no name.
func clientFrom(client *mcp.Implementation, cwd, home string) string {
	if client == nil {
		return ""
	}
	name := client.Title
	if strings.TrimSpace(name) == "" {
		name = client.Name
	}
	// The inbox shows what it is given, escaped; it refuses only what is
	// not text.
	name = strings.Join(strings.Fields(strings.ToValidUTF8(strings.ReplaceAll(name, "\x00", ""), "")), " ")
	if name == "" {
		return ""
	}
	from := prompt.Cut(name, maxFromClient) + " via MCP"
	if cwd == "" || cwd == "/" || !utf8.ValidString(cwd) {
		return from
	}
	cwd = prompt.ShortHome(cwd, home)
	if utf8.RuneCountInString(from)+len(" in ")+utf8.RuneCountInString(cwd) > inbox.MaxFrom {
		return from
	}
	return from + " in " + cwd
}
