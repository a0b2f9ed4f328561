package schema

import (
	"strings"
	"unicode"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// The texts of the questions must show something: a header, a label or a
// question made only of spaces, or of characters that draw nothing, would
// be an empty chip, an invisible choice or an answer key nobody can read.
// Both kinds of character are taken here, once, from the tables of Go's
// unicode package: the "not blank" pattern of schema.json is written from
// them (notBlankPattern, in the tests: go test ./schema -update writes it,
// and the test fails when the two drift), and the rules and every asker
// use the functions below. So are
// the two kinds among the invisible that a terminal does not merely leave
// out (controls, bidirectional controls), which the askers must never draw.

// WhiteSpace reports whether r is Unicode white space (the White_Space
// property): the ASCII spaces and line breaks, and also U+00A0, U+2028,
// U+3000 and the other spaces.
func WhiteSpace(r rune) bool { return unicode.Is(unicode.White_Space, r) }

// Control reports whether r is a control character (Unicode's Cc): C0,
// DEL or C1. A terminal obeys these rather than showing them; ESC starts
// every escape sequence. Tab, line feed and the other line breaks among
// them are white space; the others draw nothing.
func Control(r rune) bool { return unicode.Is(unicode.Cc, r) }

// BidiControl reports whether r is a bidirectional control (Unicode's
// Bidi_Control): a mark, embedding, override or isolate, such as U+202E
// RIGHT-TO-LEFT OVERRIDE, that changes the order in which the text around
// it is shown, so that it reads otherwise than it is stored. They draw
// nothing themselves.
func BidiControl(r rune) bool { return unicode.Is(unicode.Bidi_Control, r) }

// Invisible reports whether r is a character that draws nothing and is not
// white space: a control character, a character of Unicode's
// Default_Ignorable_Code_Point (a zero-width space or joiner, U+2060,
// U+FEFF, a bidirectional control, the soft hyphen, a variation selector,
// a filler, a tag), or U+2800 BRAILLE PATTERN BLANK, which fonts draw as
// nothing but no Unicode property calls ignorable.
func Invisible(r rune) bool {
	return !WhiteSpace(r) && (Control(r) || r == '\u2800' || defaultIgnorable(r))
}

// defaultIgnorable reports whether r, not white space, is of Unicode's
// Default_Ignorable_Code_Point, derived as DerivedCoreProperties.txt
// derives it (the unicode package does not have it):
// Other_Default_Ignorable_Code_Point, the format characters and the
// variation selectors, less the prepended concatenation marks and the
// format characters that draw something: the interlinear annotation marks
// and the Egyptian hieroglyph format controls (their whole block).
func defaultIgnorable(r rune) bool {
	return unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Cf, unicode.Variation_Selector) &&
		!unicode.Is(unicode.Prepended_Concatenation_Mark, r) &&
		!(r >= 0xfff9 && r <= 0xfffb || r >= 0x13430 && r <= 0x1345f)
}

// isBlank reports whether s shows nothing: it is empty, or made only of
// white space and invisible characters.
func isBlank(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return !WhiteSpace(r) && !Invisible(r) })
}

// stripInvisible returns s without its invisible characters, for comparing
// texts as a person sees them: "SQ\u200bLite" is "SQLite".
func stripInvisible(s string) string {
	// Map returns s itself when it drops nothing, as for most texts.
	return strings.Map(func(r rune) rune {
		if Invisible(r) {
			return -1
		}
		return r
	}, s)
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
	`\$defs.text.pattern`:   []byte(`"\\S"`),
	`\$defs.text.\$comment`: []byte(`"Not blank: askuser also refuses text made only of characters that draw nothing (controls, zero-width spaces and joiners, bidirectional marks)."`),
}

// Advertised returns the schema text as tool definitions carry it: Bytes,
// in the order schema.json gives, with the "not blank" pattern of a text
// written so that every client keeps it intact (see advertisedText), and
// without "$schema": a tool's schema is not a document of its own, and
// each format of tool definition implies its dialect. It validates as
// Bytes does, except that texts made only of invisible characters pass it.
func (s *Schema) Advertised() ([]byte, error) {
	adv, err := splice(s.raw, advertisedText)
	if err != nil {
		return nil, err
	}
	return sjson.DeleteBytes(adv, gjson.Escape("$schema"))
}
