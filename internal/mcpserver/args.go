package mcpserver

import (
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// clientArgs are the arguments that MCP clients add to every tool's
// arguments for their own use, and that a call may carry: askuser mcp takes
// them and ignores them, whatever their value. The command line, which no
// client fills in, refuses them as it refuses every unknown member.
var clientArgs = []string{
	"wait_for_previous", // Gemini CLI: whether to wait for the calls before it
}

// withoutClientArgs returns a call's arguments without clientArgs, each
// member as it was given. Arguments that hold none, or are not a JSON
// object, are returned as they are, for the schema to judge.
func withoutClientArgs(args []byte) []byte {
	for _, k := range clientArgs {
		// Each time the member is given: JSON does not forbid it twice.
		for gjson.GetBytes(args, k).Exists() {
			args, _ = sjson.DeleteBytes(args, k)
		}
	}
	return args
}
