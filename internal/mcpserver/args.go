package mcpserver

// clientArgs are the arguments that MCP clients add to every tool's
// arguments for their own use, and that a call may carry: askuser mcp takes
// them and ignores them, whatever their value. The command line, which no
// client fills in, refuses them as it refuses every unknown member.
var clientArgs = []string{
	"wait_for_previous", // Gemini CLI: whether to wait for the calls before it
}
