package schema

import (
	"slices"
	"strings"
	"unicode"
)

// The texts of the questions must show something: a header, a label or a
// question made only of spaces, or of characters that draw nothing, would
// be an empty chip, an invisible choice or an answer key nobody can read.
// Both kinds of character are taken here, once, from the tables of Go's
// unicode package: the "not blank" pattern of schema.json is written from
// them (go test ./schema -update writes it; the test fails when the two
// drift), and the rules and every asker use the functions below. So are
// the two kinds among the invisible that a terminal does not merely leave
// out (controls, bidirectional controls), which the askers must never draw.

// runeRange is a closed range of code points.
type runeRange struct{ lo, hi rune }

var (
	// whiteSpace is Unicode's White_Space property: what unicode.IsSpace
	// reports.
	whiteSpace = rangesOf(unicode.White_Space)

	// control is Unicode's control characters (general category Cc): the
	// C0 controls, DEL and the C1 controls. A terminal obeys them rather
	// than showing them. Tab, line feed and the other line breaks among
	// them are white space; the others draw nothing.
	control = rangesOf(unicode.Cc)

	// bidiControl is Unicode's Bidi_Control property: the marks,
	// embeddings, overrides and isolates that change the order in which the
	// text around them is shown, so that it reads otherwise than it is
	// stored. They draw nothing themselves.
	bidiControl = rangesOf(unicode.Bidi_Control)

	// invisible is every character that draws nothing and is not white
	// space: the controls, Unicode's Default_Ignorable_Code_Point, and the
	// blank braille pattern.
	invisible = union(without(control, whiteSpace), defaultIgnorable(), []runeRange{brailleBlank})
)

// brailleBlank is U+2800 BRAILLE PATTERN BLANK, which fonts draw as
// nothing but no Unicode property calls ignorable.
var brailleBlank = runeRange{0x2800, 0x2800}

// drawnFormat are the format characters (Cf) that Unicode's derivation of
// Default_Ignorable_Code_Point leaves out because they draw something: the
// interlinear annotation marks and the Egyptian hieroglyph format controls
// (their whole block). The prepended concatenation marks, left out too,
// have a property of their own.
var drawnFormat = []runeRange{{0xfff9, 0xfffb}, {0x13430, 0x1345f}}

// defaultIgnorable is Unicode's Default_Ignorable_Code_Point, derived as
// DerivedCoreProperties.txt derives it (the unicode package does not have
// it): Other_Default_Ignorable_Code_Point, the format characters and the
// variation selectors, less white space, the format characters that draw
// and the prepended concatenation marks. Among them are the zero-width
// spaces and joiners, the word joiner, the soft hyphen, the bidirectional
// controls, the fillers and the tags.
func defaultIgnorable() []runeRange {
	all := union(rangesOf(unicode.Other_Default_Ignorable_Code_Point), rangesOf(unicode.Cf), rangesOf(unicode.Variation_Selector))
	return without(all, whiteSpace, drawnFormat, rangesOf(unicode.Prepended_Concatenation_Mark))
}

// rangesOf returns the code points of a table of the unicode package as
// ranges, in order.
func rangesOf(t *unicode.RangeTable) []runeRange {
	var out []runeRange
	add := func(lo, hi, stride rune) {
		if stride == 1 {
			out = append(out, runeRange{lo, hi})
			return
		}
		for r := lo; r <= hi; r += stride {
			out = append(out, runeRange{r, r})
		}
	}
	for _, x := range t.R16 {
		add(rune(x.Lo), rune(x.Hi), rune(x.Stride))
	}
	for _, x := range t.R32 {
		add(rune(x.Lo), rune(x.Hi), rune(x.Stride))
	}
	return union(out)
}

// without returns the code points of a that are in none of the others, as
// ranges in order. Every list is in order, as union and rangesOf make them.
func without(a []runeRange, others ...[]runeRange) []runeRange {
	cut := union(others...)
	var out []runeRange
	for _, x := range a {
		for _, c := range cut {
			if c.hi < x.lo || c.lo > x.hi {
				continue
			}
			if c.lo > x.lo {
				out = append(out, runeRange{x.lo, c.lo - 1})
			}
			x.lo = c.hi + 1
			if x.lo > x.hi {
				break
			}
		}
		if x.lo <= x.hi {
			out = append(out, x)
		}
	}
	return out
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
func Invisible(r rune) bool { return inRanges(r, invisible) }

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
	all := union(whiteSpace, invisible)
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
