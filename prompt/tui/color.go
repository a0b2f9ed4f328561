package tui

import (
	"strings"
)

// The SGR codes that paint uses.
const (
	sgrBold    = "1"
	sgrDim     = "2"
	sgrReverse = "7"
	sgrGreen   = "32"
	sgrYellow  = "33"
	sgrCyan    = "36"
)

// paint paints s with SGR codes, or leaves it plain when colour is off.
func (t *Prompter) paint(s string, codes ...string) string {
	if !t.Color || s == "" || len(codes) == 0 {
		return s
	}
	return "\x1b[" + strings.Join(codes, ";") + "m" + s + "\x1b[0m"
}
