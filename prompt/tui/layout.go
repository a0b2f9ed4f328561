package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// layout says how much of a prompt to show. Prompts are laid out with
// the first layout that fits the terminal's height, so that a frame never
// scrolls: a frame taller than the screen could not be redrawn in place.
type layout struct {
	gap           bool // blank lines between the parts
	questionLines int  // at most this many lines of question; <0 for all
	descLines     int  // at most this many lines of each description; <0 for all
	previewLines  int  // at most this many lines of preview
	hint          bool // the line that lists the keys
}

// frame is one screenful of a prompt: lines that each fit in the width
// they were laid out for, so that the number of terminal rows it takes is
// the number of lines.
type frame struct {
	lines []string
	// focus is the line that must stay visible when the frame is cropped,
	// and the line the cursor is put on when cursor >= 0.
	focus int
	// cursor is the column of the visible cursor, or -1 to hide it.
	cursor int
}

// gap separates the part of f that follows from the one before, with a
// blank line, when l puts gaps between the parts.
func (f *frame) gap(l layout) {
	if l.gap {
		f.lines = append(f.lines, "")
	}
}

// refused adds the line that says why the last answer was not taken, when
// message says it, as every prompt that refuses answers shows it.
func (f *frame) refused(t *Prompter, message string, w int) {
	if message != "" {
		f.lines = append(f.lines, t.paint(truncate("✖ "+prompt.Capitalize(message), w), sgrYellow))
	}
}

// crop keeps at most h lines of f: its first line, which says which
// question this is, and as many lines around its focus as fit.
func (f frame) crop(h int) frame {
	if len(f.lines) <= h {
		return f
	}
	if h < 2 || f.focus == 0 {
		f.lines = f.lines[f.focus : f.focus+1]
		f.focus = 0
		return f
	}
	rest := f.lines[1:]
	n := h - 1
	start := min(max(0, f.focus-1-n/2), len(rest)-n)
	f.lines = append([]string{f.lines[0]}, rest[start:start+n]...)
	f.focus -= start
	return f
}

// fit builds the frame with the first layout that fits in a terminal of
// height h, keeping a line spare; failing that, it crops the smallest
// around its focus.
func fit(layouts []layout, h int, build func(layout) frame) frame {
	h = max(1, h-1)
	var f frame
	for _, l := range layouts {
		if f = build(l); len(f.lines) <= h {
			return f
		}
	}
	return f.crop(h)
}

// shortLayouts serve the short screens: text, yes or no, the review, and
// the screen with nothing to answer (the last two show no question, and
// so read no questionLines).
var shortLayouts = []layout{
	{gap: true, questionLines: -1, hint: true},
	{gap: false, questionLines: 3, hint: true},
	{gap: false, questionLines: 1},
}

// heading lays out what every prompt of a question shows first: the
// header as a chip, with the progress when there is more than one
// question, unless the question is asked alone; and the question.
func (t *Prompter) heading(q schema.Question, index int, l layout, w int) []string {
	var lines []string
	if !q.Kind.Alone() {
		progress := ""
		if t.total > 1 {
			progress = fmt.Sprintf("Question %d of %d", index+1, t.total)
		}
		lines = append(lines, t.chip(q.Header, progress, w))
	}
	for _, line := range clip(prompt.Wrap(prompt.DisplayMultiline(q.Question), w), l.questionLines, w) {
		lines = append(lines, t.paint(line, sgrBold))
	}
	return lines
}

// chip lays out a header as a chip, followed by the progress when there is
// room for it.
func (t *Prompter) chip(header, progress string, w int) string {
	chipRoom := w - 2
	if progress != "" {
		chipRoom -= 2 + prompt.Width(progress)
	}
	if chipRoom < 4 {
		progress, chipRoom = "", w-2
	}
	header = truncate(prompt.Display(header), chipRoom)
	chip := "[" + header + "]"
	if t.Color {
		chip = t.paint(" "+header+" ", sgrBold, sgrReverse)
	}
	if progress != "" {
		chip += "  " + t.paint(progress, sgrDim)
	}
	return chip
}

// show draws a prompt's frame: built in the terminal's width with the
// first of layouts that fits its height, under the caller's banner.
func (t *Prompter) show(layouts []layout, build func(l layout, w int) frame) error {
	w, h := t.size()
	banner := t.bannerLines(w - 1)
	if m := t.mark; m != "" {
		banner = append(banner, t.paint(truncate(m, w-1), sgrYellow))
	}
	f := fit(layouts, h-len(banner), func(l layout) frame { return build(l, w-1) })
	f.lines = append(banner, f.lines...)
	f.focus += len(banner)
	return t.draw(f)
}

// bannerLines lays out the caller's banner (Options.Banner) in w columns:
// its parts joined by " · ", the first bold and the others dimmed, as
// many as fit.
func (t *Prompter) bannerLines(w int) []string {
	if t.Banner == nil {
		return nil
	}
	parts := t.Banner()
	if len(parts) == 0 {
		return nil
	}
	line := t.paint(truncate(prompt.Display(parts[0]), w), sgrBold)
	for _, p := range parts[1:] {
		room := w - prompt.Width(line) - 3
		if room < 1 {
			break
		}
		line += t.paint(" · "+truncate(prompt.Display(p), room), sgrDim)
	}
	return []string{line}
}

// keyHints ends f, when the layout l lists keys, with the keys, dimmed
// and after a gap: parts, but the hint of Ctrl+C when the caller has
// taken that key over, then the caller's own hints, joined by " · " over
// as many lines of w columns as they need, broken only between parts, so
// that a narrow terminal cuts none of them off. The screens whose keys
// are listed on one line (oneLine) have it cut short instead where the
// terminal is too narrow for it, as long as the caller changes nothing.
func (t *Prompter) keyHints(f *frame, l layout, w int, oneLine bool, parts ...string) {
	if !l.hint {
		return
	}
	f.gap(l)
	var extra []string
	if t.Hints != nil {
		extra = t.Hints()
	}
	takesInterrupt := t.takes(KeyInterrupt)
	if oneLine && len(extra) == 0 && !takesInterrupt {
		f.lines = append(f.lines, t.paint(truncate(strings.Join(parts, " · "), w), sgrDim))
		return
	}
	if takesInterrupt {
		parts = slices.DeleteFunc(slices.Clone(parts), func(p string) bool { return p == interruptHint })
	}
	var lines []string
	line := ""
	for _, p := range slices.Concat(parts, extra) {
		switch {
		case line == "":
			line = p
		case prompt.Width(line)+3+prompt.Width(p) <= w:
			line += " · " + p
		default:
			lines = append(lines, line)
			line = p
		}
	}
	for _, h := range append(lines, line) {
		f.lines = append(f.lines, t.paint(truncate(h, w), sgrDim))
	}
}

// interruptHint is the hint of Ctrl+C where Esc does something else.
const interruptHint = "Ctrl+C cancel"
