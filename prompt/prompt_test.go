package prompt

import (
	"context"
	"reflect"
	"testing"

	"github.com/askuser/askuser/schema"
)

func TestSummarize(t *testing.T) {
	qs := []schema.Question{{Header: "Database"}, {Header: "Features"}, {Header: "Not answered"}}
	answers := []Answer{
		{Labels: []string{"PostgreSQL (Recommended)"}},
		{Labels: []string{"Auth", "Search"}, Other: "Audit log"},
	}
	want := []Summary{
		{Asked: "Database:", Answer: "PostgreSQL (Recommended)"},
		{Asked: "Features:", Answer: "Auth, Search, Audit log"},
	}
	if got := Summarize(qs, answers); !reflect.DeepEqual(got, want) {
		t.Errorf("Summarize = %q\nwant %q", got, want)
	}
}

// AskOne asks the one question of confirm or input in the asker's own
// way, and leaves every other set, even of one question, to Ask.
func TestAskOne(t *testing.T) {
	confirm := func(_ context.Context, message string, def bool) (bool, error) { return !def, nil }
	input := func(_ context.Context, message, placeholder, def string) (string, error) {
		return message + "|" + placeholder + "|" + def, nil
	}
	for _, tc := range []struct {
		qs   []schema.Question
		ok   bool
		want []Answer
	}{
		{[]schema.Question{ConfirmQuestion("Deploy?", true)}, true, []Answer{{Labels: []string{"No"}}}},
		{[]schema.Question{ConfirmQuestion("Deploy?", false)}, true, []Answer{{Labels: []string{"Yes"}}}},
		{[]schema.Question{InputQuestion("Name?", "Card", "Deck")}, true, []Answer{{Other: "Name?|Card|Deck"}}},
		{[]schema.Question{{Type: schema.TypeText, Question: "Name?", Header: "Name"}}, false, nil},
		{[]schema.Question{ConfirmQuestion("Deploy?", true), ConfirmQuestion("Again?", true)}, false, nil},
	} {
		got, ok, err := AskOne(context.Background(), tc.qs, confirm, input)
		if err != nil || ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("AskOne(%+v) = %+v, %v, %v; want %+v, %v", tc.qs, got, ok, err, tc.want, tc.ok)
		}
	}
}
