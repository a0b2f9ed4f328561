package prompt

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/AlecAivazis/survey/v2"

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

// listResult is what the option list returns.
type listResult struct {
	picked []int // indexes of the chosen options, in option order
	other  bool  // Other was chosen
}

// WriteAnswer lets survey store a listResult.
func (r *listResult) WriteAnswer(_ string, v any) error {
	res, ok := v.(listResult)
	if !ok {
		return fmt.Errorf("unexpected answer of type %T", v)
	}
	*r = res
	return nil
}

// listPrompt shows a question's options and lets the person choose one
// (single-select) or several (multi-select). The entry after the options
// is Other.
type listPrompt struct {
	s       *session
	q       schema.Question
	index   int
	cursor  int    // focused entry; len(q.Options) is Other
	checked []bool // multi-select: ticked entries, Other last
	message string // why the last answer was not accepted
}

// Prompt reads keys until the person chooses, confirms or cancels.
func (p *listPrompt) Prompt(*survey.PromptConfig) (any, error) {
	n := len(p.q.Options)
	multi := p.q.MultiSelect
	if multi && p.checked == nil {
		p.checked = make([]bool, n+1)
	}
	for {
		if err := p.render(); err != nil {
			return nil, err
		}
		k, err := p.s.keys.readKey()
		if err != nil {
			return nil, err
		}
		switch {
		case k.kind == keyEsc || k.kind == keyInterrupt:
			return nil, ErrCancelled
		case k.kind == keyUp || k.is('k'):
			p.cursor = (p.cursor + n) % (n + 1)
		case k.kind == keyDown || k.is('j'):
			p.cursor = (p.cursor + 1) % (n + 1)
		case k.kind == keyHome || k.kind == keyPageUp:
			p.cursor = 0
		case k.kind == keyEnd || k.kind == keyPageDown:
			p.cursor = n
		case k.kind == keyEnter && !multi:
			return p.single(p.cursor), nil
		case k.kind == keyEnter:
			return p.multi(), nil
		case k.is(' ') && multi:
			p.toggle(p.cursor)
		case k.kind == keyRune && k.r >= '1' && k.r <= '9' && int(k.r-'0') <= n+1:
			p.cursor = int(k.r - '1')
			if !multi {
				return p.single(p.cursor), nil
			}
			p.toggle(p.cursor)
		}
	}
}

func (p *listPrompt) toggle(i int) {
	p.checked[i] = !p.checked[i]
	p.message = ""
}

func (p *listPrompt) single(i int) listResult {
	if i == len(p.q.Options) {
		return listResult{other: true}
	}
	return listResult{picked: []int{i}}
}

func (p *listPrompt) multi() listResult {
	n := len(p.q.Options)
	var r listResult
	for i, on := range p.checked[:n] {
		if on {
			r.picked = append(r.picked, i)
		}
	}
	r.other = p.checked[n]
	return r
}

// validate accepts a multi-select confirmation only with something chosen.
func (p *listPrompt) validate(v any) error {
	if r, _ := v.(listResult); len(r.picked) == 0 && !r.other {
		return errors.New("choose at least one: Space or a number, then Enter")
	}
	return nil
}

// Cleanup leaves the list on screen: whatever is drawn next replaces it,
// and Ask erases the last one.
func (p *listPrompt) Cleanup(*survey.PromptConfig, any) error { return nil }

// Error keeps the reason to show it when the list is drawn again.
func (p *listPrompt) Error(_ *survey.PromptConfig, err error) error {
	p.message = err.Error()
	return nil
}

func (p *listPrompt) render() error {
	w, h := p.s.tui.size()
	return p.s.tui.draw(fit(listLayouts, h, func(l layout) frame { return p.frame(l, w-1) }), w)
}

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

var textLayouts = []layout{
	{gap: true, questionLines: -1, hint: true},
	{gap: false, questionLines: 3, hint: true},
	{gap: false, questionLines: 1},
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

// frame lays out the list in w columns.
func (p *listPrompt) frame(l layout, w int) frame {
	st := p.s.tui.st
	multi := p.q.MultiSelect
	n := len(p.q.Options)
	f := frame{cursor: -1}
	f.lines = p.s.heading(p.q, p.index, l, w)
	if l.gap {
		f.lines = append(f.lines, "")
	}
	for i := 0; i <= n; i++ {
		label, desc, rec := otherLabel, otherDescription, false
		if i < n {
			o := p.q.Options[i]
			label, desc, rec = clean(o.Label, false), clean(o.Description, false), o.Recommended()
		}
		focused := i == p.cursor
		pointer, box := "  ", ""
		if focused {
			pointer = "❯ "
			f.focus = len(f.lines)
		}
		if multi {
			box = "[ ] "
			if p.checked[i] {
				box = "[x] "
			}
		}
		num := fmt.Sprintf("%d. ", i+1)
		indent := width(pointer + box + num)
		var line strings.Builder
		if focused {
			line.WriteString(st.paint(pointer, sgrCyan, sgrBold))
		} else {
			line.WriteString(pointer)
		}
		if multi && p.checked[i] {
			line.WriteString(st.paint(box, sgrGreen, sgrBold))
		} else {
			line.WriteString(box)
		}
		line.WriteString(num)
		var codes []string
		switch {
		case rec && focused:
			codes = []string{sgrGreen, sgrBold}
		case rec:
			codes = []string{sgrGreen}
		case focused:
			codes = []string{sgrCyan, sgrBold}
		}
		line.WriteString(st.paint(truncate(label, w-indent), codes...))
		f.lines = append(f.lines, line.String())
		if l.descLines == 0 {
			continue
		}
		descLines := wrap(desc, w-indent)
		if l.descLines > 0 {
			descLines = clip(descLines, l.descLines, w-indent)
		}
		for _, d := range descLines {
			f.lines = append(f.lines, strings.Repeat(" ", indent)+st.paint(d, sgrDim))
		}
	}
	if !multi {
		f.lines = append(f.lines, p.preview(l, w)...)
	}
	if p.message != "" {
		f.lines = append(f.lines, st.paint(truncate("✖ "+sentence(p.message), w), sgrYellow))
	}
	if l.hint {
		hint := fmt.Sprintf("↑/↓ move · Enter or 1-%d choose · Esc cancel", n+1)
		if multi {
			hint = fmt.Sprintf("↑/↓ move · Space or 1-%d toggle · Enter confirm · Esc cancel", n+1)
		}
		if l.gap {
			f.lines = append(f.lines, "")
		}
		f.lines = append(f.lines, st.paint(truncate(hint, w), sgrDim))
	}
	return f
}

// preview lays out the focused option's preview, when any option has
// one. The area is as tall as the tallest preview (up to the layout's
// limit) whichever option is focused, so that moving does not make the
// frame jump.
func (p *listPrompt) preview(l layout, w int) []string {
	st := p.s.tui.st
	tallest := 0
	for _, o := range p.q.Options {
		tallest = max(tallest, len(previewLines(o.Preview)))
	}
	area := min(tallest, l.previewLines)
	if area == 0 {
		return nil
	}
	var text []string
	if p.cursor < len(p.q.Options) {
		text = previewLines(p.q.Options[p.cursor].Preview)
	}
	var out []string
	if l.gap {
		out = append(out, "")
	}
	bar := st.paint("│ ", sgrDim)
	for i := range area {
		switch {
		case len(text) == 0 && i == 0:
			out = append(out, bar+st.paint("(no preview)", sgrDim))
		case i == area-1 && len(text) > area:
			more := fmt.Sprintf("… %d more lines", len(text)-i)
			out = append(out, bar+st.paint(truncate(more, w-2), sgrDim))
		case i < len(text):
			out = append(out, bar+truncate(text[i], w-2))
		default:
			out = append(out, st.paint("│", sgrDim))
		}
	}
	return out
}

// previewLines splits a preview into the lines to show, without the blank
// lines around it.
func previewLines(s string) []string {
	lines := strings.Split(clean(s, true), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// heading lays out what both prompts show first: the header as a chip,
// the progress when there is more than one question, and the question.
func (s *session) heading(q schema.Question, index int, l layout, w int) []string {
	st := s.tui.st
	progress := ""
	if s.total > 1 {
		progress = fmt.Sprintf("Question %d of %d", index+1, s.total)
	}
	chipRoom := w - 2
	if progress != "" {
		chipRoom -= 2 + width(progress)
	}
	if chipRoom < 4 {
		progress, chipRoom = "", w-2
	}
	header := truncate(clean(q.Header, false), chipRoom)
	chip := "[" + header + "]"
	if st.color {
		chip = st.paint(" "+header+" ", sgrBold, sgrReverse)
	}
	if progress != "" {
		chip += "  " + st.paint(progress, sgrDim)
	}
	lines := []string{chip}
	question := wrap(clean(q.Question, true), w)
	if l.questionLines >= 0 {
		question = clip(question, max(1, l.questionLines), w)
	}
	for _, line := range question {
		lines = append(lines, st.paint(line, sgrBold))
	}
	return lines
}

// textPrompt asks for the answer of one's own after Other was chosen.
type textPrompt struct {
	s       *session
	q       schema.Question
	index   int
	chosen  []string // labels also chosen, in a multi-select
	text    []rune
	message string
}

// textPrefix is put before the text being typed.
const textPrefix = "Your answer: "

// Prompt reads keys until Enter, Esc or Ctrl+C, and returns the text
// without surrounding spaces.
func (p *textPrompt) Prompt(*survey.PromptConfig) (any, error) {
	for {
		if err := p.render(); err != nil {
			return nil, err
		}
		k, err := p.s.keys.readKey()
		if err != nil {
			return nil, err
		}
		switch k.kind {
		case keyEsc, keyInterrupt:
			return nil, ErrCancelled
		case keyEnter:
			return strings.TrimSpace(string(p.text)), nil
		case keyRune:
			p.text = append(p.text, k.r)
			p.message = ""
		case keyBackspace:
			if len(p.text) > 0 {
				p.text = p.text[:len(p.text)-1]
			}
		case keyClearLine:
			p.text = p.text[:0]
		case keyDeleteWord:
			i := len(p.text)
			for i > 0 && unicode.IsSpace(p.text[i-1]) {
				i--
			}
			for i > 0 && !unicode.IsSpace(p.text[i-1]) {
				i--
			}
			p.text = p.text[:i]
		}
	}
}

// validateOther accepts an answer of one's own only when it is not empty.
func validateOther(v any) error {
	if s, _ := v.(string); s == "" {
		return errors.New("type your answer, or press Esc to cancel")
	}
	return nil
}

// Cleanup leaves the prompt on screen: whatever is drawn next replaces it,
// and Ask erases the last one.
func (p *textPrompt) Cleanup(*survey.PromptConfig, any) error { return nil }

// Error keeps the reason to show it when the prompt is drawn again.
func (p *textPrompt) Error(_ *survey.PromptConfig, err error) error {
	p.message = err.Error()
	p.text = p.text[:0]
	return nil
}

func (p *textPrompt) render() error {
	w, h := p.s.tui.size()
	return p.s.tui.draw(fit(textLayouts, h, func(l layout) frame { return p.frame(l, w-1) }), w)
}

func (p *textPrompt) frame(l layout, w int) frame {
	st := p.s.tui.st
	f := frame{lines: p.s.heading(p.q, p.index, l, w)}
	if l.gap {
		f.lines = append(f.lines, "")
	}
	if len(p.chosen) > 0 {
		chosen := "Chosen: " + clean(strings.Join(p.chosen, ", "), false)
		f.lines = append(f.lines, st.paint(truncate(chosen, w), sgrDim))
	}
	prefix := truncate(textPrefix, w/2)
	shown := tail(string(p.text), max(1, w-width(prefix)-1))
	f.focus = len(f.lines)
	f.cursor = width(prefix) + width(shown)
	f.lines = append(f.lines, st.paint(prefix, sgrCyan, sgrBold)+shown)
	if p.message != "" {
		f.lines = append(f.lines, st.paint(truncate("✖ "+sentence(p.message), w), sgrYellow))
	}
	if l.hint {
		if l.gap {
			f.lines = append(f.lines, "")
		}
		f.lines = append(f.lines, st.paint(truncate("Enter submit · Esc cancel", w), sgrDim))
	}
	return f
}

// is reports whether k is the printable character r.
func (k key) is(r rune) bool {
	return k.kind == keyRune && k.r == r
}

// sentence capitalises an error message to show it to a person.
func sentence(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}
