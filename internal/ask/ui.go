package ask

import (
	"fmt"

	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/prompt"
)

// UI is how questions are asked: the value of --ui.
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

// UseScreen reports whether to draw on the terminal screen (the terminal
// UI, the inbox's screen) rather than as line prompts, on s: tui does,
// and is unavailable unless stdin and stderr are terminals, an error that
// names where tui came from (named: "--ui tui") and what to use instead;
// auto does when they are, unless the person asked for plain line prompts
// (ACCESSIBLE, TERM=dumb); line does not.
func (ui UI) UseScreen(s *iostreams.Streams, plain bool, named, instead string) (bool, error) {
	// Both are terminals, with the files that the screen is drawn on.
	terminals := s.InTTY && s.ErrTTY && s.InFile != nil && s.ErrFile != nil
	switch ui {
	case UITUI:
		if !terminals {
			// Not an error of the person's or of askuser's: exit 69, which
			// no script reads as an answer (confirm's 1 is a no).
			return false, &prompt.UnavailableError{Err: fmt.Errorf("%s needs a terminal, and stdin or stderr is not one: %s", named, instead)}
		}
		return true, nil
	case UIAuto:
		return terminals && !plain, nil
	}
	return false, nil
}
