package schema

import (
	"slices"
	"strings"
)

// The texts of the questions must show something: a header, a label or a
// question made only of spaces, or of characters that draw nothing, would
// be an empty chip, an invisible choice or an answer key nobody can read.
// Both kinds of character are listed here, once: the "not blank" pattern of
// schema.json is written from these tables (a test holds the two equal),
// and the rules and every asker use the functions below. So are the two
// kinds among the invisible that a terminal does not merely leave out
// (controls, bidirectional controls), which the askers must never draw.

// runeRange is a closed range of code points.
type runeRange struct{ lo, hi rune }

// whiteSpace is Unicode's White_Space property: what unicode.IsSpace
// reports, written out so that the schema's pattern can list it.
var whiteSpace = []runeRange{
	{0x0009, 0x000d}, // tab, line feed, vertical tab, form feed, carriage return
	{0x0020, 0x0020}, // space
	{0x0085, 0x0085}, // next line
	{0x00a0, 0x00a0}, // no-break space
	{0x1680, 0x1680}, // ogham space mark
	{0x2000, 0x200a}, // en quad … hair space
	{0x2028, 0x2029}, // line and paragraph separators
	{0x202f, 0x202f}, // narrow no-break space
	{0x205f, 0x205f}, // medium mathematical space
	{0x3000, 0x3000}, // ideographic space, typed by CJK input methods
}

// control is Unicode's control characters (general category Cc): the C0
// controls, DEL and the C1 controls. A terminal obeys them rather than
// showing them. Tab, line feed and the other line breaks among them are
// white space; the others draw nothing.
var control = []runeRange{{0x0000, 0x001f}, {0x007f, 0x009f}}

// bidiControl is Unicode's Bidi_Control property: the marks, embeddings,
// overrides and isolates that change the order in which the text around
// them is shown, so that it reads otherwise than it is stored. They draw
// nothing themselves.
var bidiControl = []runeRange{
	{0x061c, 0x061c}, // arabic letter mark
	{0x200e, 0x200f}, // left-to-right and right-to-left marks
	{0x202a, 0x202e}, // embeddings, pop, overrides
	{0x2066, 0x2069}, // isolates
}

// ignorable is the rest of what draws nothing: Unicode's
// Default_Ignorable_Code_Point beyond the bidirectional controls
// (zero-width spaces and joiners, the word joiner, the soft hyphen,
// variation selectors, fillers, tags), and the blank braille pattern,
// which fonts draw as nothing.
var ignorable = []runeRange{
	{0x00ad, 0x00ad},   // soft hyphen
	{0x034f, 0x034f},   // combining grapheme joiner
	{0x115f, 0x1160},   // hangul fillers
	{0x17b4, 0x17b5},   // khmer inherent vowels
	{0x180b, 0x180f},   // mongolian variation selectors and vowel separator
	{0x200b, 0x200d},   // zero-width space, non-joiner, joiner
	{0x2060, 0x2065},   // word joiner, invisible operators
	{0x206a, 0x206f},   // deprecated format characters
	{0x2800, 0x2800},   // braille pattern blank
	{0x3164, 0x3164},   // hangul filler
	{0xfe00, 0xfe0f},   // variation selectors
	{0xfeff, 0xfeff},   // zero-width no-break space (byte-order mark)
	{0xffa0, 0xffa0},   // halfwidth hangul filler
	{0xfff0, 0xfff8},   // reserved, ignorable
	{0x1bca0, 0x1bca3}, // shorthand format controls
	{0x1d173, 0x1d17a}, // musical symbol format controls
	{0xe0000, 0xe0fff}, // tags, variation selectors supplement
}

func inRanges(r rune, rs []runeRange) bool {
	for _, x := range rs {
		if r < x.lo {
			return false
		}
		if r <= x.hi {
			return true
		}
	}
	return false
}

// WhiteSpace reports whether r is Unicode white space: the ASCII spaces and
// line breaks, and also U+00A0, U+2028, U+3000 and the other spaces of
// Unicode's White_Space property.
func WhiteSpace(r rune) bool { return inRanges(r, whiteSpace) }

// Invisible reports whether r is a character that draws nothing and is not
// white space: a control character, a zero-width space or joiner (U+200B to
// U+200D, U+2060, U+FEFF), a bidirectional control, the soft hyphen, a
// variation selector, a filler or a tag.
func Invisible(r rune) bool {
	return Control(r) && !WhiteSpace(r) || BidiControl(r) || inRanges(r, ignorable)
}

// Control reports whether r is a control character (Unicode's Cc): C0,
// DEL or C1. A terminal obeys these rather than showing them; ESC starts
// every escape sequence.
func Control(r rune) bool { return inRanges(r, control) }

// BidiControl reports whether r is a bidirectional control (Unicode's
// Bidi_Control): a character that changes the order in which the text
// around it is shown, such as U+202E RIGHT-TO-LEFT OVERRIDE.
func BidiControl(r rune) bool { return inRanges(r, bidiControl) }

// IsBlank reports whether s shows nothing: it is empty, or made only of
// white space and invisible characters.
func IsBlank(s string) bool {
	for _, r := range s {
		if !WhiteSpace(r) && !Invisible(r) {
			return false
		}
	}
	return true
}

// StripInvisible returns s without its invisible characters, for comparing
// texts as a person sees them: "SQ\u200bLite" is "SQLite".
func StripInvisible(s string) string {
	if !strings.ContainsFunc(s, Invisible) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if Invisible(r) {
			return -1
		}
		return r
	}, s)
}

// notBlankPattern is the "pattern" of a text in schema.json: one character
// that is neither white space nor invisible. It is a class of literal
// characters, with no escapes such as \s that Go, ECMA-262 and Python read
// differently, so that every validator of the schema finds the same texts
// blank. In schema.json the characters are written as \uXXXX escapes.
func notBlankPattern() string {
	all := union(whiteSpace, control, bidiControl, ignorable)
	var b strings.Builder
	b.WriteString("[^")
	for _, x := range all {
		b.WriteRune(x.lo)
		if x.hi > x.lo {
			if x.hi > x.lo+1 {
				b.WriteByte('-')
			}
			b.WriteRune(x.hi)
		}
	}
	b.WriteString("]")
	return b.String()
}

// union returns the code points of all the lists as one list of ranges, in
// order, with ranges that overlap or touch joined.
func union(lists ...[]runeRange) []runeRange {
	var in []runeRange
	for _, l := range lists {
		in = append(in, l...)
	}
	slices.SortFunc(in, func(a, b runeRange) int { return int(a.lo - b.lo) })
	var out []runeRange
	for _, x := range in {
		if n := len(out); n > 0 && x.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, x.hi)
			continue
		}
		out = append(out, x)
	}
	return out
}

// advertisedText is what tool definitions say of a text instead of the
// "not blank" pattern and its comment. Clients rewrite the Unicode in tool
// schemas on the way to the model's API (Claude Code turns the spaces
// U+00A0…U+3000 into plain spaces and strips characters that draw
// nothing), which leaves the full pattern an invalid regular expression,
// and some compile patterns without ECMA-262's u flag, which its
// characters above U+FFFF need. \S is ASCII, reads the same in every
// dialect, and tells the model the same thing; askuser still checks every
// text with the full pattern.
var advertisedText = map[string][]byte{
	"/$defs/text/pattern":  []byte(`"\\S"`),
	"/$defs/text/$comment": []byte(`"Not blank: askuser also refuses text made only of characters that draw nothing (controls, zero-width spaces and joiners, bidirectional marks)."`),
}

// Advertised returns the schema text as tool definitions carry it: Bytes,
// with the "not blank" pattern of a text written so that every client
// keeps it intact (see advertisedText). It validates as Bytes does, except
// that texts made only of invisible characters pass it.
func (s *Schema) Advertised() ([]byte, error) {
	return splice(s.raw, advertisedText)
}
