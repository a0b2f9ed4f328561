package ask

// UI is how questions are asked: the value of --ui. Whether a way draws
// on the screen for it is UseScreen's to say, beside askOn (place.go),
// which asks by it.
type UI string

// The ways --ui names: auto chooses among them (see Place), the
// others force one.
const (
	UIAuto UI = "auto"
	UITUI  UI = "tui"
	UILine UI = "line"
	// UIWeb is never picked by auto on the command line: it opens a port,
	// which only the caller can decide to do.
	UIWeb UI = "web"
	// UIInbox asks in the inbox (askuser inbox). Auto picks it where no
	// person could answer at stdin and an inbox answers.
	UIInbox UI = "inbox"
	// UIElicit asks only through a client's own way of reaching the person
	// (askuser mcp: the MCP client's forms).
	UIElicit UI = "elicit"
)
