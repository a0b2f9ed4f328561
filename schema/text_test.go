package schema

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// jsonEscaped writes s as a JSON string whose characters outside printable
// ASCII are \uXXXX escapes (surrogate pairs above U+FFFF), as schema.json
// writes the "not blank" pattern.
func jsonEscaped(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r > 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// notBlankPattern is the "pattern" of a text in schema.json: one character
// that is neither white space nor invisible. It is a class of literal
// characters, with no escapes such as \s that Go, ECMA-262 and Python read
// differently, so that every validator of the schema finds the same texts
// blank. In schema.json the characters are written as \uXXXX escapes.
func notBlankPattern() string {
	var b strings.Builder
	b.WriteString("[^")
	blank := func(r rune) bool { return WhiteSpace(r) || Invisible(r) }
	for lo := rune(0); lo <= unicode.MaxRune; lo++ {
		if !blank(lo) {
			continue
		}
		hi := lo
		for hi < unicode.MaxRune && blank(hi+1) {
			hi++
		}
		b.WriteRune(lo)
		if hi > lo+1 {
			b.WriteByte('-')
		}
		if hi > lo {
			b.WriteRune(hi)
		}
		lo = hi
	}
	b.WriteString("]")
	return b.String()
}

func TestWhiteSpaceIsUnicodeWhiteSpace(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if WhiteSpace(r) != unicode.IsSpace(r) {
			t.Errorf("WhiteSpace(%U) = %v, unicode.IsSpace says %v", r, WhiteSpace(r), unicode.IsSpace(r))
		}
		if WhiteSpace(r) && Invisible(r) {
			t.Errorf("%U is both white space and invisible", r)
		}
	}
}

// Invisible holds every control character and every character that
// Unicode says a renderer may ignore (Default_Ignorable_Code_Point: format
// characters, variation selectors and Other_Default_Ignorable_Code_Point),
// and nothing that draws.
func TestInvisible(t *testing.T) {
	// Format characters that draw something: the prepended concatenation
	// marks (numbers and signs that span digits) and the annotation and
	// hieroglyph format controls, which are not default-ignorable.
	drawn := func(r rune) bool {
		return r >= 0x0600 && r <= 0x0605 || r == 0x06dd || r == 0x070f || r == 0x0890 || r == 0x0891 || r == 0x08e2 ||
			r == 0x110bd || r == 0x110cd || r >= 0xfff9 && r <= 0xfffb || r >= 0x13430 && r <= 0x1345f
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.Is(unicode.Cc, r) && !unicode.IsSpace(r) ||
			unicode.Is(unicode.Cf, r) && !drawn(r) ||
			unicode.Is(unicode.Variation_Selector, r) ||
			unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
			r == 0x2800 // braille pattern blank
		if Invisible(r) != want {
			t.Errorf("Invisible(%U) = %v, want %v", r, Invisible(r), want)
		}
	}
}

// Control and BidiControl are Unicode's Cc and Bidi_Control, and both are
// blank.
func TestControls(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := Control(r), unicode.Is(unicode.Cc, r); got != want {
			t.Errorf("Control(%U) = %v, want %v", r, got, want)
		}
		if got, want := BidiControl(r), unicode.Is(unicode.Bidi_Control, r); got != want {
			t.Errorf("BidiControl(%U) = %v, want %v", r, got, want)
		}
		if (Control(r) || BidiControl(r)) && !isBlank(string(r)) {
			t.Errorf("%U is a control that is not blank", r)
		}
	}
}

func TestIsBlank(t *testing.T) {
	for s, want := range map[string]bool{
		"":                         true,
		" \t\n\r\v\f":              true,
		"\u3000":                   true, // ideographic space
		"\u00a0":                   true, // no-break space
		"\u2028\u2029":             true, // line and paragraph separators
		"\ufeff":                   true, // byte-order mark
		"\u200b\u200c\u200d\u2060": true, // zero-width space, joiners, word joiner
		"\u200e\u202e\u2066":       true, // bidirectional marks
		"\u00ad":                   true, // soft hyphen
		"\x00\x1b\u0085\u009b":     true, // controls
		"\U000e0041\U000e007f":     true, // tags
		"\u2800\u3164":             true, // braille blank, hangul filler
		"a":                        false,
		" \u3000a\u200b":           false,
		".":                        false,
		"\u0301":                   false, // a combining accent draws on a dotted circle
		"数":                        false,
		"😀":                        false,
		"\ufffd":                   false, // what undecodable bytes become
	} {
		if got := isBlank(s); got != want {
			t.Errorf("isBlank(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestStripInvisible(t *testing.T) {
	for s, want := range map[string]string{
		"SQLite":                  "SQLite",
		"SQ\u200bLite":            "SQLite",
		"Other\ufeff":             "Other",
		"\u2060O\u00adther\u200d": "Other",
		"a b\u3000c":              "a b\u3000c", // white space is kept
		"":                        "",
	} {
		if got := stripInvisible(s); got != want {
			t.Errorf("stripInvisible(%q) = %q, want %q", s, got, want)
		}
	}
}

var update = flag.Bool("update", false, "write the \"not blank\" pattern of schema.json from the tables of text.go")

// The "not blank" pattern of schema.json is written from the tables of
// text.go, as \uXXXX escapes, and means there what isBlank means: Go's
// regexp, which the library uses, finds a character in a string exactly
// when that character is neither white space nor invisible. With -update
// the test writes the pattern into schema.json first.
func TestSchemaPatternIsNotBlank(t *testing.T) {
	raw := embedded(t)
	if *update {
		raw = writePattern(t, raw)
	}
	var doc struct {
		Defs struct {
			Text struct {
				Pattern string `json:"pattern"`
			} `json:"text"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	p := doc.Defs.Text.Pattern
	if p != notBlankPattern() {
		t.Fatalf("schema.json's $defs.text.pattern is not the one text.go makes; run go test ./schema -run TestSchemaPatternIsNotBlank -update, or write it as\n%s", jsonEscaped(notBlankPattern()))
	}
	if !strings.Contains(string(raw), `"pattern": `+jsonEscaped(p)) {
		t.Errorf("schema.json does not write the pattern with \\u escapes; write it as\n%s", jsonEscaped(p))
	}
	re := regexp.MustCompile(p)
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		if got, want := re.MatchString(string(r)), !WhiteSpace(r) && !Invisible(r); got != want {
			t.Errorf("pattern matches %U: %v, want %v", r, got, want)
		}
	}
	for _, s := range []string{" a ", "\u3000\u200bx", "SQ\u200bLite"} {
		if !re.MatchString(s) || isBlank(s) {
			t.Errorf("%q is blank", s)
		}
	}
}

// writePattern writes the pattern that the tables make into schema.json,
// keeping the rest of the file as it is, and returns the new file.
func writePattern(t *testing.T, raw []byte) []byte {
	t.Helper()
	out, err := splice(raw, map[string][]byte{`\$defs.text.pattern`: []byte(jsonEscaped(notBlankPattern()))})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("../schema.json", out, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// The schema that tool definitions carry has only patterns of printable
// ASCII, which no client's rewriting of Unicode changes, and which Go,
// ECMA-262 (with the u flag and without) and Python read alike; the
// schema itself keeps the full pattern.
func TestAdvertisedPatternsAreASCII(t *testing.T) {
	s, err := Compile(embedded(t), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	adv, err := s.Advertised()
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(adv, &doc); err != nil {
		t.Fatalf("advertised schema: %v\n%s", err, adv)
	}
	if _, ok := doc.(map[string]any)["$schema"]; ok {
		t.Error("the advertised schema names its dialect: a tool's schema is not a document of its own")
	}
	var patterns []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if p, ok := x.(string); ok && k == "pattern" {
					patterns = append(patterns, p)
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	if len(patterns) == 0 {
		t.Fatal("no pattern advertised")
	}
	for _, p := range patterns {
		for _, r := range p {
			if r < 0x21 || r > 0x7e {
				t.Errorf("advertised pattern %q holds %U", p, r)
			}
		}
		if _, err := regexp.Compile(p); err != nil {
			t.Errorf("advertised pattern %q: %v", p, err)
		}
	}
	if !strings.Contains(string(s.Bytes()), `"pattern": `+jsonEscaped(notBlankPattern())) {
		t.Error("the schema itself lost the full pattern")
	}
	if _, err := Compile(adv, Limits{}); err != nil {
		t.Errorf("the advertised schema does not compile: %v", err)
	}
}

// needsType maps the keywords that apply to one type of value to it: a
// strict validator (Ajv's strictTypes, which Gemini CLI runs) warns of
// each one that has no "type" beside it, or in a schema that applies to
// the same value around it.
var needsType = map[string]string{
	"maxLength": "string", "minLength": "string", "pattern": "string",
	"items": "array", "minItems": "array", "maxItems": "array",
	"properties": "object", "additionalProperties": "object", "required": "object",
}

// Every keyword of the advertised schema that applies to one type has
// that type beside it, or around it for the same value.
func TestAdvertisedTypesBesideKeywords(t *testing.T) {
	s, err := Compile(embedded(t), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	adv, err := s.Advertised()
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(adv, &doc); err != nil {
		t.Fatal(err)
	}
	checkTypes(t, "#", doc, "")
}

// checkTypes checks the schema at path, inside one whose type for the same
// value is outer.
func checkTypes(t *testing.T, path string, sch map[string]any, outer string) {
	typ, _ := sch["type"].(string)
	if typ == "" {
		typ = outer
	}
	for k, v := range sch {
		if want, ok := needsType[k]; ok && typ != want {
			t.Errorf("%s: %q without type %q", path, k, want)
		}
		sub := func(p string, x any, sameValue bool) {
			m, ok := x.(map[string]any)
			if !ok {
				return
			}
			o := ""
			if sameValue {
				o = typ
			}
			checkTypes(t, p, m, o)
		}
		switch k {
		case "if", "then", "else", "not":
			sub(path+"/"+k, v, true)
		case "allOf", "anyOf", "oneOf":
			for i, x := range v.([]any) {
				sub(fmt.Sprintf("%s/%s/%d", path, k, i), x, true)
			}
		case "properties", "$defs":
			for name, x := range v.(map[string]any) {
				sub(path+"/"+k+"/"+name, x, false)
			}
		case "items", "additionalProperties":
			sub(path+"/"+k, v, false)
		}
	}
}
