package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

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

// newListPrompt returns the list for q, starting from the answer prev
// when an answer is being changed: its options ticked (multi-select) and
// the cursor on the first of them.
func newListPrompt(s *session, q schema.Question, index int, prev prompt.Answer) *listPrompt {
	n := len(q.Options)
	p := &listPrompt{s: s, q: q, index: index, cursor: -1}
	if q.MultiSelect {
		p.checked = make([]bool, n+1)
	}
	chosen := func(i int) {
		if p.cursor < 0 {
			p.cursor = i
		}
		if q.MultiSelect {
			p.checked[i] = true
		}
	}
	for i, o := range q.Options {
		if slices.Contains(prev.Labels, o.Label) {
			chosen(i)
		}
	}
	if prev.Other != "" {
		chosen(n)
	}
	p.cursor = max(p.cursor, 0)
	return p
}

// Prompt reads keys until the person chooses, confirms or cancels.
func (p *listPrompt) Prompt(*survey.PromptConfig) (any, error) {
	n := len(p.q.Options)
	multi := p.q.MultiSelect
	for {
		k, err := p.s.nextKey(p.render)
		if err != nil {
			return nil, err
		}
		switch {
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
// and the last one is erased when the TUI is done.
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
			label, desc, rec = prompt.Display(o.Label), prompt.Display(o.Description), o.Recommended()
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
	lines := strings.Split(prompt.DisplayMultiline(s), "\n")
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

// heading lays out what both prompts of a question show first: the header
// as a chip, the progress when there is more than one question, and the
// question.
func (s *session) heading(q schema.Question, index int, l layout, w int) []string {
	st := s.tui.st
	progress := ""
	if s.total > 1 {
		progress = fmt.Sprintf("Question %d of %d", index+1, s.total)
	}
	lines := []string{s.chip(q.Header, progress, w)}
	question := wrap(prompt.DisplayMultiline(q.Question), w)
	if l.questionLines >= 0 {
		question = clip(question, max(1, l.questionLines), w)
	}
	for _, line := range question {
		lines = append(lines, st.paint(line, sgrBold))
	}
	return lines
}

// chip lays out a header as a chip, followed by the progress when there is
// room for it.
func (s *session) chip(header, progress string, w int) string {
	st := s.tui.st
	chipRoom := w - 2
	if progress != "" {
		chipRoom -= 2 + width(progress)
	}
	if chipRoom < 4 {
		progress, chipRoom = "", w-2
	}
	header = truncate(prompt.Display(header), chipRoom)
	chip := "[" + header + "]"
	if st.color {
		chip = st.paint(" "+header+" ", sgrBold, sgrReverse)
	}
	if progress != "" {
		chip += "  " + st.paint(progress, sgrDim)
	}
	return chip
}

// message lays out the message of a confirm or input prompt.
func (s *session) message(m string, l layout, w int) []string {
	lines := wrap(prompt.DisplayMultiline(m), w)
	if l.questionLines >= 0 {
		lines = clip(lines, max(1, l.questionLines), w)
	}
	for i, line := range lines {
		lines[i] = s.tui.st.paint(line, sgrBold)
	}
	return lines
}

// textPrompt asks for a line of text: the answer of one's own after Other
// was chosen, the answer to a text question, or the text of Input.
type textPrompt struct {
	s *session
	// head lays out what is shown above the text: the question or message.
	head        func(l layout, w int) []string
	chosen      []string // labels also chosen, in a multi-select
	placeholder string   // an example answer, shown while the text is empty
	def         string   // the answer Enter takes while the text is empty
	text        []rune
	pos         int // the cursor, an index into text
	message     string
}

// newTextPrompt returns a text prompt under head, starting with text and
// the cursor at its end.
func newTextPrompt(s *session, head func(layout, int) []string, text string) *textPrompt {
	r := []rune(text)
	return &textPrompt{s: s, head: head, text: r, pos: len(r)}
}

// textPrefix is put before the text being typed.
const textPrefix = "Your answer: "

// Prompt reads keys until Enter, Esc or Ctrl+C, and returns the text
// without surrounding spaces, or the default when that leaves nothing.
func (p *textPrompt) Prompt(*survey.PromptConfig) (any, error) {
	for {
		k, err := p.s.nextKey(p.render)
		if err != nil {
			return nil, err
		}
		switch k.kind {
		case keyEnter:
			text := strings.TrimSpace(string(p.text))
			if text == "" {
				text = p.def
			}
			return text, nil
		case keyRune:
			p.text = slices.Insert(p.text, p.pos, k.r)
			p.pos++
			p.message = ""
		case keyBackspace:
			if p.pos > 0 {
				p.text = slices.Delete(p.text, p.pos-1, p.pos)
				p.pos--
			}
		case keyDelete:
			if p.pos < len(p.text) {
				p.text = slices.Delete(p.text, p.pos, p.pos+1)
			}
		case keyLeft:
			p.pos = max(0, p.pos-1)
		case keyRight:
			p.pos = min(len(p.text), p.pos+1)
		case keyHome:
			p.pos = 0
		case keyEnd:
			p.pos = len(p.text)
		case keyClearLine:
			p.text = slices.Delete(p.text, 0, p.pos)
			p.pos = 0
		case keyDeleteWord:
			i := p.pos
			for i > 0 && unicode.IsSpace(p.text[i-1]) {
				i--
			}
			for i > 0 && !unicode.IsSpace(p.text[i-1]) {
				i--
			}
			p.text = slices.Delete(p.text, i, p.pos)
			p.pos = i
		}
	}
}

// validateText accepts typed text when CheckOther does, and otherwise says
// why, to be shown before the prompt is asked again.
func validateText(v any) error {
	s, _ := v.(string)
	switch _, err := prompt.CheckOther(s); {
	case err == nil:
		return nil
	case errors.Is(err, prompt.ErrOtherEmpty):
		return errors.New("an answer is needed: type it, or press Esc to cancel")
	default:
		return fmt.Errorf("your answer %s; type it again, or press Esc to cancel", err)
	}
}

// askText asks a text prompt until its answer passes CheckOther, and
// returns the answer as CheckOther cleans it.
func askText(s *session, p *textPrompt) (string, error) {
	text, err := askOne[string](s, p, validateText)
	if err != nil {
		return "", err
	}
	return prompt.CheckOther(text)
}

// Cleanup leaves the prompt on screen: whatever is drawn next replaces it,
// and the last one is erased when the TUI is done.
func (p *textPrompt) Cleanup(*survey.PromptConfig, any) error { return nil }

// Error keeps the reason to show it when the prompt is drawn again.
func (p *textPrompt) Error(_ *survey.PromptConfig, err error) error {
	p.message = err.Error()
	p.text, p.pos = p.text[:0], 0
	return nil
}

func (p *textPrompt) render() error {
	w, h := p.s.tui.size()
	return p.s.tui.draw(fit(textLayouts, h, func(l layout) frame { return p.frame(l, w-1) }), w)
}

func (p *textPrompt) frame(l layout, w int) frame {
	st := p.s.tui.st
	f := frame{lines: p.head(l, w)}
	if l.gap {
		f.lines = append(f.lines, "")
	}
	if len(p.chosen) > 0 {
		chosen := "Chosen: " + prompt.Display(strings.Join(p.chosen, ", "))
		f.lines = append(f.lines, st.paint(truncate(chosen, w), sgrDim))
	}
	prefix := truncate(textPrefix, w/2)
	room := max(1, w-width(prefix)-1)
	shown, col := window(p.text, p.pos, room)
	line := st.paint(prefix, sgrCyan, sgrBold) + shown
	if len(p.text) == 0 {
		line += p.hint(room)
	}
	f.focus = len(f.lines)
	f.cursor = width(prefix) + col
	f.lines = append(f.lines, line)
	if p.message != "" {
		f.lines = append(f.lines, st.paint(truncate("✖ "+sentence(p.message), w), sgrYellow))
	}
	if l.hint {
		if l.gap {
			f.lines = append(f.lines, "")
		}
		keys := "Enter submit · Esc cancel"
		if len(p.text) == 0 && p.def != "" {
			keys = fmt.Sprintf("Enter for %q · Esc cancel", prompt.Display(p.def))
		}
		f.lines = append(f.lines, st.paint(truncate(keys, w), sgrDim))
	}
	return f
}

// hint is what the empty text shows: the placeholder, or else the default.
// It is dimmed; without colour, an example says so in words.
func (p *textPrompt) hint(w int) string {
	st := p.s.tui.st
	switch {
	case p.placeholder != "" && st.color:
		return st.paint(truncate(prompt.Display(p.placeholder), w), sgrDim)
	case p.placeholder != "":
		return truncate("e.g. "+prompt.Display(p.placeholder), w)
	case p.def != "" && st.color:
		return st.paint(truncate(prompt.Display(p.def), w), sgrDim)
	}
	return ""
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
