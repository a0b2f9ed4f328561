//go:build heavy

package agents

import (
	"strings"
	"testing"
	"time"
)

// TestFormDismissed checks SPEC's "no false decline" rule against the
// forms that Claude Code and Codex draw for askuser's MCP tool in their
// interactive sessions. A person who reads the form and then declines or
// cancels it is reported as such to the model. A form dismissed at once,
// sooner than a person can read it, is taken for a client that could not
// show it, so the questions go on to the inbox, where the person answers.
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
		want string // what the model is told; "" for the answers, from the inbox
	}{
		{"Claude_Code/cancel", claude, keys{send: []string{"Escape"}, after: read}, cancelled},
		// Decline is beside Accept, under the fields.
		{"Claude_Code/decline", claude, keys{send: []string{"Down", "Down", "Right", "Enter"}, after: read}, declined},
		{"Claude_Code/cancel_at_once", claude, keys{send: []string{"Escape"}}, ""},
		// Codex's form has no decline: Esc cancels it.
		{"Codex/cancel", codex, keys{send: []string{"Escape"}, after: read}, cancelled},
		{"Codex/cancel_at_once", codex, keys{send: []string{"Escape"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := tc.c
			s := *c.session
			s.form.send, s.form.after = tc.keys.send, tc.keys.after
			c.session = &s
			o := runInteractive(t, c, mcpPath)
			switch {
			case tc.want != "" && (o.at != atForm || !strings.Contains(o.result, tc.want)):
				t.Errorf("the questions showed %s, and the model got:\n%s\nwant it told %q\n\n%s", o.at, o.result, tc.want, o.describe())
			case tc.want == "" && (o.at != atInbox || c.normalize(o.result, o.addr) != c.mcpResult):
				t.Errorf("the questions showed %s, and the model got:\n%s\nwant the answers from the inbox\n\n%s", o.at, o.result, o.describe())
			}
		})
	}
}
