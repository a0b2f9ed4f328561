package tui

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/AlecAivazis/survey/v2"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// textPrompt asks for a line of text: the answer of one's own after Other
// was chosen, the answer to a text question, the text of Input, or a note
// on an answer.
type textPrompt struct {
	screen
	// head lays out what is shown above the text: the question or message.
	head   func(l layout, w int) []string
	prefix string // put before the text being typed: "Your answer: ", "Note: "
	// above is a line shown above the text: the labels also chosen, in a
	// multi-select, or those a note goes with.
	above       string
	placeholder string // an example answer, shown while the text is empty
	def         string // the answer Enter takes while the text is empty
	// keys and emptyKeys, set on a screen opened from another one, list
	// what Enter and Esc do there, with text and without: Esc returns
	// errBack, to go back to that screen, rather than cancel; Ctrl+C
	// still cancels.
	keys, emptyKeys []string
	text            []rune
	pos             int // the cursor, an index into text
	message         string
}

// newTextPrompt returns a text prompt under head for an answer, starting
// with text and the cursor at its end.
func newTextPrompt(t *Prompter, head func(layout, int) []string, text string) *textPrompt {
	r := []rune(text)
	return &textPrompt{screen: screen{t}, head: head, prefix: "Your answer: ", text: r, pos: len(r)}
}

// errBack is returned by a prompt that Esc closed to go back to the one it
// was opened from.
var errBack = errors.New("back")

// Prompt reads keys until Enter, Esc or Ctrl+C, and returns the text
// without surrounding spaces, or the default when that leaves nothing.
func (p *textPrompt) Prompt(*survey.PromptConfig) (any, error) {
	for {
		k, err := p.t.nextKey(shortLayouts, p.frame, p.keys != nil)
		if err != nil {
			return nil, err
		}
		switch k.kind {
		case keyEsc:
			return nil, errBack
		case keyEnter:
			return cmp.Or(strings.TrimSpace(string(p.text)), p.def), nil
		case keyRune:
			p.text = slices.Insert(p.text, p.pos, k.r)
			p.pos++
			p.message = ""
		case keyBackspace:
			p.cut(max(0, p.pos-1), p.pos)
		case keyDelete:
			p.cut(p.pos, min(len(p.text), p.pos+1))
		case keyLeft:
			p.pos = max(0, p.pos-1)
		case keyRight:
			p.pos = min(len(p.text), p.pos+1)
		case keyHome:
			p.pos = 0
		case keyEnd:
			p.pos = len(p.text)
		case keyClearLine:
			p.cut(0, p.pos)
		case keyDeleteWord:
			i := p.pos
			for i > 0 && unicode.IsSpace(p.text[i-1]) {
				i--
			}
			for i > 0 && !unicode.IsSpace(p.text[i-1]) {
				i--
			}
			p.cut(i, p.pos)
		}
	}
}

// cut deletes the text from i to j and puts the cursor where it was.
func (p *textPrompt) cut(i, j int) {
	p.text = slices.Delete(p.text, i, j)
	p.pos = i
}

// validateText accepts typed text when CheckOther does, and otherwise says
// why, to be shown before the prompt is asked again.
var validateText = validateTyped("your answer", "cancel",
	errors.New("an answer is needed: type it, or press Esc to cancel"))

// validateTyped returns a validator that accepts text when CheckOther
// does, and blank text with the error blank (nil to accept it); what names
// the text in what it says of one refused, and esc what Esc does.
func validateTyped(what, esc string, blank error) survey.Validator {
	return func(v any) error {
		s, _ := v.(string)
		switch _, err := schema.CheckOther(s); {
		case err == nil:
			return nil
		case errors.Is(err, schema.ErrOtherEmpty):
			return blank
		default:
			return fmt.Errorf("%s %s; type it again, or press Esc to %s", what, err, esc)
		}
	}
}

// askText asks a text prompt until its answer passes validate, and
// returns the answer as CheckOther cleans it, or "" and onBlank when it
// is blank (which validate may refuse).
func askText(t *Prompter, p *textPrompt, validate survey.Validator, onBlank error) (string, error) {
	text, err := askOne[string](t, p, validate)
	if err != nil {
		return "", err
	}
	text, err = schema.CheckOther(text)
	if errors.Is(err, schema.ErrOtherEmpty) {
		return "", onBlank
	}
	return text, err
}

// askNote asks a note prompt until its note passes CheckOther or is blank,
// and returns the note as CheckOther cleans it ("" for none). Esc returns
// errBack.
func askNote(t *Prompter, p *textPrompt) (string, error) {
	p.prefix = "Note: "
	p.keys, p.emptyKeys = []string{"Enter save", "Esc back"}, []string{"Enter no note", "Esc back"}
	return askText(t, p, validateTyped("your note", "go back", nil), nil)
}

// askOther asks for the answer of one's own after Other was chosen, until
// it passes CheckOther, and returns it as CheckOther cleans it. Esc, or
// Enter with nothing typed, returns errBack: Other was not what the
// person wanted, and the options are shown again.
func askOther(t *Prompter, p *textPrompt) (string, error) {
	p.keys, p.emptyKeys = []string{"Enter submit", "Esc back"}, []string{"Enter or Esc back"}
	return askText(t, p, validateTyped("your answer", "go back", nil), errBack)
}

// Error keeps the reason to show it when the prompt is drawn again.
func (p *textPrompt) Error(_ *survey.PromptConfig, err error) error {
	p.message = err.Error()
	p.text, p.pos = p.text[:0], 0
	return nil
}

func (p *textPrompt) frame(l layout, w int) frame {
	f := frame{lines: p.head(l, w)}
	f.gap(l)
	if p.above != "" {
		f.lines = append(f.lines, p.t.paint(truncate(prompt.Display(p.above), w), sgrDim))
	}
	prefix := truncate(p.prefix, w/2)
	room := max(1, w-prompt.Width(prefix)-1)
	// What was typed (or pasted) is drawn by the rule every text from
	// outside is drawn by: a control character or a bidirectional
	// override is shown as its escape, not obeyed. Each side of the
	// cursor is drawn on its own, so that the cursor stays after what it
	// follows.
	before := []rune(prompt.Display(string(p.text[:p.pos])))
	drawn := append(before, []rune(prompt.Display(string(p.text[p.pos:])))...)
	shown, col := window(drawn, len(before), room)
	line := p.t.paint(prefix, sgrCyan, sgrBold) + shown
	if len(p.text) == 0 {
		line += p.hint(room)
	}
	f.focus = len(f.lines)
	f.cursor = prompt.Width(prefix) + col
	f.lines = append(f.lines, line)
	f.refused(p.t, p.message, w)
	keys := []string{"Enter submit", "Esc cancel"}
	switch {
	case p.keys != nil && len(p.text) == 0:
		keys = append(slices.Clip(p.emptyKeys), interruptHint)
	case p.keys != nil:
		keys = append(slices.Clip(p.keys), interruptHint)
	case len(p.text) == 0 && p.def != "":
		keys[0] = fmt.Sprintf(`Enter for "%s"`, prompt.Display(p.def))
	}
	p.t.keyHints(&f, l, w, false, keys...)
	return f
}

// hint returns what the empty text shows: the placeholder, or else the default.
// It is dimmed; without colour, an example says so in words, and a
// default is not shown.
func (p *textPrompt) hint(w int) string {
	switch {
	case p.t.Color:
		return p.t.paint(truncate(prompt.Display(cmp.Or(p.placeholder, p.def)), w), sgrDim)
	case p.placeholder != "":
		return truncate("e.g. "+prompt.Display(p.placeholder), w)
	}
	return ""
}
