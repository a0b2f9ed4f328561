package mcpserver

import "encoding/json"

// clientArgs are the arguments that MCP clients add to every tool's
// arguments for their own use, and that a call may carry: askuser mcp takes
// them and ignores them, whatever their value. The command line, which no
// client fills in, refuses them as it refuses every unknown member.
var clientArgs = []string{
	"wait_for_previous", // Gemini CLI: whether to wait for the calls before it
}

// withoutClientArgs returns a call's arguments without clientArgs. Arguments
// that hold none, or are not a JSON object, are returned as they are, for
// the schema to judge.
func withoutClientArgs(args []byte) []byte {
	var top map[string]json.RawMessage
	if json.Unmarshal(args, &top) != nil {
		return args
	}
	n := len(top)
	for _, k := range clientArgs {
		delete(top, k)
	}
	if len(top) == n {
		return args
	}
	// The values were read as JSON: they are written as they were.
	out, _ := json.Marshal(top)
	return out
}
