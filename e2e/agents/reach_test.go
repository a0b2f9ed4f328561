//go:build heavy

package agents

import (
	"os"
	"testing"
)

func TestTry(t *testing.T) {
	c := map[string]cli{"claude": claude, "codex": codex, "gemini": gemini, "opencode": opencode}[os.Getenv("TRY_CLI")]
	o := runCLI(t, c, mode(os.Getenv("TRY_MODE")), path(os.Getenv("TRY_PATH")))
	t.Logf("got %v shown %v inbox %v\n%s", o.got, o.shown, o.inInbox, o.describe())
}
