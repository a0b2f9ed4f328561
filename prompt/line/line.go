// Package line asks with numbered prompts, a line typed per answer: for
// pipes, scripts, screen readers and dumb terminals.
package line

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// maxLineLength is the longest answer line read; the rest of a longer line is
// read and dropped, and the question asked again.
const maxLineLength = 64 << 10

// Prompter asks with numbered prompts: a question, its options numbered from 1,
// and a line to type the answer on, or n to write a note on it first. It
// suits pipes, scripts, screen readers and dumb terminals.
type Prompter struct {
	in  *bufio.Reader
	out io.Writer
	// echo repeats each line read after its prompt, for input that is not
	// a terminal and so is not echoed: the transcript then reads as typed.
	echo bool
	// lines delivers what a reader goroutine read, so that Ask can stop
	// waiting when its context ends. One goroutine reads at a time.
	lines chan lineResult
	// spoke is set once the input has given a line.
	spoke bool
}

// lineResult is what ReadLine returned.
type lineResult struct {
	text string
	err  error
}

// New returns a line prompter that reads answers from in and writes prompts
// to out. All of its questions share one buffered reader on in. With echo,
// each answer read is written after its prompt.
func New(in io.Reader, out io.Writer, echo bool) *Prompter {
	// A *bufio.Reader of the default size or more is used as it is.
	return &Prompter{in: bufio.NewReader(in), out: out, echo: echo}
}

// Ask asks each question in turn. An input that is not a terminal (see
// echo) and ends before it gave a single line asked nobody: its error is a
// *prompt.NobodyError. On a terminal, a person ended it.
func (l *Prompter) Ask(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
	answers := make([]prompt.Answer, 0, len(qs))
	for i, q := range qs {
		a, err := l.ask(ctx, q, i, len(qs))
		if errors.Is(err, prompt.ErrNoAnswer) {
			err = &prompt.ShortError{Answered: i}
			if l.echo && !l.spoke {
				err = &prompt.NobodyError{Err: err}
			}
		}
		if err != nil {
			return nil, err
		}
		answers = append(answers, a)
	}
	return answers, nil
}

// ask asks q, question i of n, as its form is asked: a yes/no question
// on one line; else under its header (unless it is asked alone) and its
// text, typed text, or the options.
func (l *Prompter) ask(ctx context.Context, q schema.Question, i, n int) (prompt.Answer, error) {
	if q.Kind.Gesture() == schema.GestureYesNo {
		return l.confirm(ctx, q)
	}
	var b strings.Builder
	// Everything from the input is drawn through prompt.Display or
	// DisplayMultiline, so that a terminal shows it and obeys none of it.
	if !q.Kind.Alone() {
		fmt.Fprintf(&b, "[%d/%d] %s\n", i+1, n, prompt.Display(q.Header))
	}
	fmt.Fprintf(&b, "%s\n", prompt.DisplayMultiline(q.Question))
	switch {
	case !q.Kind.Typed():
		writeOptions(&b, q)
	case q.Placeholder != "":
		fmt.Fprintf(&b, "  e.g. %s\n", prompt.Display(q.Placeholder))
	}
	// As say's: the prompt that readLine writes next reports a failure.
	_, _ = io.WriteString(l.out, b.String())
	if q.Kind.Typed() {
		return l.typed(ctx, q)
	}
	return l.choose(ctx, q, b.String())
}

// typed asks q for typed text, until CheckOther accepts it; Enter on
// nothing takes its default, if any.
func (l *Prompter) typed(ctx context.Context, q schema.Question) (prompt.Answer, error) {
	ask := textPrompt
	if q.Default != "" {
		ask = fmt.Sprintf(`Your answer (Enter for "%s"): `, prompt.Display(q.Default))
	}
	for {
		text, err := l.readTyped(ctx, ask, "Your answer", "press Ctrl+C to cancel", schema.ErrOtherEmpty)
		switch {
		case !errors.Is(err, schema.ErrOtherEmpty):
			return prompt.Answer{Other: text}, err
		case q.Default != "":
			return prompt.Answer{Other: q.Default}, nil
		}
		l.say("Your answer cannot be empty; type it, or press Ctrl+C to cancel.")
	}
}

// choose asks for q's choice, shown (the question and its options) above:
// numbers or labels, or n for a note on the answer, and the person's own
// answer when Other is chosen. Nothing typed there goes back to the
// options, shown again.
func (l *Prompter) choose(ctx context.Context, q schema.Question, shown string) (prompt.Answer, error) {
	ask := "Enter a number (Enter for 1, 0 for your own answer): "
	if q.MultiSelect {
		ask = "Enter numbers separated by commas or spaces (0 for your own answer): "
	}
	note := ""
	for {
		line, err := l.readLine(ctx, ask)
		if err != nil {
			return prompt.Answer{}, err
		}
		if isNoteKey(q, line) {
			// The note is asked before the answer it goes with: the
			// question is said again, as the options may be far above.
			next := "the number you enter next"
			if q.MultiSelect {
				next = "the numbers you enter next"
			}
			l.say(fmt.Sprintf("A note on your answer to: %s (%s)", prompt.Display(q.Question), next))
			// An empty line is no note.
			note, err = l.readTyped(ctx, "Your note (Enter for none): ", "Your note", "press Enter for none", nil)
			if err != nil {
				return prompt.Answer{}, err
			}
			continue
		}
		labels, other, problem := parseChoice(q, line)
		if problem != "" {
			l.say(problem)
			continue
		}
		a := prompt.Answer{Labels: labels, Note: note}
		if other {
			a.Other, err = l.readTyped(ctx, textPrompt, "Your answer", "press Enter to go back to the options", errBack)
			if errors.Is(err, errBack) {
				// Other was not what the person wanted after all: the
				// question again, from its options.
				_, _ = io.WriteString(l.out, "Nothing typed: back to the options.\n"+shown)
				continue
			}
			if err != nil {
				return prompt.Answer{}, err
			}
		}
		return a, nil
	}
}

// writeOptions writes the numbered options of q, and Other, numbered 0.
func writeOptions(b *strings.Builder, q schema.Question) {
	for j, o := range q.Options {
		fmt.Fprintf(b, "  %d. %s\n", j+1, prompt.Display(o.Label))
		if o.Description != "" { // askuser choose's options have none
			writeIndented(b, prompt.DisplayMultiline(o.Description), "     ")
		}
		if o.Preview != "" && !q.MultiSelect {
			writeIndented(b, prompt.DisplayMultiline(o.Preview), "     │ ")
		}
	}
	b.WriteString("  0. Other (type your own answer)\n")
}

// isNoteKey reports whether line asks to write a note on the answer: n,
// in either case, when no option is called that. No line that answers a
// question is one, so answers given by a script are read as they always
// were.
func isNoteKey(q schema.Question, line string) bool {
	line = strings.TrimSpace(line)
	if !q.Kind.OffersNote() || !strings.EqualFold(line, "n") {
		return false
	}
	_, named := q.Choice(line)
	return !named
}

// textPrompt asks for the person's own answer: after Other, or to a
// question of typed text.
const textPrompt = "Your answer: "

// errBack is what reading the person's own answer after Other returns for
// an empty line (nothing but what draws nothing): there is no answer of
// one's own, so the person is taken back to the options, and a number
// typed next chooses one.
var errBack = errors.New("back to the options")

// readTyped asks with ask until CheckOther accepts the line, and returns
// it as CheckOther cleans it; an empty line returns "" and onEmpty. A line
// refused is named what, and instead says what else the person can do.
func (l *Prompter) readTyped(ctx context.Context, ask, what, instead string, onEmpty error) (string, error) {
	for {
		line, err := l.readLine(ctx, ask)
		if err != nil {
			return "", err
		}
		switch s, err := schema.CheckOther(line); {
		case err == nil:
			return s, nil
		case errors.Is(err, schema.ErrOtherEmpty):
			return "", onEmpty
		default:
			l.say(fmt.Sprintf("%s %s; type it again, or %s.", what, err, instead))
		}
	}
}

// confirm asks a yes/no question; an empty line takes its default. It
// accepts y, yes, n and no in any case.
func (l *Prompter) confirm(ctx context.Context, q schema.Question) (prompt.Answer, error) {
	ask := prompt.DisplayMultiline(q.Question) + " [Y/n]: "
	if q.Default != schema.Yes {
		ask = prompt.DisplayMultiline(q.Question) + " [y/N]: "
	}
	labels := map[string]string{"": q.Default, "y": schema.Yes, "yes": schema.Yes, "n": schema.No, "no": schema.No}
	for {
		line, err := l.readLine(ctx, ask)
		if err != nil {
			return prompt.Answer{}, err
		}
		if label, ok := labels[strings.ToLower(strings.TrimSpace(line))]; ok {
			return prompt.Answer{Labels: []string{label}}, nil
		}
		l.say("Answer yes or no (y/n).")
	}
}

// ErrAskAgain is what a reader given to New returns, rather than a line,
// for a line that it has refused to give as an answer (and said why): the
// prompt is shown again, and the next line read.
var ErrAskAgain = errors.New("ask again")

// readLine shows ask and reads one line from the shared reader, without
// its line ending. A line over maxLineLength is refused and asked again;
// end of input before any text is ErrNoAnswer.
func (l *Prompter) readLine(ctx context.Context, ask string) (string, error) {
	for {
		if _, err := io.WriteString(l.out, ask); err != nil {
			return "", fmt.Errorf("write prompt: %w", err)
		}
		if l.lines == nil {
			l.lines = make(chan lineResult, 1)
			go func() {
				text, err := ReadLine(l.in)
				l.lines <- lineResult{text, err}
			}()
		}
		var r lineResult
		select {
		case <-ctx.Done():
			l.say("")
			return "", context.Cause(ctx)
		case r = <-l.lines:
			l.lines = nil
		}
		switch {
		case errors.Is(r.err, ErrAskAgain):
			continue
		case errors.Is(r.err, io.EOF):
			l.say("")
			return "", prompt.ErrNoAnswer
		case r.err != nil:
			l.say("")
			return "", fmt.Errorf("read answer: %w", r.err)
		}
		l.spoke = true
		if len(r.text) > maxLineLength {
			// ReadLine cut it to one byte more.
			if l.echo {
				l.say("…")
			}
			l.say(fmt.Sprintf("That line is longer than %d KiB; enter a shorter answer.", maxLineLength>>10))
			continue
		}
		if l.echo {
			l.say(prompt.Display(r.text))
		}
		return r.text, nil
	}
}

// say writes a line for the person. A failed write is not reported here:
// the prompt written next goes to the same place, and reports it.
func (l *Prompter) say(line string) {
	_, _ = io.WriteString(l.out, line+"\n")
}

// ReadLine reads one line from br, without its line ending (LF or CRLF);
// the last line may lack one, and io.EOF is the end of the input before
// any text. A line longer than maxLineLength is cut to one byte more,
// which a Prompter refuses as too long: so a reader that reads lines ahead
// (the inbox's) keeps no more of one than the Prompter it hands them to.
func ReadLine(br *bufio.Reader) (string, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		// Room for one byte too many and "\r\n".
		buf = append(buf, chunk[:min(len(chunk), maxLineLength+3-len(buf))]...)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil, errors.Is(err, io.EOF) && len(buf) > 0:
			text := strings.TrimSuffix(strings.TrimSuffix(string(buf), "\n"), "\r")
			return text[:min(len(text), maxLineLength+1)], nil
		}
		return "", err
	}
}

func writeIndented(b *strings.Builder, text, indent string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintf(b, "%s%s\n", indent, strings.TrimRight(line, " \t\r"))
	}
}

// parseChoice reads a typed choice for q: a number (1-N, or 0 for the
// person's own answer), an option's label (ignoring case) or "other"; in a
// multi-select question, several of these separated by commas or spaces.
// An empty line chooses the first option of a single-select question; of a
// multi-select, it chooses nothing, and is asked again, as the terminal UI
// refuses Enter with nothing ticked: a stray blank line in piped answers
// must not choose for the person. It returns the chosen labels in
// option order and whether the person's own answer should be asked for, or
// a problem to show before asking again.
func parseChoice(q schema.Question, line string) (labels []string, other bool, problem string) {
	line = strings.TrimSpace(line)
	want := fmt.Sprintf("enter a number from 0 to %d", len(q.Options))
	if q.MultiSelect {
		want = fmt.Sprintf("enter numbers from 0 to %d, separated by commas or spaces", len(q.Options))
	}
	switch {
	case line == "" && q.MultiSelect:
		return nil, false, "Choose at least one: " + want + "."
	case line == "":
		return []string{q.Options[0].Label}, false, ""
	}
	var picks []int
	if j, ok := q.Choice(line); ok {
		// A whole line that names one option, even one with spaces or
		// commas in its label, is that option.
		picks = []int{j}
	} else {
		for _, part := range strings.Split(line, ",") {
			got, problem := pickWords(q, strings.Fields(part))
			if problem != "" {
				return nil, false, problem
			}
			picks = append(picks, got...)
		}
	}
	if len(picks) == 0 {
		// Only separators: not the empty line that takes the default.
		return nil, false, fmt.Sprintf(`"%s" is not a choice: %s.`, prompt.Display(line), want)
	}
	if !q.MultiSelect && len(picks) > 1 {
		return nil, false, "Choose one option: enter a single number."
	}
	// Each choice once, in option order; Other, -1, first.
	slices.Sort(picks)
	for _, j := range slices.Compact(picks) {
		if j < 0 {
			other = true
		} else {
			labels = append(labels, q.Options[j].Label)
		}
	}
	return labels, other, ""
}

// pickWords reads words separated by spaces as choices. A label may have
// spaces in it, so the longest run of words that names an option is taken
// first: "full text search 2" is the option "Full text search" and option 2.
func pickWords(q schema.Question, words []string) (picks []int, problem string) {
	for i := 0; i < len(words); {
		j := len(words)
		for ; j > i; j-- {
			if k, ok := q.Choice(strings.Join(words[i:j], " ")); ok {
				picks = append(picks, k)
				break
			}
		}
		if j > i {
			i = j
			continue
		}
		if isNumber(words[i]) {
			return nil, fmt.Sprintf("%s is not a choice: enter a number from 0 to %d.", words[i], len(q.Options))
		}
		// A label, misspelt: quote all of its words, drawn as every other
		// text is (%q would leave a character that draws nothing as it is).
		j = i + 1
		for j < len(words) && !isNumber(words[j]) {
			j++
		}
		misspelt := prompt.Display(strings.Join(words[i:j], " "))
		return nil, fmt.Sprintf(`No option is called "%s": enter a number from 0 to %d, or an option's label.`, misspelt, len(q.Options))
	}
	return picks, ""
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}
