package tui

import (
	"github.com/AlecAivazis/survey/v2"
)

// confirmPrompt asks a yes/no question: y or n answer at once, ←/→ or
// Tab move between Yes and No, and Enter takes the one focused.
type confirmPrompt struct {
	screen
	head func(l layout, w int) []string
	yes  bool // Yes is focused, rather than No
}

// Prompt reads keys until y, n, Enter, Esc or Ctrl+C.
func (p *confirmPrompt) Prompt(*survey.PromptConfig) (any, error) {
	for {
		k, err := p.t.nextKey(shortLayouts, p.frame, false)
		if err != nil {
			return nil, err
		}
		switch {
		case k.is('y') || k.is('Y'):
			return true, nil
		case k.is('n') || k.is('N'):
			return false, nil
		case k.kind == keyEnter:
			return p.yes, nil
		case k.kind == keyLeft || k.kind == keyHome || k.is('h'):
			p.yes = true
		case k.kind == keyRight || k.kind == keyEnd || k.is('l'):
			p.yes = false
		case k.kind == keyTab || k.kind == keyUp || k.kind == keyDown || k.is('j') || k.is('k'):
			p.yes = !p.yes
		}
	}
}

func (p *confirmPrompt) frame(l layout, w int) frame {
	f := frame{lines: p.head(l, w), cursor: -1}
	f.gap(l)
	choice := func(label string, focused bool) string {
		if focused {
			return p.t.paint("❯ "+label, sgrCyan, sgrBold)
		}
		return "  " + label
	}
	f.focus = len(f.lines)
	f.lines = append(f.lines, choice("Yes", p.yes)+"   "+choice("No", !p.yes))
	p.t.keyHints(&f, l, w, true, "y yes", "n no", "←/→ move", "Enter choose", "Esc cancel")
	return f
}
