package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/AlecAivazis/survey/v2"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// The two prompts of a question are survey prompts: survey.AskOne runs
// them, validates what they return, and on an invalid answer calls Error
// and then Prompt again, which redraws the same prompt with the reason.

// otherLabel and otherDescription describe the entry that is added after a
// question's options for an answer of one's own.
const (
	otherLabel       = "Other"
	otherDescription = "Type your own answer"
)

// listResult is what the option list returns, as a pointer: survey
// stores a pointer as it is, where it takes a struct for a set of named
// answers.
type listResult struct {
	labels []string // the chosen options, in option order
	other  bool     // Other was chosen
	// note is set, and nothing else, when the person asked to write a
	// note on the answer (n): the list is shown again afterwards, as it
	// was.
	note bool
}

// listPrompt shows a question's options and lets the person choose one
// (single-select) or several (multi-select). The entry after the options
// is Other, numbered 0 and chosen with 0, as on the line prompt and the
// web page; n asks for a note on the answer.
type listPrompt struct {
	screen
	q      schema.Question
	index  int
	cursor int // focused entry; len(q.Options) is Other
	// checked are the ticked entries, Other last, of a multi-select; of a
	// single-select, they are only the answer being changed.
	checked []bool
	message string // why the last answer was not accepted
	note    string // the note on the answer, shown under the options
}

// newListPrompt returns the list for q, starting from the answer prev
// when an answer is being changed: its options ticked (multi-select) and
// the cursor on the first of them.
func newListPrompt(t *Prompter, q schema.Question, index int, prev prompt.Answer) *listPrompt {
	n := len(q.Options)
	p := &listPrompt{screen: screen{t}, q: q, index: index, note: prev.Note, checked: make([]bool, n+1)}
	for i := range p.checked {
		p.checked[i] = i < n && slices.Contains(prev.Labels, q.Options[i].Label) || i == n && prev.Other != ""
	}
	p.cursor = max(0, slices.Index(p.checked, true))
	return p
}

// Prompt reads keys until the person chooses, confirms or cancels.
func (p *listPrompt) Prompt(*survey.PromptConfig) (any, error) {
	n := len(p.q.Options)
	multi := p.q.MultiSelect
	for {
		k, err := p.t.nextKey(listLayouts, p.frame, false)
		if err != nil {
			return nil, err
		}
		if c, ok := k.move(p.cursor, n+1); ok {
			p.cursor = c
			continue
		}
		digit := -1 // the entry a digit names: 1 to N, and 0 for Other
		if k.kind == keyRune && k.r >= '0' && k.r <= '9' && int(k.r-'0') <= n {
			digit = (int(k.r-'0') + n) % (n + 1)
		}
		switch {
		case k.kind == keyEnter:
			return p.chosen(), nil
		case k.is(' ') && multi:
			p.toggle(p.cursor)
		case k.is('n') && p.q.Kind.OffersNote():
			p.message = ""
			return &listResult{note: true}, nil
		case digit >= 0:
			p.cursor = digit
			if !multi {
				return p.chosen(), nil
			}
			p.toggle(p.cursor)
		}
	}
}

func (p *listPrompt) toggle(i int) {
	p.checked[i] = !p.checked[i]
	p.message = ""
}

// noteFor is what a note written now goes with, to be shown with it: the
// options ticked (multi-select), else the one under the cursor.
func (p *listPrompt) noteFor() []string {
	r := p.pick(p.q.MultiSelect && slices.Contains(p.checked, true))
	if r.other {
		return append(r.labels, otherLabel)
	}
	return r.labels
}

// chosen is what Enter chooses: the ticked entries of a multi-select, or
// the entry under the cursor.
func (p *listPrompt) chosen() *listResult { return p.pick(p.q.MultiSelect) }

// pick returns the ticked entries, or else the entry under the cursor,
// Other last.
func (p *listPrompt) pick(ticked bool) *listResult {
	in := func(i int) bool { return ticked && p.checked[i] || !ticked && i == p.cursor }
	r := &listResult{other: in(len(p.q.Options))}
	for i, o := range p.q.Options {
		if in(i) {
			r.labels = append(r.labels, o.Label)
		}
	}
	return r
}

// validate accepts a multi-select confirmation only with something chosen.
func (p *listPrompt) validate(v any) error {
	if r, ok := v.(*listResult); ok && len(r.labels) == 0 && !r.other && !r.note {
		return errors.New("choose at least one: Space or a number, then Enter")
	}
	return nil
}

// Error keeps the reason to show it when the list is drawn again.
func (p *listPrompt) Error(_ *survey.PromptConfig, err error) error {
	p.message = err.Error()
	return nil
}

var listLayouts = []layout{
	{gap: true, questionLines: -1, descLines: -1, previewLines: 12, hint: true},
	{gap: true, questionLines: -1, descLines: 2, previewLines: 12, hint: true},
	{gap: true, questionLines: -1, descLines: 1, previewLines: 8, hint: true},
	{gap: false, questionLines: -1, descLines: 1, previewLines: 6, hint: true},
	{gap: false, questionLines: 3, descLines: 1, previewLines: 4, hint: true},
	{gap: false, questionLines: 2, descLines: 1, previewLines: 3},
	{gap: false, questionLines: 2, descLines: 0, previewLines: 3},
	{gap: false, questionLines: 1, descLines: 0, previewLines: 2},
}

// frame lays out the list in w columns.
func (p *listPrompt) frame(l layout, w int) frame {
	multi := p.q.MultiSelect
	n := len(p.q.Options)
	f := frame{cursor: -1}
	f.lines = p.t.heading(p.q, p.index, l, w)
	f.gap(l)
	for i := 0; i <= n; i++ {
		if i == p.cursor {
			f.focus = len(f.lines)
		}
		f.lines = append(f.lines, p.option(i, l, w)...)
	}
	if !multi {
		p.preview(&f, l, w)
	}
	if p.note != "" {
		f.gap(l)
		f.lines = append(f.lines, p.t.noteLine("", p.note, w))
	}
	f.refused(p.t, p.message, w)
	hints := []string{"↑/↓ move", fmt.Sprintf("Enter or 1-%d choose", n), "0 Other"}
	if multi {
		hints = []string{"↑/↓ move", fmt.Sprintf("Space or 1-%d toggle", n), "0 Other", "Enter confirm"}
	}
	if p.q.Kind.OffersNote() {
		hints = append(hints, "n note")
	}
	p.t.keyHints(&f, l, w, false, append(hints, "Esc cancel")...)
	return f
}

// option returns the lines of option i (n, the number of options, for Other):
// its label line, pointed at when focused, ticked when checked, and its
// description as the layout l allows.
func (p *listPrompt) option(i int, l layout, w int) []string {
	multi := p.q.MultiSelect
	n := len(p.q.Options)
	label, desc, rec := otherLabel, otherDescription, false
	if i < n {
		o := p.q.Options[i]
		label, desc, rec = prompt.Display(o.Label), prompt.Display(o.Description), o.Recommended()
	}
	focused := i == p.cursor
	// Other is numbered 0 here as on every other view: the key that
	// chooses it.
	num := fmt.Sprintf("%d. ", (i+1)%(n+1))
	pointer, box := "  ", ""
	if focused {
		pointer = p.t.paint("❯ ", sgrCyan, sgrBold)
	}
	switch {
	case multi && p.checked[i]:
		box = p.t.paint("[x] ", sgrGreen, sgrBold)
	case multi:
		box = "[ ] "
	}
	line := pointer + box + num
	indent := prompt.Width(line) // which counts no escape sequence
	var codes []string
	switch {
	case rec && focused:
		codes = []string{sgrGreen, sgrBold}
	case rec:
		codes = []string{sgrGreen}
	case focused:
		codes = []string{sgrCyan, sgrBold}
	}
	lines := []string{line + p.t.paint(truncate(label, w-indent), codes...)}
	if desc == "" { // askuser choose's options have none
		return lines
	}
	for _, d := range clip(prompt.Wrap(desc, w-indent), l.descLines, w-indent) {
		lines = append(lines, strings.Repeat(" ", indent)+p.t.paint(d, sgrDim))
	}
	return lines
}

// preview lays out the focused option's preview, when any option has
// one. The area is as tall as the tallest preview (up to the layout's
// limit) whichever option is focused, so that moving does not make the
// frame jump.
func (p *listPrompt) preview(f *frame, l layout, w int) {
	tallest := 0
	for _, o := range p.q.Options {
		tallest = max(tallest, len(previewLines(o.Preview)))
	}
	area := min(tallest, l.previewLines)
	if area == 0 {
		return
	}
	var text []string
	if p.cursor < len(p.q.Options) {
		text = previewLines(p.q.Options[p.cursor].Preview)
	}
	f.gap(l)
	bar := p.t.paint("│ ", sgrDim)
	for i := range area {
		switch {
		case len(text) == 0 && i == 0:
			f.lines = append(f.lines, bar+p.t.paint("(no preview)", sgrDim))
		case i == area-1 && len(text) > area:
			more := fmt.Sprintf("… %d more lines", len(text)-i)
			f.lines = append(f.lines, bar+p.t.paint(truncate(more, w-2), sgrDim))
		case i < len(text):
			f.lines = append(f.lines, bar+truncate(text[i], w-2))
		default:
			f.lines = append(f.lines, p.t.paint("│", sgrDim))
		}
	}
}

// previewLines splits a preview into the lines to show, without the blank
// lines around it.
func previewLines(s string) []string {
	lines := strings.Split(strings.TrimRight(prompt.DisplayMultiline(s), " \n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	return lines
}

// noteLine lays out a note on an answer in w columns, after indent:
// "Note: " and the note, dimmed.
func (t *Prompter) noteLine(indent, note string, w int) string {
	return indent + t.paint(truncate("Note: "+prompt.Display(note), w-prompt.Width(indent)), sgrDim)
}
