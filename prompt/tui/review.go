package tui

import (
	"fmt"
	"strings"

	"github.com/AlecAivazis/survey/v2"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// review shows every answer and lets the person submit them, change any
// one (asking that question again, starting from its answer, and coming
// back here), or cancel.
func (t *Prompter) review(qs []schema.Question, answers []prompt.Answer) error {
	for {
		choice, err := askOne[int](t, &reviewPrompt{screen: screen{t}, qs: qs, answers: answers})
		if err != nil {
			return err
		}
		switch {
		case choice == 0:
			return nil
		case choice == len(qs)+1:
			return prompt.ErrCancelled
		}
		i := choice - 1
		a, err := t.ask(i, qs[i], answers[i])
		if err != nil {
			return err
		}
		answers[i] = a
	}
}

// reviewPrompt is the review screen: the answers, then the entries Submit
// (0), Change <header> for each question (from 1), and Cancel (the last).
type reviewPrompt struct {
	screen
	qs      []schema.Question
	answers []prompt.Answer
	cursor  int // the focused entry
}

// Prompt reads keys until an entry is chosen, or Esc or Ctrl+C.
func (p *reviewPrompt) Prompt(*survey.PromptConfig) (any, error) {
	n := len(p.qs) + 2 // Submit, Change for each question, Cancel
	for {
		k, err := p.t.nextKey(shortLayouts, p.frame, false)
		if err != nil {
			return nil, err
		}
		if c, ok := k.move(p.cursor, n); ok {
			p.cursor = c
			continue
		}
		switch {
		case k.kind == keyEnter:
			return p.cursor, nil
		case k.kind == keyRune && k.r >= '1' && k.r <= '9' && int(k.r-'0') <= n:
			return int(k.r - '1'), nil
		}
	}
}

func (p *reviewPrompt) frame(l layout, w int) frame {
	f := frame{cursor: -1}
	f.lines = append(f.lines, p.t.chip("Review", "", w), p.t.paint(truncate("Submit these answers?", w), sgrBold))
	f.gap(l)
	headers := make([]string, len(p.qs))
	labels := []string{"Submit"} // the entries
	col := 0
	for i, q := range p.qs {
		headers[i] = truncate(prompt.Display(q.Header), max(4, w/3))
		col = max(col, prompt.Width(headers[i]))
		labels = append(labels, "Change "+headers[i])
	}
	labels = append(labels, "Cancel")
	for i, h := range headers {
		pad := strings.Repeat(" ", col-prompt.Width(h))
		answer := truncate(prompt.Display(p.answers[i].String()), w-col-4)
		f.lines = append(f.lines, "  "+p.t.paint(h, sgrBold)+pad+"  "+p.t.paint(answer, sgrCyan))
		if note := p.answers[i].Note; note != "" {
			f.lines = append(f.lines, p.t.noteLine(strings.Repeat(" ", col+4), note, w))
		}
	}
	f.gap(l)
	for i, label := range labels {
		num := fmt.Sprintf("%d. ", i+1)
		if i == p.cursor {
			f.focus = len(f.lines)
			f.lines = append(f.lines, p.t.paint("❯ ", sgrCyan, sgrBold)+num+p.t.paint(truncate(label, w-5), sgrCyan, sgrBold))
		} else {
			f.lines = append(f.lines, "  "+num+truncate(label, w-5))
		}
	}
	p.t.keyHints(&f, l, w, true, "↑/↓ move", fmt.Sprintf("Enter or 1-%d choose", len(labels)), "Esc cancel")
	return f
}
