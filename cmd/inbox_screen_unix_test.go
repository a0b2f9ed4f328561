//go:build unix

package cmd

import (
	"errors"
	"testing"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/ptytest"
	"github.com/askuser/askuser/prompt"
)

// The inbox shows its queue on the terminal screen where askuser would
// use its terminal UI, and as line prompts elsewhere.
func TestInboxOnTerminal(t *testing.T) {
	tty := ptytest.New(t, 80, 24).Tty()
	for _, c := range []struct {
		name          string
		ui            string
		inTTY, errTTY bool
		env           map[string]string
		want          bool
		unavailable   bool
	}{
		{"auto at a terminal", "auto", true, true, nil, true, false},
		{"auto, stdin not a terminal", "auto", false, true, nil, false, false},
		{"auto, stderr not a terminal", "auto", true, false, nil, false, false},
		{"auto, ACCESSIBLE", "auto", true, true, map[string]string{"ACCESSIBLE": "1"}, false, false},
		{"auto, TERM=dumb", "auto", true, true, map[string]string{"TERM": "dumb"}, false, false},
		{"line at a terminal", "line", true, true, nil, false, false},
		{"tui at a terminal", "tui", true, true, map[string]string{"ACCESSIBLE": "1"}, true, false},
		{"tui without one", "tui", false, true, nil, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			ios.In, ios.ErrOut, ios.InFile, ios.ErrFile, ios.InTTY, ios.ErrTTY = tty, tty, tty, tty, c.inTTY, c.errTTY
			env := &Env{
				Streams: ask.Streams{IO: ios},
				Getenv:  varsEnv(c.env),
			}
			got, err := inboxOnTerminal(env, ask.UI(c.ui), "--ui "+c.ui)
			_, ok := errors.AsType[*prompt.UnavailableError](err)
			if got != c.want || ok != c.unavailable {
				t.Errorf("inboxOnTerminal = %v, %v; want %v, unavailable %v", got, err, c.want, c.unavailable)
			}
		})
	}
}
