package schema

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// TooLargeError is an input document over MaxInputSize.
type TooLargeError struct {
	Size int64 // bytes seen; may stop counting just past the limit
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("input is larger than 1 MiB (%d bytes)", MaxInputSize)
}

// SyntaxError is an input that is not one JSON document.
type SyntaxError struct {
	Msg          string // what is wrong, in plain words
	Line, Column int    // 1-based; Column counts characters
	Expected     string // what JSON has there instead, in plain words
}

func (e *SyntaxError) Error() string {
	msg := fmt.Sprintf("%s at line %d, column %d", e.Msg, e.Line, e.Column)
	if e.Expected != "" {
		msg += "; expected " + e.Expected
	}
	return msg
}

// trailingError is content after the first JSON value.
type trailingError struct{ offset int64 }

func (e *trailingError) Error() string { return "unexpected content after the JSON document" }

// aValue is what JSON expects where a value begins.
const aValue = "a value: an object, an array, a string in double quotes, a number, true, false or null"

// expectations say in words what the JSON decoder expected, for the
// context that ends each of its messages (encoding/json's scanner, which
// words them for programmers: "invalid character 'o' in literal null
// (expecting 'u')"). What follows a document is decodeAll's to find (a
// *trailingError): the decoder, reading a stream, stops where its value
// ends.
var expectations = []struct{ context, expected string }{
	{"looking for beginning of value", aValue},
	{"looking for beginning of object key string", "a key in double quotes"},
	{"after object key", "a colon after the key"},
	{"after object key:value pair", "a comma, or the } that closes the object"},
	{"after array element", "a comma, or the ] that closes the array"},
	{"in string literal", `the closing quote: a line break or tab in a string is written \n or \t`},
	{`in \u hexadecimal character escape`, `four hexadecimal digits after \u`},
	{"in string escape code", `an escape: \" \\ \/ \b \f \n \r \t or \u and four hexadecimal digits`},
	// Before "in numeric literal", which ends them.
	{"after decimal point in numeric literal", "a digit"},
	{"in exponent of numeric literal", "a digit"},
	{"in numeric literal", "a digit"},
}

// unexpected words a message of the JSON decoder, "invalid character C
// CONTEXT" (its scanner words every syntax error so), as the character
// found and what was expected instead; a message it does not know is kept
// as it is.
func unexpected(msg string) (found, expected string) {
	rest, _ := strings.CutPrefix(msg, "invalid character ")
	if i := strings.Index(rest, "' in literal "); i >= 0 {
		return "unexpected " + rest[:i+1], "true, false or null, as any other text goes in double quotes"
	}
	for _, e := range expectations {
		if c, ok := strings.CutSuffix(rest, " "+e.context); ok {
			return "unexpected " + c, e.expected
		}
	}
	return msg, ""
}

// syntaxError turns an error of the JSON decoder into a *SyntaxError that
// says where in data the problem is, and what was expected there.
func syntaxError(data []byte, err error) *SyntaxError {
	te, trailing := errors.AsType[*trailingError](err)
	se, syntax := errors.AsType[*json.SyntaxError](err)
	const theRest = "the rest of the document, every { and [ closed"
	var msg, expected string
	var off int64
	switch {
	case trailing:
		msg, expected, off = te.Error(), "nothing more: give one document", te.offset
	case syntax:
		off = se.Offset - 1
		msg, expected = unexpected(se.Error())
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		// A stream decoder says that a document ended early so, never
		// with json.Unmarshal's *json.SyntaxError of it.
		msg, expected, off = "unexpected end of input", theRest, int64(len(data))
	default:
		msg = err.Error()
	}
	off = min(max(off, 0), int64(len(data)))
	line, col := position(data[:off])
	return &SyntaxError{Msg: msg, Line: line, Column: col, Expected: expected}
}

// position returns the 1-based line and character column just after before.
func position(before []byte) (line, col int) {
	lineStart := bytes.LastIndexByte(before, '\n') + 1 // 0 on the first line
	return 1 + bytes.Count(before, []byte("\n")), utf8.RuneCount(before[lineStart:]) + 1
}

// Problem is one thing wrong with an input document.
type Problem struct {
	// Path is where, written like questions[0].options[1].label, or
	// "input" for the document itself.
	Path    string
	Message string
	tokens  []any // path tokens: string keys and int indexes, for ordering
}

func (p Problem) String() string { return p.Path + ": " + p.Message }

// ValidationError lists every problem of an input document, ordered by
// path.
type ValidationError struct {
	Problems []Problem
}

func newValidationError(ps []Problem) *ValidationError {
	slices.SortStableFunc(ps, func(a, b Problem) int { return comparePath(a.tokens, b.tokens) })
	// The schema and the rules may both notice one thing; say it once. An
	// empty text also fails the "not blank" pattern: "must not be empty"
	// says all there is to say. And a field that is not allowed at all
	// needs no more said about what it holds.
	empty := map[string]bool{}
	var unwanted [][]any
	for _, p := range ps {
		if p.Message == msgEmpty {
			empty[p.Path] = true
		}
		if strings.HasPrefix(p.Message, msgNotAllowed) {
			unwanted = append(unwanted, p.tokens)
		}
	}
	seen := map[string]bool{}
	return &ValidationError{Problems: slices.DeleteFunc(ps, func(p Problem) bool {
		said := seen[p.String()]
		seen[p.String()] = true
		return said || p.Message == msgBlank && empty[p.Path] ||
			!strings.HasPrefix(p.Message, msgNotAllowed) && slices.ContainsFunc(unwanted, func(u []any) bool { return hasPrefix(p.tokens, u) })
	})}
}

// hasPrefix reports whether path is prefix or lies under it.
func hasPrefix(path, prefix []any) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// Messages that newValidationError knows about.
const (
	msgEmpty      = "must not be empty"
	msgBlank      = "must not be blank"
	msgNotAllowed = "not allowed"
)

func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return "validation failed: " + strings.Join(lines, "; ")
}

// problem builds a Problem at the path given by tokens.
func problem(tokens []any, format string, args ...any) Problem {
	return Problem{Path: formatPath(tokens), Message: fmt.Sprintf(format, args...), tokens: tokens}
}

// formatPath writes path tokens as questions[0].options[1].label.
func formatPath(tokens []any) string {
	if len(tokens) == 0 {
		return "input"
	}
	var b strings.Builder
	for _, t := range tokens {
		switch t := t.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", t)
		case string:
			if identifier.MatchString(t) {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(t)
			} else {
				fmt.Fprintf(&b, "[%q]", t)
			}
		}
	}
	return b.String()
}

// identifier is a key that a path writes after a dot: ASCII letters,
// digits and _, not starting with a digit.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ranks lists the fields of the schema's objects by their place in their
// object, as the schema declares them: the first field of each, then the
// second, and so on.
var ranks = [][]string{
	{"questions", "question", "label", "notes"},
	{"metadata", "header", "description"},
	{"answers", "type", "preview"},
	{"options", "annotations"},
	{"multiSelect"},
	{"placeholder"},
}

// rank orders the fields of one object as the schema declares them, so
// that problems read top to bottom like the input; unknown fields come
// after the known ones, and an index (a token that is no field) before
// them all. (Not a map: a map literal is built at start-up on every run.)
func rank(token any) int {
	field, ok := token.(string)
	if !ok {
		return -1
	}
	i := slices.IndexFunc(ranks, func(fields []string) bool { return slices.Contains(fields, field) })
	if i < 0 {
		return len(ranks)
	}
	return i
}

// comparePath orders paths token by token, a path before the paths under
// it.
func comparePath(a, b []any) int { return slices.CompareFunc(a, b, compareToken) }

func compareToken(a, b any) int {
	ai, _ := a.(int)
	bi, _ := b.(int)
	as, _ := a.(string)
	bs, _ := b.(string)
	return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(ai, bi), strings.Compare(as, bs))
}

// Suggest returns the allowed name closest to name, or "" when none is
// close enough to be what was meant.
func Suggest(name string, allowed []string) string {
	best, bestDist := "", -1
	for _, a := range allowed {
		d := distance(strings.ToLower(name), strings.ToLower(a))
		if bestDist < 0 || d < bestDist {
			best, bestDist = a, d
		}
	}
	// Up to two edits, or a third of the name, is a typo; but in a name of
	// one or two characters, that many edits make another word.
	n := utf8.RuneCountInString(name)
	switch {
	case bestDist < 0, bestDist > 0 && bestDist >= n, bestDist > 2 && bestDist*3 > n:
		return ""
	}
	return best
}

// didYouMean returns "; did you mean NAME?" for the allowed name closest
// to name (see Suggest), or "" when none is close enough.
func didYouMean(name string, allowed []string) string {
	if s := Suggest(name, allowed); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// distance counts the Levenshtein distance between a and b, in characters.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
