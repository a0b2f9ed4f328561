package tui

import (
	"strings"
)

// style paints text with SGR codes, or leaves it plain when colour is off.
type style struct{ color bool }

const (
	sgrBold    = "1"
	sgrDim     = "2"
	sgrReverse = "7"
	sgrGreen   = "32"
	sgrYellow  = "33"
	sgrCyan    = "36"
)

func (st style) paint(s string, codes ...string) string {
	if !st.color || s == "" || len(codes) == 0 {
		return s
	}
	return "\x1b[" + strings.Join(codes, ";") + "m" + s + "\x1b[0m"
}
