package prompt

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/askuser/askuser/schema"
)

// The text of the questions is written by a program (often a model) and is
// drawn on a person's terminal. A terminal obeys what it is sent: ESC [ ...
// moves the cursor or recolours, ESC ] 0 ; ... retitles the window, OSC 8
// makes hyperlinks that show one address and open another, OSC 52 writes
// the clipboard, and a carriage return or backspace overwrites what was
// already shown. Bidirectional overrides make text read differently from
// how it is stored. None of that may reach the terminal from the input.
//
// Every prompter therefore draws input text only through Display (one-line
// fields: header, label, an answer echoed or shown in a summary) or
// DisplayMultiline (question, description, preview). The answers printed
// as JSON keep the original strings.

// Display returns s made safe to draw on a terminal as one line. Control
// characters (C0, DEL, C1), including the ESC that starts every terminal
// escape sequence, and bidirectional control characters are shown
// visibly in Go's escape notation (ESC as `\x1b`, U+202E as `\u202e`), so
// that the person sees that something was there and nothing is obeyed.
// Characters that draw nothing (see drawsNothing), such as the zero-width
// space, are shown by their code point, as `⟨U+200B⟩`, so that
// "claude\u200bcode" cannot pass for "claudecode" or "claude code".
// Tabs and line breaks become single spaces. Bytes that are not UTF-8 are
// shown as `\xff`.
//
// Display is the one place where this is decided: the terminal UI, line
// prompts, the inbox's screens and the web pages all draw through it.
func Display(s string) string {
	return display(s, false)
}

// DisplayMultiline does what Display does, for multi-line fields (descriptions,
// previews): line breaks (LF, CRLF) are kept as "\n" and tabs expand to the
// next multiple of 4 columns. A carriage return that does not end a line is
// shown as `\r`, since it would move the cursor back over the line.
func DisplayMultiline(s string) string {
	return display(s, true)
}

func display(s string, multiline bool) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	col := 0 // characters since the last line break, for tab stops
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
			col += 4
		case r == '\n' || r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
			if multiline {
				b.WriteByte('\n')
				col = 0
			} else {
				b.WriteByte(' ')
				col++
			}
			if r == '\r' {
				size++ // the "\n" of "\r\n"
			}
		case r == '\t':
			n := 1
			if multiline {
				n = 4 - col%4
			}
			b.WriteString("    "[:n])
			col += n
		case r < utf8.RuneSelf && schema.Control(r):
			fmt.Fprintf(&b, `\x%02x`, r)
			col += 4
		case isHidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
			col += 6
		case drawsNothing(r) && !joins(s[:i], r, s[i+size:]):
			code := fmt.Sprintf("⟨U+%04X⟩", r)
			b.WriteString(code)
			col += utf8.RuneCountInString(code)
		default:
			b.WriteRune(r)
			col++
		}
		i += size
	}
	return b.String()
}

// isPlain reports whether s can be drawn as it is: the common case, checked
// without allocating.
func isPlain(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || schema.Control(r) || isHidden(r) || drawsNothing(r) {
			return false
		}
	}
	return true
}

// isHidden reports whether r, beyond ASCII, is a character that changes
// how a terminal shows the text around it rather than showing itself: a C1
// control (U+009B is a one-character CSI on some terminals), a
// bidirectional control, or the line or paragraph separator, at which some
// terminals break the line.
func isHidden(r rune) bool {
	return r >= utf8.RuneSelf && schema.Control(r) || schema.BidiControl(r) || r == '\u2028' || r == '\u2029'
}

// drawsNothing reports whether r, beyond ASCII, is a character that a
// terminal shows as nothing at all: those that schema.Invisible lists
// (zero-width spaces and joiners, the word joiner, U+FEFF, the soft
// hyphen, fillers, variation selectors, tags) and the other format
// characters (Unicode's Cf, such as U+FFF9 or the Egyptian hieroglyph
// format controls). Controls and bidirectional controls are isHidden.
func drawsNothing(r rune) bool {
	return r >= utf8.RuneSelf && (schema.Invisible(r) || unicode.Is(unicode.Cf, r)) && !isHidden(r)
}

// joins reports whether r, a character that draws nothing, between before
// and after, is instead part of what a terminal draws, and so is drawn as
// it is: a zero-width joiner or non-joiner between two letters or
// symbols beyond ASCII (emoji sequences such as 👩‍💻, Indic and Persian
// text), or a variation selector after one (❤️, Mongolian), or the emoji
// selector of a keycap (1️⃣). Between ASCII letters, as in a name, they
// are shown.
func joins(before string, r rune, after string) bool {
	prev, size := utf8.DecodeLastRuneInString(before)
	next, _ := utf8.DecodeRuneInString(after)
	switch {
	case r == '\u200c' || r == '\u200d':
		if variationSelector(prev) {
			// ❤️‍🔥: the joiner follows the selector of what it joins.
			prev, _ = utf8.DecodeLastRuneInString(before[:len(before)-size])
		}
		return shown(prev) && shown(next)
	case variationSelector(r):
		return shown(prev) || r == '\ufe0f' && strings.ContainsRune("0123456789#*", prev) && next == '\u20e3'
	}
	return false
}

// shown reports whether r is a character beyond ASCII that draws
// something of its own.
func shown(r rune) bool {
	return r >= utf8.RuneSelf && r != utf8.RuneError && !schema.WhiteSpace(r) && !isHidden(r) && !drawsNothing(r)
}

// variationSelector reports whether r selects how the character before
// it is drawn: the variation selectors, and Mongolian's free ones.
func variationSelector(r rune) bool {
	return r >= '\ufe00' && r <= '\ufe0f' || r >= '\U000e0100' && r <= '\U000e01ef' ||
		r >= '\u180b' && r <= '\u180d' || r == '\u180f'
}
