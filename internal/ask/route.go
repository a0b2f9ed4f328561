package ask

import (
	"context"
	"errors"
)

// A Way is one way of reaching the person, in a Route.
type Way struct {
	// Name names it: "here", "inbox", "terminal", "nobody" on the command
	// line; "elicit", "inbox", "web" in askuser mcp.
	Name string
	// Reaches probes whether this way can reach the person now: nil when
	// it can, else why not. It is called only when the ways before it
	// cannot, so that a way that costs something to probe (the inbox's
	// socket) is probed only when needed.
	Reaches func(ctx context.Context) error
}

// Route is the ways of reaching the person, in the order they are tried:
// the first that reaches the person asks. A way that turns out, once it
// asked, to have asked nobody (line prompts whose input ended before the
// first answer, a form that the MCP client declined sooner than a person
// can read it) hands the questions on to the ways after it.
type Route []Way

// First returns the index of the first way, from the one at index from
// on, that reaches the person, and why each way before it could not, in
// their order.
func (r Route) First(ctx context.Context, from int) (int, []error) {
	var why []error
	for i := from; i < len(r); i++ {
		err := r[i].Reaches(ctx)
		if err == nil {
			return i, why
		}
		why = append(why, err)
	}
	return -1, why
}

// The names of the ways.
const (
	WayElicit   = "elicit"   // askuser mcp: the MCP client's own forms
	WayWeb      = "web"      // askuser mcp: a web page, opened in the browser
	WayHere     = "here"     // the terminal UI or line prompts, on stdin and stderr
	WayInbox    = "inbox"    // askuser inbox
	WayTerminal = "terminal" // the terminal that stdin is (/dev/tty)
	WayNobody   = "nobody"   // no way reaches the person: no answer, said why
)

// Place is what the command line finds out about where it runs, for its
// route in auto mode. The probes are functions, called only when the
// route gets to the way that needs them.
type Place struct {
	// StdinTTY and StderrTTY say whether stdin and stderr are terminals.
	StdinTTY, StderrTTY bool
	// Nobody says why nobody can answer at stdin, when it is not a
	// terminal: it is /dev/null, a silent socket, or it has already
	// ended. It returns nil when somebody may answer there.
	Nobody func() *NoPersonError
	// Foreground reports whether askuser runs in the foreground of the
	// terminal that stdin is.
	Foreground func() bool
	// Inbox probes the inbox: nil when one answers, else why not.
	Inbox func() error
}

// errNoTerminal is why the terminal that stdin is cannot be asked on.
var errNoTerminal = errors.New("stdin is not a terminal in whose foreground askuser runs")

// CommandLine is the route of askuser, askuser confirm and askuser input in
// auto mode (SPEC §5, §7): here, when somebody may answer at stdin and see
// the prompts on stderr; else the inbox, when one answers; else the
// terminal that stdin is, when stderr is captured and askuser runs in
// that terminal's foreground; else nobody, whose answer is none.
func CommandLine(p Place) Route {
	unseen := p.StdinTTY && !p.StderrTTY
	return Route{
		{Name: WayHere, Reaches: func(context.Context) error {
			if unseen {
				// Nobody would see the prompts. Should no inbox answer
				// and the terminal not be askuser's, nobody is asked.
				return &NoPersonError{Stdin: "a terminal, in whose foreground askuser does not run", Silent: true}
			}
			if why := p.Nobody(); why != nil {
				return why
			}
			return nil
		}},
		{Name: WayInbox, Reaches: func(context.Context) error { return p.Inbox() }},
		{Name: WayTerminal, Reaches: func(context.Context) error {
			if unseen && p.Foreground() {
				return nil
			}
			return errNoTerminal
		}},
		{Name: WayNobody, Reaches: func(context.Context) error { return nil }},
	}
}
