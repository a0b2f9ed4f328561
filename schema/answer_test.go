package schema

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestCheckOther(t *testing.T) {
	long := strings.Repeat("é", MaxOtherLength)
	for _, tc := range []struct {
		name, in, want string
		err            error
	}{
		{"plain", "  Use MariaDB  ", "Use MariaDB", nil},
		{"escape dropped", "\x1b[31mred\x1b[0m", "[31mred[0m", nil},
		{"osc dropped", "\x1b]0;title\x07ok", "]0;titleok", nil},
		{"bidi dropped", "a\u202eb\u2066c", "abc", nil},
		{"c1 dropped", "a\u009bb", "ab", nil},
		{"tab to space", "a\tb", "a b", nil},
		{"cr dropped", "a\rb", "ab", nil},
		{"separator to space", "a\u2028b", "a b", nil},
		{"unicode kept", "数据库 ✔", "数据库 ✔", nil},
		{"empty", "", "", ErrOtherEmpty},
		{"blank", " \t ", "", ErrOtherEmpty},
		{"only controls", "\x1b\x07\u202e", "", ErrOtherEmpty},
		{"only a zero-width space", "\u200b", "", ErrOtherEmpty},
		{"only an ideographic space", "\u3000", "", ErrOtherEmpty},
		{"only what draws nothing", " \ufeff\u00a0\u2060\u00ad ", "", ErrOtherEmpty},
		{"zero-width joiner kept", " 👩\u200d💻 ", "👩\u200d💻", nil},
		{"trimmed of unicode spaces", "\u3000MariaDB\u00a0", "MariaDB", nil},
		{"invalid utf-8", "caf\xe9", "", ErrOtherEncoding},
		{"at the limit", long, long, nil},
		{"limit after cleaning", long + "\x1b\x1b", long, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CheckOther(tc.in)
			if !errors.Is(err, tc.err) || got != tc.want {
				t.Errorf("CheckOther(%q) = %q, %v; want %q, %v", tc.in, got, err, tc.want, tc.err)
			}
		})
	}
	_, err := CheckOther(long + "x")
	le, ok := errors.AsType[*OtherLengthError](err)
	if !ok || le.Length != MaxOtherLength+1 {
		t.Fatalf("CheckOther(2001 characters) = %v, want an *OtherLengthError of 2001", err)
	}
	if want := "must be at most 2000 characters (got 2001)"; err.Error() != want {
		t.Errorf("error text %q, want %q", err, want)
	}
}

func TestKind(t *testing.T) {
	for _, k := range []Kind{KindChoice, KindText, KindConfirm, KindInput} {
		b, err := k.MarshalText()
		var back Kind
		if err != nil || back.UnmarshalText(b) != nil || back != k {
			t.Errorf("%v: %s, %v; read back as %v", k, b, err, back)
		}
	}
	var k Kind
	if err := k.UnmarshalText([]byte("yesno")); err == nil {
		t.Errorf("an unknown type was read as %v", k)
	}
	// A choice is the question without "type".
	if b, _ := json.Marshal(Question{Question: "q", Header: "h"}); strings.Contains(string(b), "type") {
		t.Errorf("a choice is written %s", b)
	}
}

func TestCheck(t *testing.T) {
	single := Question{Question: "Which?", Header: "Database", Options: []Option{{Label: "SQLite"}, {Label: "MySQL"}}}
	multi := Question{Question: "Which?", Header: "Features", MultiSelect: true, Options: []Option{{Label: "Auth"}, {Label: "Search"}}}
	text := Question{Question: "Name?", Header: "Name", Kind: KindText}
	yesNo := ConfirmQuestion("Deploy?", true)
	input := InputQuestion("Branch?", "", "main")
	for _, c := range []struct {
		q    Question
		a    Answer
		want Answer
	}{
		{single, Answer{Labels: []string{"MySQL"}, Note: " fast\tenough "}, Answer{Labels: []string{"MySQL"}, Note: "fast enough"}},
		{multi, Answer{Labels: []string{"Search", "Auth"}, Other: "mine"}, Answer{Labels: []string{"Auth", "Search"}, Other: "mine"}},
		{text, Answer{Other: " UserCard "}, Answer{Other: "UserCard"}},
		{yesNo, Answer{Labels: []string{"No"}}, Answer{Labels: []string{"No"}}},
		{input, Answer{Other: "dev"}, Answer{Other: "dev"}},
	} {
		if got, err := c.q.Check(c.a); err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Check(%+v) = %+v, %v; want %+v", c.q.Header, c.a, got, err, c.want)
		}
	}
	for _, c := range []struct {
		q       Question
		a       Answer
		problem string
		is      error
	}{
		{single, Answer{Labels: []string{"sqlite"}}, `"sqlite" is not one of the options`, nil},
		{single, Answer{Labels: []string{"SQLite"}, Other: "x"}, "2 choices for a single-select", ErrTooMany},
		{single, Answer{}, "nothing is chosen", ErrNothingChosen},
		{multi, Answer{Labels: []string{"Auth", "Auth"}}, "chosen twice", nil},
		{text, Answer{Labels: []string{"x"}}, "no options", nil},
		{text, Answer{}, "no text", ErrNoText},
		{single, Answer{Labels: []string{"SQLite"}, Note: "\xff"}, "the note must be UTF-8", ErrOtherEncoding},
		{single, Answer{Other: strings.Repeat("x", MaxOtherLength+1)}, "at most", nil},
		{yesNo, Answer{Labels: []string{"Yes", "No"}}, "2 choices", ErrTooMany},
		{yesNo, Answer{Other: "maybe"}, "no typed answer", nil},
		{yesNo, Answer{Labels: []string{"Yes"}, Note: "sure"}, "no note", nil},
		{input, Answer{Other: "dev", Note: "why"}, "no note", nil},
		{input, Answer{}, "no text", ErrNoText},
	} {
		_, err := c.q.Check(c.a)
		if err == nil || !strings.Contains(err.Error(), c.problem) || c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: Check(%+v) = %v, want an error about %q", c.q.Header, c.a, err, c.problem)
		}
	}
}

// TestRemake checks that the question of askuser confirm, input or choose
// that an asker sends is made again from its text, options and default,
// checked.
func TestRemake(t *testing.T) {
	sent := ConfirmQuestion("Deploy?", false)
	sent.Options = append(sent.Options, Option{Label: "Maybe"})
	sent.Header = "Forged"
	if got, err := Remake(sent); err != nil || !reflect.DeepEqual(got, ConfirmQuestion("Deploy?", false)) {
		t.Errorf("Remake(%+v) = %+v, %v", sent, got, err)
	}
	if got, err := Remake(InputQuestion("Branch?", "main", " dev\t")); err != nil || got.Default != "dev" || got.Placeholder != "main" {
		t.Errorf("Remake(input) = %+v, %v", got, err)
	}
	choose, err := ChooseQuestion("Where?", "Deploy", []string{"staging", "prod"}, true)
	if err != nil {
		t.Fatal(err)
	}
	forged := choose
	forged.Options = []Option{{Label: "staging", Description: "said by the sender", Preview: "also"}, {Label: "prod\t"}}
	forged.Placeholder, forged.Default = "x", "prod"
	if got, err := Remake(forged); err != nil || !reflect.DeepEqual(got, choose) {
		t.Errorf("Remake(%+v) = %+v, %v; want %+v", forged, got, err, choose)
	}
	for _, q := range []Question{
		{Kind: KindConfirm, Question: "Deploy?", Default: "maybe"},
		{Kind: KindConfirm, Question: " \u200b", Default: "Yes"},
		InputQuestion("Branch?", "", "\x1b"),
		{Question: "Which?", Header: "h"},
		{Kind: KindList, Question: "Which?", Header: "h"},
		{Kind: KindList, Question: "Which?", Header: " ", Options: []Option{{Label: "a"}}},
		{Kind: KindList, Question: "Which?", Header: "h", Options: []Option{{Label: "a"}, {Label: "A"}}},
		{Kind: KindList, Question: "Which?", Header: "h", Options: []Option{{Label: "other"}}},
		{Kind: KindList, Question: "Which?", Header: "h", Options: []Option{{Label: "a"}, {Label: "\u200b"}}},
	} {
		if got, err := Remake(q); err == nil {
			t.Errorf("Remake(%+v) = %+v", q, got)
		}
	}
}

// The options of askuser choose are checked as the input's labels are,
// and each error names the option by its place on the command line.
func TestChooseQuestion(t *testing.T) {
	q, err := ChooseQuestion("Which?", "Pick", []string{" a\tb ", "c"}, false)
	if err != nil || q.Kind != KindList || len(q.Options) != 2 || q.Options[0].Label != "a b" || q.Options[1] != (Option{Label: "c"}) {
		t.Errorf("ChooseQuestion = %+v, %v", q, err)
	}
	for _, tt := range []struct {
		labels []string
		msg    string
	}{
		{nil, "needs at least one option"},
		{[]string{"a", " "}, "option 2 must not be empty"},
		{[]string{"Other"}, `option 1 must not be "Other": an Other choice is added automatically`},
		{[]string{"SQLite", "sq\u200blite"}, `option 2 is option 1 again ("sq\u200blite"): options must differ, ignoring case`},
		{[]string{"\xff"}, "option 1 must be UTF-8 text; check the terminal's encoding"},
	} {
		if _, err := ChooseQuestion("Which?", "Pick", tt.labels, true); err == nil || err.Error() != tt.msg {
			t.Errorf("ChooseQuestion(%q): %v, want %s", tt.labels, err, tt.msg)
		}
	}
}
