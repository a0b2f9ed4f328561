package prompt

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/askuser/askuser/schema"
)

func TestDisplay(t *testing.T) {
	for _, tc := range []struct {
		name, in, want, wantMulti string
	}{
		{"plain", "PostgreSQL (Recommended)", "PostgreSQL (Recommended)", ""},
		{"unicode", "数据库 — ça va ✔", "数据库 — ça va ✔", ""},
		{"csi colour", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, ""},
		{"osc title", "\x1b]0;pwned\x07x", `\x1b]0;pwned\x07x`, ""},
		{"osc 8 hyperlink", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", `\x1b]8;;https://evil.example\x1b\click\x1b]8;;\x1b\`, ""},
		{"osc 52 clipboard", "\x1b]52;c;cm0gLXJmIH4=\x07", `\x1b]52;c;cm0gLXJmIH4=\x07`, ""},
		{"c1 csi", "a\u009b31mb", `a\u009b31mb`, ""},
		{"c1 osc", "\u009d0;t\u009c", `\u009d0;t\u009c`, ""},
		{"bidi override", "abc\u202edcba\u202c", `abc\u202edcba\u202c`, ""},
		{"bidi isolate", "\u2066x\u2069", `\u2066x\u2069`, ""},
		{"marks", "\u200e\u200f\u061c", `\u200e\u200f\u061c`, ""},
		{"separators", "a\u2028b\u2029c", `a\u2028b\u2029c`, ""},
		{"carriage return", "safe\rEVIL", `safe\x0dEVIL`, ""},
		{"backspace", "yes\b\b\bno", `yes\x08\x08\x08no`, ""},
		{"del and nul", "a\x7fb\x00c", `a\x7fb\x00c`, ""},
		{"bell", "\a", `\x07`, ""},
		{"invalid utf-8", "a\xffb\xc3", `a\xffb\xc3`, ""},
		{"newline", "one\ntwo", "one two", "one\ntwo"},
		{"crlf", "one\r\ntwo\r\n", "one two ", "one\ntwo\n"},
		{"tab", "a\tb", "a b", "a   b"},
		{"tab stops", "ab\tc\n\tx", "ab c  x", "ab  c\n    x"},
		{"replacement char kept", "\ufffd", "\ufffd", ""},
		{"zero-width space", "claude\u200bcode", "claude⟨U+200B⟩code", ""},
		{"word joiner and bom", "\ufeffa\u2060b", "⟨U+FEFF⟩a⟨U+2060⟩b", ""},
		{"joiners between ascii", "a\u200cb\u200dc", "a⟨U+200C⟩b⟨U+200D⟩c", ""},
		{"soft hyphen and fillers", "x\u00ady\u3164\u2800", "x⟨U+00AD⟩y⟨U+3164⟩⟨U+2800⟩", ""},
		{"tags", "ok\U000e0041\U000e007f", "ok⟨U+E0041⟩⟨U+E007F⟩", ""},
		{"other format characters", "a\ufff9b\U00013430", "a⟨U+FFF9⟩b⟨U+13430⟩", ""},
		{"zero-width at the tab stop", "\u200b\tx\ny", "⟨U+200B⟩ x y", "⟨U+200B⟩    x\ny"},
		{"emoji sequence kept", "👩\u200d💻 ❤\ufe0f\u200d🔥 1\ufe0f\u20e3", "👩\u200d💻 ❤\ufe0f\u200d🔥 1\ufe0f\u20e3", ""},
		{"joiner in persian kept", "می\u200cخواهم", "می\u200cخواهم", ""},
		{"selector after ascii", "e\ufe0f", "e⟨U+FE0F⟩", ""},
		{"joiner at the ends", "\u200d👩\u200d", "⟨U+200D⟩👩⟨U+200D⟩", ""},
		{"joiner after a selector shown", "e\ufe0f\u200d👩", "e⟨U+FE0F⟩⟨U+200D⟩👩", ""},
		{"two joiners", "👩\u200d\u200d💻", "👩⟨U+200D⟩⟨U+200D⟩💻", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.wantMulti == "" {
				tc.wantMulti = tc.want
			}
			if got := Display(tc.in); got != tc.want {
				t.Errorf("Display(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := DisplayMultiline(tc.in); got != tc.wantMulti {
				t.Errorf("DisplayMultiline(%q) = %q, want %q", tc.in, got, tc.wantMulti)
			}
		})
	}
}

// checkDrawable fails when s holds anything a terminal would obey rather
// than show. Line breaks are allowed only when multiline.
func checkDrawable(t testing.TB, s string, multiline bool) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("not UTF-8: %q", s)
	}
	for _, r := range s {
		if r == '\n' && multiline {
			continue
		}
		if schema.Control(r) || schema.BidiControl(r) || isHidden(r) {
			t.Fatalf("undrawable %U in %q", r, s)
		}
	}
	// What draws nothing is left only where it joins what is drawn.
	for i, r := range s {
		if drawsNothing(r) && !joins(s[:i], r, s[i+utf8.RuneLen(r):]) {
			t.Fatalf("%U draws nothing, and is left in %q", r, s)
		}
	}
}

func FuzzDisplay(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[2J\x1b[H", "\x1b]52;c;aGk=\x07", "a\u202eb", "\r\n\t\xff", "数据\u009b", "claude\u200bcode", "👩\u200d💻 ❤\ufe0f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		one := Display(s)
		checkDrawable(t, one, false)
		checkDrawable(t, DisplayMultiline(s), true)
		// Drawing twice changes nothing more: the output is already safe.
		if again := Display(one); again != one {
			t.Fatalf("Display is not idempotent: %q -> %q -> %q", s, one, again)
		}
		if utf8.ValidString(s) && isPlain(s) && one != s {
			t.Fatalf("plain %q changed to %q", s, one)
		}
	})
}

// FuzzCheckOther checks that whatever schema.CheckOther lets through into
// the output is drawn as it is, and that it is trimmed, within the
// limit, and the same when checked again.
func FuzzCheckOther(f *testing.F) {
	for _, s := range []string{"", " x ", "\x1b[31m", "\xff", "a\u202eb", strings.Repeat("x", schema.MaxOtherLength+1)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := schema.CheckOther(s)
		if err != nil {
			if got != "" {
				t.Fatalf("schema.CheckOther(%q) = %q with error %v", s, got, err)
			}
			return
		}
		checkDrawable(t, got, false)
		if got != strings.TrimSpace(got) || got == "" {
			t.Fatalf("schema.CheckOther(%q) = %q: not trimmed or empty", s, got)
		}
		if n := utf8.RuneCountInString(got); n > schema.MaxOtherLength {
			t.Fatalf("schema.CheckOther(%q) kept %d characters", s, n)
		}
		if again, err := schema.CheckOther(got); err != nil || again != got {
			t.Fatalf("schema.CheckOther is not idempotent: %q -> %q -> %q, %v", s, got, again, err)
		}
	})
}
