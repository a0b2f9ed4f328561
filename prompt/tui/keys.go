package tui

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/askuser/askuser/prompt"
)

// keyKind names what a keystroke means to the prompts.
type keyKind int

const (
	keyIgnore keyKind = iota // anything the prompts do not use
	keyRune                  // a printable character, in key.r
	keyUp
	keyDown
	keyLeft
	keyRight
	keyHome
	keyEnd
	keyPageUp
	keyPageDown
	keyEnter
	keyTab // Tab, or Shift+Tab
	keyBackspace
	keyDelete
	keyClearLine // Ctrl+U
	keyDeleteWord
	keyEsc
	keyInterrupt // Ctrl+C
)

type key struct {
	kind keyKind
	r    rune
}

// escWait is how long a lone Esc waits for the rest of an escape sequence
// before it counts as the Esc key. Terminals send a sequence in one write,
// so this only matters over slow links, and it keeps Esc prompt.
const escWait = 50 * time.Millisecond

// errResized is returned by a read that was interrupted by a window
// resize, or by a redraw that the caller asked for (Options.Redraw).
var errResized = errors.New("terminal resized")

// keyReader turns the bytes a terminal sends into keys. It keeps whatever
// was read ahead, so keys typed quickly are never lost between prompts.
type keyReader struct {
	in  *ttyInput
	buf []byte
}

// nextKey draws a prompt's frame, built by build with the first of
// layouts that fits (see show), and reads the next key; a resize, or a
// redraw asked for, has the frame drawn again. Esc and Ctrl+C come back
// as ErrCancelled: they cancel from every screen alike, but for a screen
// opened from another one (escBack), such as the note of an answer,
// which Esc closes: Esc then comes back as a key, and only Ctrl+C
// cancels.
//
// After Pause, the frame is drawn under its mark and takes no keys for
// as long as Pause said: what is pressed meanwhile is dropped, not kept,
// since it was meant for what was on screen before, but Ctrl+C, which
// quits whatever is shown. When a key was dropped, the mark then says so
// until the next key.
//
// A key that the caller takes (Options.Take) comes back as a *KeyError.
func (t *Prompter) nextKey(layouts []layout, build func(layout, int) frame, escBack bool) (key, error) {
	if t.forget {
		// Just before the frame is drawn rather than just after: a key
		// pressed in between cannot have been meant for anything else,
		// and a key pressed in answer to the frame is never lost.
		t.forget = false
		t.held.drop()
	}
	var until time.Time // the end of the pause, while it lasts
	if t.pause > 0 {
		until, t.pause = time.Now().Add(t.pause), 0
	}
	dropped, draw := false, true
	for {
		if draw {
			if err := t.show(layouts, build); err != nil {
				return key{}, err
			}
		}
		k, ok, err := t.held.readKeyUntil(until)
		draw = true
		switch {
		case errors.Is(err, errResized):
			continue
		case err != nil:
			return key{}, err
		case !ok: // the pause is over
			until, t.mark = time.Time{}, ""
			if dropped {
				t.mark = "✖ " + ignoredNote
			}
			continue
		case !until.IsZero() && k.kind != keyInterrupt:
			dropped, draw = true, false
			continue
		}
		// The key was pressed with the frame in sight: whatever the
		// mark said has been read.
		t.mark = ""
		switch {
		case k.kind == keyInterrupt && t.takes(KeyInterrupt):
			return key{}, &KeyError{Key: KeyInterrupt}
		case k.kind == keyInterrupt, k.kind == keyEsc && !escBack:
			return key{}, prompt.ErrCancelled
		case k.kind == keyTab && t.takes(KeyTab):
			return key{}, &KeyError{Key: KeyTab}
		}
		return k, nil
	}
}

// ignoredNote is the mark left when a key was dropped during a pause.
const ignoredNote = "A key pressed as these questions appeared was ignored: press it again."

// drop drops the keys typed so far and not yet read, but Ctrl+C, which is
// kept to be read next.
func (kr *keyReader) drop() {
	for {
		// A read that waits for nothing: what the terminal holds now.
		b, err := kr.in.read(0)
		if errors.Is(err, errResized) {
			// The frame is drawn next, as the terminal is now.
			continue
		}
		if len(b) == 0 || err != nil {
			break
		}
		kr.buf = append(kr.buf, b...)
	}
	// A terminal sends the byte 0x03 for Ctrl+C alone: no other key has
	// it in its sequence.
	interrupted := bytes.IndexByte(kr.buf, 0x03) >= 0
	kr.buf = kr.buf[:0]
	if interrupted {
		kr.buf = append(kr.buf, 0x03)
	}
}

// readKeyUntil reads the next key, and gives up at deadline (none when
// zero), with ok false, when no key has come by then. It returns
// errResized when the window was resized, or a redraw asked for, first.
func (kr *keyReader) readKeyUntil(deadline time.Time) (k key, ok bool, err error) {
	for {
		if k, n, ok := decodeKey(kr.buf); ok {
			kr.buf = kr.buf[n:]
			return k, true, nil
		}
		timeout := time.Duration(-1)
		switch {
		case len(kr.buf) > 0:
			timeout = escWait
		case !deadline.IsZero():
			if timeout = time.Until(deadline); timeout <= 0 {
				return key{}, false, nil
			}
		}
		b, err := kr.in.read(timeout)
		if err != nil {
			return key{}, false, err
		}
		if len(b) == 0 && len(kr.buf) > 0 {
			// The start of a sequence and nothing more in time: a lone Esc
			// (or an Alt chord, which nothing here uses), or a broken
			// character.
			k := key{kind: keyIgnore}
			if kr.buf[0] == 0x1b {
				k.kind = keyEsc
			}
			kr.buf = kr.buf[:0]
			return k, true, nil
		}
		kr.buf = append(kr.buf, b...)
	}
}

// controls name the control characters that the prompts use; the others
// are ignored.
var controls = map[byte]keyKind{
	'\r': keyEnter, '\n': keyEnter,
	0x03: keyInterrupt, // Ctrl+C
	'\t': keyTab,
	0x01: keyHome,                          // Ctrl+A
	0x05: keyEnd,                           // Ctrl+E
	0x7f: keyBackspace, 0x08: keyBackspace, // Backspace, Ctrl+H
	0x15: keyClearLine,  // Ctrl+U
	0x17: keyDeleteWord, // Ctrl+W
	0x10: keyUp,         // Ctrl+P
	0x0e: keyDown,       // Ctrl+N
}

// decodeKey decodes the first key in b. ok is false when b holds only the
// beginning of one.
func decodeKey(b []byte) (k key, n int, ok bool) {
	if len(b) == 0 {
		return key{}, 0, false
	}
	switch c := b[0]; {
	case c == 0x1b:
		return decodeEscape(b)
	case c == '\r' && len(b) > 1 && b[1] == '\n':
		return key{kind: keyEnter}, 2, true
	case c < 0x20 || c == 0x7f:
		return key{kind: controls[c]}, 1, true
	}
	if !utf8.FullRune(b) {
		return key{}, 0, false
	}
	r, size := utf8.DecodeRune(b)
	if r == utf8.RuneError || (r >= 0x80 && r < 0xa0) {
		return key{kind: keyIgnore}, size, true
	}
	return key{kind: keyRune, r: r}, size, true
}

// decodeEscape decodes a key that starts with Esc: ESC [ ... final (CSI),
// ESC O x (SS3), or Esc itself.
func decodeEscape(b []byte) (key, int, bool) {
	if len(b) < 2 {
		return key{}, 0, false
	}
	switch b[1] {
	case 'O':
		if len(b) < 3 {
			return key{}, 0, false
		}
		if b[2] == 'M' {
			return key{kind: keyEnter}, 3, true // keypad Enter in application mode
		}
		return key{kind: finalKey(b[2], "")}, 3, true
	case '[':
		for i := 2; i < len(b); i++ {
			c := b[i]
			if c >= 0x40 && c <= 0x7e {
				return key{kind: finalKey(c, string(b[2:i]))}, i + 1, true
			}
			if c < 0x20 || c > 0x3f {
				// Not a well-formed sequence: drop what was read of it.
				return key{kind: keyIgnore}, i, true
			}
		}
		if len(b) > 32 {
			return key{kind: keyIgnore}, len(b), true
		}
		return key{}, 0, false
	}
	// Esc followed by anything else is Esc pressed before another key (or
	// an Alt chord): either way it is Esc.
	return key{kind: keyEsc}, 1, true
}

// finals name CSI and SS3 sequences by their final byte, and tildes
// those that end with ~ by their first parameter.
var (
	finals = map[byte]keyKind{
		'A': keyUp, 'B': keyDown, 'C': keyRight, 'D': keyLeft, 'H': keyHome, 'F': keyEnd,
		'Z': keyTab, // Shift+Tab
	}
	tildes = map[int]keyKind{1: keyHome, 7: keyHome, 4: keyEnd, 8: keyEnd, 3: keyDelete, 5: keyPageUp, 6: keyPageDown}
)

// finalKey names a CSI or SS3 sequence by its final byte and parameters.
// Modifier parameters (Ctrl+↑ is ESC [ 1 ; 5 A) are ignored.
func finalKey(final byte, params string) keyKind {
	if final != '~' {
		return finals[final]
	}
	first, _, _ := strings.Cut(params, ";")
	n, _ := strconv.Atoi(first)
	return tildes[n]
}

// move says where a cursor over n entries goes on k, and whether k is a
// key that moves it: ↑ or k and ↓ or j go round at the ends, Home and
// PgUp go to the first entry, End and PgDn to the last.
func (k key) move(cursor, n int) (int, bool) {
	switch {
	case k.kind == keyUp || k.is('k'):
		return (cursor + n - 1) % n, true
	case k.kind == keyDown || k.is('j'):
		return (cursor + 1) % n, true
	case k.kind == keyHome || k.kind == keyPageUp:
		return 0, true
	case k.kind == keyEnd || k.kind == keyPageDown:
		return n - 1, true
	}
	return cursor, false
}

// is reports whether k is the printable character r.
func (k key) is(r rune) bool {
	return k.kind == keyRune && k.r == r
}
