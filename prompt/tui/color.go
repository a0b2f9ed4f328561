package tui

import (
	"strings"
)

// ColorEnabled says whether to use colour on the terminal that the screen
// is drawn on, from the environment: NO_COLOR (any value) turns colour
// off, CLICOLOR_FORCE (other than 0) turns it on whatever TERM says,
// CLICOLOR=0 turns it off, and otherwise a terminal other than TERM=dumb
// gets colour.
func ColorEnabled(getenv func(string) string) bool {
	switch {
	case getenv("NO_COLOR") != "":
		return false
	case getenv("CLICOLOR_FORCE") != "" && getenv("CLICOLOR_FORCE") != "0":
		return true
	case getenv("CLICOLOR") == "0":
		return false
	}
	return getenv("TERM") != "dumb"
}

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
