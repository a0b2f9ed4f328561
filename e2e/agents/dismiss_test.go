//go:build heavy

package agents

import (
	"strings"
	"testing"
	"time"
)

// TestFormDismissed checks the rule that no form is falsely declined (see
// docs/mcp.md) against the
// forms that Claude Code and Codex draw for askuser's MCP tool in their
// interactive sessions: a person who reads the form and then declines or
// cancels it is reported as such to the model, never taken for a client
// that could not show it. (A form dismissed at once is not checked here:
// whether its reply comes sooner than a person could read the form depends
// on how fast the CLI draws it, which a loaded machine slows past the
// mark.)
func TestFormDismissed(t *testing.T) {
	const (
		cancelled = "Cancelled: the person closed the questions without answering."
		declined  = "The person declined to answer."
	)
	read := 2 * time.Second
	for _, tc := range []struct {
		name string
		c    cli
		keys keys
		want string // what the model is told
	}{
		{"Claude_Code/cancel", claude, keys{send: []string{"Escape"}, after: read}, cancelled},
		// Decline is beside Accept, under the fields.
		{"Claude_Code/decline", claude, keys{send: []string{"Down", "Down", "Right", "Enter"}, after: read}, declined},
		// Codex's form has no decline: Esc cancels it.
		{"Codex/cancel", codex, keys{send: []string{"Escape"}, after: read}, cancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := tc.c
			s := *c.session
			s.form.send, s.form.after = tc.keys.send, tc.keys.after
			c.session = &s
			o := runInteractive(t, c, mcpPath)
			if o.at != atForm || !strings.Contains(o.result, tc.want) {
				t.Errorf("the questions showed %s, and the model got:\n%s\nwant it told %q\n\n%s", o.at, o.result, tc.want, o.describe())
			}
		})
	}
}
