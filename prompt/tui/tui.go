// Package tui asks in the terminal: one screen per question, drawn on the
// terminal that stderr (or --tty) is and read key by key from it in raw
// mode, with the terminal put back as it was found on every way out.
package tui

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/AlecAivazis/survey/v2"
	"github.com/AlecAivazis/survey/v2/terminal"
	"golang.org/x/term"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Options configures the terminal UI.
type Options struct {
	// In is the terminal the keys are read from: stdin, or /dev/tty.
	In terminal.FileReader
	// Out is the terminal the questions are drawn on: stderr, or the same
	// /dev/tty. Nothing is ever written anywhere else.
	Out terminal.FileWriter
	// Color turns on colours and text styles (the command line reads
	// NO_COLOR and its kin). Without it no SGR sequence is written at all;
	// only cursor movement is.
	Color bool
	// Review shows every answer after the last of two or more questions,
	// to submit, change one, or cancel.
	Review bool

	// The options below serve a caller that shows one set of questions
	// after another on the same terminal, as askuser inbox does (see
	// Hold); askuser itself leaves them unset.

	// Banner, when set, gives the line drawn above every frame, which
	// says whose questions these are: its parts are joined by " · ", the
	// first bold and the others dimmed. It is asked again at every frame.
	Banner func() []string
	// Hints, when set, gives hints added to the keys listed under every
	// frame, for the keys the caller takes (see Take). It is asked again
	// at every frame.
	Hints func() []string
	// Take, when set, is asked about each press of a Key (Tab, Ctrl+C):
	// when it says yes, the key does what the caller says rather than what
	// it does here (Tab moves between Yes and No, Ctrl+C cancels), and the
	// call in progress returns a *KeyError naming it.
	Take func(Key) bool
	// Redraw, when set, has the frame on screen drawn again, its banner
	// and hints asked again, at each receive from it: for what the caller
	// shows to change while keys are typed, and none is lost.
	Redraw <-chan struct{}
}

// Prompter asks questions in the terminal, one screen per question, with the
// arrow keys, j/k, digits, Space and Enter; a text question, Confirm and
// Input each take one screen too. Esc or Ctrl+C cancel from any screen,
// the review included, but for the note and the answer of one's own after
// Other, which Esc leaves for the options (Ctrl+C still cancels).
//
// While it asks, the terminal is in raw mode with the cursor hidden except
// where text is typed. Ask puts it back as they found it
// before returning, whatever the reason they return, and erase what they
// drew. Restore does the same from another goroutine, for a signal path
// that cannot wait for them.
//
// Nothing is left on the screen to say what was answered: Finish, called
// once all answers are known, shows them.
type Prompter struct {
	Options

	// total is the number of questions of the call that asks, for the
	// progress its screens show.
	total int
	// held is the key reader of a terminal held across calls (see Hold),
	// nil when each call takes the terminal for itself; forget has the
	// next frame drop the keys typed before it (see Forget). Only the
	// goroutine that asks uses them.
	held   *keyReader
	forget bool
	// pause is how long the next frame drawn takes no keys (see Pause);
	// mark is the line shown above the frame while the pause lasts, and
	// after it when a key was dropped.
	pause time.Duration
	mark  string

	// mu guards the terminal: its saved mode and everything written to it.
	mu      sync.Mutex
	saved   *term.State // mode to put back; nil when the terminal is ours no more
	undoOut func()      // undoes output set-up (Windows console modes)
	hidden  bool        // the cursor is hidden
	last    frame       // the frame on screen; no lines when there is none
	row     int         // line of that frame the cursor is on
	col     int         // column the cursor is at
}

// New returns a terminal UI prompter on the given terminal.
func New(opts Options) *Prompter {
	return &Prompter{Options: opts}
}

var _ prompt.Prompter = (*Prompter)(nil)

// Ask asks each question in turn and returns the answers. With the
// Review option and two or more questions, it then shows every answer and
// lets the person submit them, change any of them, or cancel. It returns
// ErrCancelled when the person presses Esc or Ctrl+C (or chooses Cancel),
// and context.Cause(ctx) as soon as ctx is done. In every case the
// questions are erased and the terminal is restored before Ask returns.
func (t *Prompter) Ask(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
	if len(qs) == 0 {
		return nil, nil
	}
	answers := make([]prompt.Answer, len(qs))
	err := t.run(ctx, len(qs), func() error {
		for i, q := range qs {
			a, err := t.ask(i, q, prompt.Answer{})
			if err != nil {
				return err
			}
			answers[i] = a
		}
		if t.Review && len(qs) > 1 {
			return t.review(qs, answers)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return answers, nil
}

// run takes the terminal over for one conversation: raw mode, keys read
// in a way ctx can interrupt, and whatever f draws. Whatever happens, the
// last frame is erased and the terminal restored before run returns (but
// for a terminal held across calls, which stays as it is; see Hold). It
// returns ErrCancelled, ErrNoAnswer (the terminal's input ended) or
// context.Cause(ctx) when ctx is done, whatever f saw, or the *KeyError
// of a key that the caller takes.
func (t *Prompter) run(ctx context.Context, total int, f func() error) (err error) {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if t.held == nil {
		// The terminal is taken for this conversation only.
		if err := t.Hold(); err != nil {
			return err
		}
		defer func() {
			if rerr := t.Release(); rerr != nil && err == nil {
				err = rerr
			}
		}()
	}
	defer t.held.in.watch(ctx)()

	// What the mark of one frame says is not for the frames of another
	// call.
	defer func() { t.mark = "" }()
	t.total = total
	if err := f(); err != nil {
		// Why f stopped says more than a failure to erase the screen.
		_ = t.clear()
		if ctx.Err() != nil {
			// Whatever the read saw (a hang-up reads as end of input),
			// the reason to stop is the context's.
			return context.Cause(ctx)
		}
		_, key := errors.AsType[*KeyError](err)
		switch {
		case errors.Is(err, io.EOF):
			return prompt.ErrNoAnswer
		case errors.Is(err, prompt.ErrCancelled), errors.Is(err, ErrQuit), key:
			return err
		}
		return fmt.Errorf("terminal ui: %w", err)
	}
	return t.clear()
}

// Restore puts the terminal back the way it was found: the saved mode
// (echo and line editing on), the cursor visible and on a line of its own.
// It is safe to call from any goroutine and any number of times. Once it
// has run, the Ask in progress draws nothing more;
// cancel its context to make it return.
func (t *Prompter) Restore() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.saved == nil {
		return nil
	}
	var b bytes.Buffer
	if len(t.last.lines) > 0 {
		// Interrupted mid-question: keep what was shown, and move below it
		// so what the caller prints next starts on a fresh line.
		if n := len(t.last.lines) - 1 - t.row; n > 0 {
			fmt.Fprintf(&b, "\x1b[%dB", n)
		}
		b.WriteString("\r\n")
		t.last = frame{}
	}
	if t.hidden {
		b.WriteString("\x1b[?25h")
		t.hidden = false
	}
	_, werr := t.Out.Write(b.Bytes())
	t.undoOut()
	rerr := term.Restore(int(t.In.Fd()), t.saved)
	t.saved = nil
	// The mode matters more than what was written.
	if err := cmp.Or(rerr, werr); err != nil {
		return fmt.Errorf("restore terminal: %w", err)
	}
	return nil
}

// size returns the terminal's width and height, from the output or else
// the input, or the classic 80×24 when neither says.
func (t *Prompter) size() (w, h int) {
	for _, fd := range []int{int(t.Out.Fd()), int(t.In.Fd())} {
		if w, h, err := term.GetSize(fd); err == nil && w > 0 && h > 0 {
			return w, h
		}
	}
	return 80, 24
}

// draw replaces the frame on screen with f, in a single write; a frame of
// no lines erases it, leaving the cursor where it began.
func (t *Prompter) draw(f frame) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.redraw("", f)
}

// redraw replaces the frame on screen with text, in lines that stay, and
// f under it, in a single write. t.mu is held.
func (t *Prompter) redraw(text string, f frame) error {
	if t.saved == nil || text == "" && len(f.lines) == 0 && len(t.last.lines) == 0 {
		return nil
	}
	var b bytes.Buffer
	if len(f.lines) > 0 || len(t.last.lines) > 0 {
		t.erase(&b)
	}
	// In raw mode a line feed does not return the cursor to the start of
	// the line.
	b.WriteString(strings.ReplaceAll(text, "\n", "\r\n"))
	if len(f.lines) > 0 {
		t.put(&b, f)
	} else {
		t.last = frame{}
	}
	_, err := t.Out.Write(b.Bytes())
	return err
}

// put writes f into b, for b to be written where the cursor is at the
// start of an empty line, and keeps where f is and where the cursor ends.
// t.mu is held.
func (t *Prompter) put(b *bytes.Buffer, f frame) {
	if f.cursor < 0 && !t.hidden {
		b.WriteString("\x1b[?25l")
		t.hidden = true
	}
	b.WriteString(strings.Join(f.lines, "\r\n"))
	t.last = f
	t.row = len(f.lines) - 1
	t.col = prompt.Width(f.lines[t.row])
	if f.cursor >= 0 {
		if n := t.row - f.focus; n > 0 {
			fmt.Fprintf(b, "\x1b[%dA", n)
		}
		b.WriteString("\r")
		if f.cursor > 0 {
			fmt.Fprintf(b, "\x1b[%dC", f.cursor)
		}
		t.row, t.col = f.focus, f.cursor
		if t.hidden {
			b.WriteString("\x1b[?25h")
			t.hidden = false
		}
	}
}

// clear erases the frame on screen, leaving the cursor where it began.
func (t *Prompter) clear() error { return t.draw(frame{}) }

// erase moves the cursor to the first line of the frame on screen and
// erases from there down. A line counts as several rows when a terminal
// that narrowed since it was drawn has rewrapped it.
func (t *Prompter) erase(b *bytes.Buffer) {
	b.WriteString("\r")
	if len(t.last.lines) == 0 {
		b.WriteString("\x1b[J")
		return
	}
	termWidth, _ := t.size()
	rows := func(w int) int { return max(1, (w+termWidth-1)/termWidth) }
	up := rows(t.col) - 1
	for _, l := range t.last.lines[:t.row] {
		up += rows(prompt.Width(l))
	}
	if up > 0 {
		fmt.Fprintf(b, "\x1b[%dA", up)
	}
	b.WriteString("\x1b[J")
}

// ask asks one question: the list of options, then the text prompt when
// Other was chosen; for typed text, the text prompt alone, where Enter on
// nothing takes the default, if any; for a yes/no question, Yes and No.
// From the list, n opens the note on the answer, and Esc there goes back
// to the list with the note as it was; from the Other prompt, Esc or
// Enter with nothing typed goes back to the list as it was. prev is the
// answer being changed, if any, to start from.
func (t *Prompter) ask(index int, q schema.Question, prev prompt.Answer) (prompt.Answer, error) {
	head := func(l layout, w int) []string { return t.heading(q, index, l, w) }
	switch q.Kind.Gesture() {
	case schema.GestureYesNo:
		// On an error, the answer is not read.
		yes, err := askOne[bool](t, &confirmPrompt{screen: screen{t}, head: head, yes: q.Default == schema.Yes})
		return prompt.Answer{Labels: []string{schema.YesOrNo(yes)}}, err
	case schema.GestureType:
		text := newTextPrompt(t, head, prev.Other)
		text.placeholder, text.def = q.Placeholder, q.Default
		other, err := askText(t, text, validateText, nil)
		return prompt.Answer{Other: other}, err
	}
	list := newListPrompt(t, q, index, prev)
	for {
		choice, err := askOne[*listResult](t, list, list.validate)
		if err != nil {
			return prompt.Answer{}, err
		}
		if choice.note {
			// n: the note, then the list again, as it was.
			text := newTextPrompt(t, head, list.note)
			text.above = "For: " + strings.Join(list.noteFor(), ", ")
			switch note, err := askNote(t, text); {
			case err == nil:
				list.note = note
			case !errors.Is(err, errBack): // Esc leaves the note as it was
				return prompt.Answer{}, err
			}
			continue
		}
		a := prompt.Answer{Labels: choice.labels, Note: list.note}
		if !choice.other {
			return a, nil
		}
		text := newTextPrompt(t, head, prev.Other)
		if len(a.Labels) > 0 {
			text.above = "Chosen: " + strings.Join(a.Labels, ", ")
		}
		switch a.Other, err = askOther(t, text); {
		case errors.Is(err, errBack):
			continue
		case err != nil:
			return prompt.Answer{}, err
		}
		return a, nil
	}
}

// askOne runs a prompt through survey, which prompts, validates, has the
// prompt say why an answer is not accepted (its Error method) and prompts
// again. survey itself writes nothing: each prompt here draws on the
// terminal through the Prompter and reads keys from it. survey hands the
// streams given with WithStdio only to prompts that implement its
// WithStdio method, and these do not; they are given so that a prompt of
// survey's own, were one used here, would draw on the terminal rather than
// on survey's default, stdout.
func askOne[T any](t *Prompter, p survey.Prompt, validators ...survey.Validator) (T, error) {
	var v T
	opts := []survey.AskOpt{survey.WithStdio(t.In, t.Out, t.Out)}
	for _, val := range validators {
		opts = append(opts, survey.WithValidator(val))
	}
	err := survey.AskOne(p, &v, opts...)
	return v, err
}

// screen is what the prompts here share: the Prompter they draw on and
// read keys from, and what survey asks of a prompt besides Prompt. A
// prompt stays on screen once answered: whatever is drawn next replaces
// it, and the last one is erased when the prompter is done (Cleanup). A
// prompt that takes every answer ignores Error, which survey then never
// calls; one that refuses answers has an Error of its own that keeps the
// reason, to show when the prompt is drawn again.
type screen struct{ t *Prompter }

func (screen) Cleanup(*survey.PromptConfig, any) error { return nil }

func (screen) Error(*survey.PromptConfig, error) error { return nil }
