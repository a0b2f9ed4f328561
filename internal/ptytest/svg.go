//go:build unix

package ptytest

import (
	"fmt"
	"html"
	"strings"

	"github.com/hinshun/vt10x"
)

// The styles of a cell, as vt10x keeps them in Glyph.Mode (its attr
// constants are not exported).
const (
	modeUnderline = 1 << 1
	modeBold      = 1 << 2
)

// The picture's cell size in pixels, and its colours.
const (
	cellWidth, cellHeight = 9, 20
	pad                   = 12
	background            = "#1e1e1e"
	foreground            = "#d4d4d4"
)

// ansi is the palette of the 16 ANSI colours the picture draws with.
var ansi = [16]string{
	"#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
	"#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff",
}

// SVG draws what the screen shows as an SVG picture of a terminal, each
// cell in its place with its colours, bold and underline: a picture made
// from the screen a test saw, for the documentation.
func (tm *Term) SVG() string {
	used := len(strings.Split(tm.Screen(), "\n")) // before Lock: Screen locks too
	tm.screen.Lock()
	defer tm.screen.Unlock()
	cols, rows := tm.screen.Size()
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="ui-monospace, Menlo, Consolas, 'DejaVu Sans Mono', monospace" font-size="15">`+"\n",
		cols*cellWidth+2*pad, min(used, rows)*cellHeight+2*pad)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" rx="8" fill="%s"/>`+"\n", background)
	for y := range min(used, rows) {
		for x := 0; x < cols; {
			g := tm.screen.Cell(x, y)
			run := x + 1
			for run < cols && sameStyle(tm.screen.Cell(run, y), g) {
				run++
			}
			var text strings.Builder
			for i := x; i < run; i++ {
				text.WriteRune(max(tm.screen.Cell(i, y).Char, ' '))
			}
			left, top := pad+x*cellWidth, pad+y*cellHeight
			if g.BG != vt10x.DefaultBG {
				fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`+"\n", left, top, (run-x)*cellWidth, cellHeight, colour(g.BG))
			}
			if s := strings.TrimRight(text.String(), " "); s != "" {
				style := ""
				if g.Mode&modeBold != 0 {
					style += ` font-weight="bold"`
				}
				if g.Mode&modeUnderline != 0 {
					style += ` text-decoration="underline"`
				}
				fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s"%s xml:space="preserve">%s</text>`+"\n", left, top+cellHeight-5, colour(g.FG), style, html.EscapeString(s))
			}
			x = run
		}
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// sameStyle says whether two cells are drawn alike.
func sameStyle(a, b vt10x.Glyph) bool {
	return a.FG == b.FG && a.BG == b.BG && a.Mode&(modeBold|modeUnderline) == b.Mode&(modeBold|modeUnderline)
}

// colour is the picture's colour of a vt10x colour: the terminal's own for
// the defaults, the palette's for the ANSI colours, and xterm's 6×6×6 cube
// and grey ramp for the rest.
func colour(c vt10x.Color) string {
	switch {
	case c == vt10x.DefaultFG:
		return foreground
	case c == vt10x.DefaultBG:
		return background
	case c < 16:
		return ansi[c]
	case c < 232:
		c -= 16
		level := func(v vt10x.Color) int {
			if v == 0 {
				return 0
			}
			return int(55 + 40*v)
		}
		return fmt.Sprintf("#%02x%02x%02x", level(c/36), level(c/6%6), level(c%6))
	case c < 256:
		grey := 8 + 10*int(c-232)
		return fmt.Sprintf("#%02x%02x%02x", grey, grey, grey)
	}
	return foreground
}
