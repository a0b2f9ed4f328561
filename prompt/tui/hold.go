package tui

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/askuser/askuser/prompt"
)

// What a caller that shows one set of questions after another on the
// same terminal needs beyond Ask: askuser inbox holds
// the terminal for as long as it runs, says what happened to each set in
// lines that stay above the screen, waits on a screen of its own while
// nothing is to be answered, and takes some keys for itself.

// Key is a key that the caller can take over (Options.Take), by the name
// a person knows it by.
type Key string

// The keys a caller can take over.
const (
	KeyTab       Key = "Tab" // Tab, or Shift+Tab
	KeyInterrupt Key = "Ctrl+C"
)

// KeyError is the error of an Ask or Idle that a key the
// caller took ended (see Options.Take).
type KeyError struct {
	Key Key
}

func (e *KeyError) Error() string { return string(e.Key) + " pressed" }

// ErrQuit is the error of an Idle that the person ended with q.
var ErrQuit = errors.New("quit")

func (t *Prompter) takes(k Key) bool { return t.Take != nil && t.Take(k) }

// Hold takes the terminal over for a caller that asks one set of
// questions after another (askuser inbox): it puts it in raw mode and
// starts reading keys now, and Ask and Idle then leave
// both as they are until Release, rather than each taking the terminal
// and giving it back. Between them the terminal would otherwise echo what
// is typed over the screen; held, it keeps what is typed for the next
// (but see Forget). Each still erases its frame before it returns.
//
// Call Hold, the calls that ask, Forget and Release from one goroutine.
func (t *Prompter) Hold() error {
	if t.held != nil {
		return errors.New("terminal ui is already held")
	}
	// Raw mode: every key arrives at once and unechoed, and Ctrl+C as a
	// key rather than a signal.
	// Under the lock, as Restore from another goroutine reads what to
	// put back.
	t.mu.Lock()
	saved, err := term.MakeRaw(int(t.In.Fd()))
	if err != nil {
		t.mu.Unlock()
		return fmt.Errorf("set terminal mode: %w", err)
	}
	t.saved, t.undoOut = saved, setUpOutput(int(t.Out.Fd()))
	t.mu.Unlock()
	in, err := newTTYInput(t.In, t.Redraw)
	if err != nil {
		// The error that matters is that the terminal cannot be read.
		_ = t.Restore()
		return fmt.Errorf("read terminal: %w", err)
	}
	t.held = &keyReader{in: in}
	return nil
}

// Release gives back the terminal that Hold took, as it was found, after
// erasing what is on screen but the lines printed above it. Restore does
// the same from another goroutine, for a signal path that cannot wait.
func (t *Prompter) Release() error {
	if t.held != nil {
		t.held.in.close()
		t.held = nil
	}
	cerr := t.clear()
	return cmp.Or(t.Restore(), cerr)
}

// Forget has the next frame drawn drop, as it is drawn, every key typed
// before it but Ctrl+C: when the caller shows another set of
// questions, keys typed for the screen that has gone (an answer to a set
// just withdrawn) must not answer the one that replaced it, which the
// person had not seen. Ctrl+C is kept: it quits whatever is shown.
func (t *Prompter) Forget() { t.forget = true }

// Pause has the next frame drawn take no keys for d once it is drawn,
// and show note above it meanwhile (marked ⏸): for a set of questions
// that appears without the person moving to it (another was withdrawn,
// or answered elsewhere, or it is the first to arrive), a key pressed
// just then was meant for what was on screen before, and must not answer
// what the person has not seen. Keys pressed meanwhile are dropped, not
// kept for later, but Ctrl+C, which quits whatever is shown. When one was
// dropped, a line says so until the next key. Call it with Forget, which
// drops what was typed before the frame.
func (t *Prompter) Pause(d time.Duration, note string) { t.pause, t.mark = d, "⏸ "+note }

// Idle shows a screen with nothing to answer: the banner, title as a
// chip, text, and the keys: q to quit, and the caller's hints. It returns
// ErrQuit when q is pressed, context.Cause(ctx) when ctx is done, and for
// Ctrl+C the *KeyError of a caller that takes it (else ErrCancelled);
// other keys do nothing. The screen is erased before Idle returns.
func (t *Prompter) Idle(ctx context.Context, title, text string) error {
	return t.run(ctx, 0, func() error {
		build := func(l layout, w int) frame {
			f := frame{cursor: -1, lines: []string{t.chip(title, "", w)}}
			f.lines = append(f.lines, prompt.Wrap(prompt.DisplayMultiline(text), w)...)
			t.keyHints(&f, l, w, false, "q quit")
			return f
		}
		for {
			k, err := t.nextKey(shortLayouts, build, true)
			if err != nil {
				return err
			}
			if k.is('q') || k.is('Q') {
				return ErrQuit
			}
		}
	})
}

// Print writes text above the frame on screen, which is drawn again under
// it, so that the text stays on the terminal (and in its scrollback) while
// the frames come and go. It may be called from any goroutine. Text from
// elsewhere must have been made safe with prompt.Display.
func (t *Prompter) Print(text string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if t.saved == nil {
		// The terminal is in line mode, and nothing of ours is on it.
		_, err := t.Out.Write([]byte(text))
		return err
	}
	return t.redraw(text, t.last)
}

// PrintSummary prints the answers as Finish does ("✔ Database:
// PostgreSQL"), each line after prefix, which says whose answers they
// were, above the frame on screen (see Print).
func (t *Prompter) PrintSummary(prefix string, summary []prompt.Summary) error {
	return t.Print(t.summary(prefix, summary))
}

// PrintNotice prints a line above the frame on screen (see Print) that
// says what became of questions: marked ✔ when they were answered, and ✖
// when they were not.
func (t *Prompter) PrintNotice(answered bool, text string) error {
	mark := t.paint("✖", sgrYellow)
	if answered {
		mark = t.paint("✔", sgrGreen)
	}
	return t.Print(mark + " " + prompt.Display(text))
}
