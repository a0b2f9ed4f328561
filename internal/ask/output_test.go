package ask

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// writes records each Write call.
type writes struct{ calls []string }

func (w *writes) Write(p []byte) (int, error) {
	w.calls = append(w.calls, string(p))
	return len(p), nil
}

func TestWriteAnswers(t *testing.T) {
	qs := []schema.Question{
		{Question: "Which zebra?", Header: "Zebra"},
		{Question: "Which apple?", Header: "Apple"},
		{Question: "Which <tag> & co?", Header: "Tags & <more>"},
		{Question: "Which path?", Header: "数据库"},
	}
	answers := []prompt.Answer{
		{Labels: []string{"Mountain"}},
		{Labels: []string{"Gala", "Fuji"}, Other: "Crab"},
		{Other: `<b>"bold"</b> & more`},
		{Labels: []string{`C:\Users`, "é 🇪🇸"}},
	}
	tests := []struct {
		key  schema.KeyBy
		want string
	}{
		{schema.KeyHeader, `{"answers":{"Zebra":"Mountain","Apple":"Gala, Fuji, Crab","Tags & <more>":"<b>\"bold\"</b> & more","数据库":"C:\\Users, é 🇪🇸"}}` + "\n"},
		{schema.KeyQuestion, `{"answers":{"Which zebra?":"Mountain","Which apple?":"Gala, Fuji, Crab","Which <tag> & co?":"<b>\"bold\"</b> & more","Which path?":"C:\\Users, é 🇪🇸"}}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(string(tt.key), func(t *testing.T) {
			var w writes
			if err := WriteAnswers(&w, qs, answers, tt.key, false); err != nil {
				t.Fatal(err)
			}
			if len(w.calls) != 1 {
				t.Fatalf("%d writes, want one", len(w.calls))
			}
			if w.calls[0] != tt.want {
				t.Errorf("\n got %s\nwant %s", w.calls[0], tt.want)
			}
		})
	}
}

// With --arrays, a multi-select answer is an array, its typed answer one
// more element; every other answer is a string. Notes follow the answers,
// in question order, only for the answers that have one.
func TestWriteAnswersArraysAndNotes(t *testing.T) {
	qs := []schema.Question{
		{Question: "Proceed?", Header: "Go", Options: []schema.Option{{Label: "Yes, proceed"}, {Label: "No"}}},
		{Question: "Which?", Header: "Features", MultiSelect: true, Options: []schema.Option{{Label: "A, B"}, {Label: "C"}}},
		{Question: "Own?", Header: "Own", MultiSelect: true, Options: []schema.Option{{Label: "X"}, {Label: "Y"}}},
		{Question: "Name?", Header: "Name", Kind: schema.KindText},
	}
	answers := []prompt.Answer{
		{Labels: []string{"Yes, proceed"}, Note: "say \"why\""},
		{Labels: []string{"A, B", "C"}, Other: "D, and E"},
		{Other: "Z, too"},
		{Other: "Card", Note: "<short>"},
	}
	for _, tt := range []struct {
		name   string
		key    schema.KeyBy
		arrays bool
		want   string
	}{
		{"strings", schema.KeyHeader, false,
			`{"answers":{"Go":"Yes, proceed","Features":"A, B, C, D, and E","Own":"Z, too","Name":"Card"},"annotations":{"Go":{"notes":"say \"why\""},"Name":{"notes":"<short>"}}}` + "\n"},
		{"arrays", schema.KeyQuestion, true,
			`{"answers":{"Proceed?":"Yes, proceed","Which?":["A, B","C","D, and E"],"Own?":["Z, too"],"Name?":"Card"},"annotations":{"Proceed?":{"notes":"say \"why\""},"Name?":{"notes":"<short>"}}}` + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var w writes
			if err := WriteAnswers(&w, qs, answers, tt.key, tt.arrays); err != nil {
				t.Fatal(err)
			}
			if len(w.calls) != 1 || w.calls[0] != tt.want {
				t.Errorf("\n got %q\nwant %s", w.calls, tt.want)
			}
		})
	}
}

func TestWriteAnswersValidUTF8(t *testing.T) {
	var b strings.Builder
	qs := []schema.Question{{Header: "H\xff"}}
	if err := WriteAnswers(&b, qs, []prompt.Answer{{Other: "caf\xe9 \x00\u2028"}}, schema.KeyHeader, false); err != nil {
		t.Fatal(err)
	}
	if !utf8.ValidString(b.String()) {
		t.Errorf("output is not UTF-8: %q", b.String())
	}
	if want := `{"answers":{"H\ufffd":"caf\ufffd \u0000\u2028"}}` + "\n"; b.String() != want {
		t.Errorf("\n got %s\nwant %s", b.String(), want)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestWriteAnswersError(t *testing.T) {
	err := WriteAnswers(failingWriter{}, []schema.Question{{Header: "H"}}, []prompt.Answer{{Labels: []string{"A"}}}, schema.KeyHeader, false)
	if err == nil || !strings.Contains(err.Error(), "the answer could not be written: broken pipe") {
		t.Errorf("err = %v", err)
	}
	if _, code := Outcome(err, "askuser"); code != exitError {
		t.Errorf("exit code %d", code)
	}
}

// TestEveryKind writes the answer to a question of every kind of schema's
// kind table, as its text, under its key.
func TestEveryKind(t *testing.T) {
	for _, c := range testutil.KindCases(t) {
		var b strings.Builder
		if err := WriteAnswers(&b, []schema.Question{c.Question}, []prompt.Answer{c.Answer}, schema.KeyHeader, true); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf(`{"answers":{%q:%q}}`+"\n", c.Question.Header, c.Answer.String())
		if b.String() != want {
			t.Errorf("the %s question: %s, want %s", c.Question.Kind, b.String(), want)
		}
	}
}
