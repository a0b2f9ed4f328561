package testutil

import (
	"testing"

	"github.com/askuser/askuser/schema"
)

// KindCase is a question of one kind of schema's kind table, and the answer
// a person gives it in every view: the second option, Yes, or the text
// "typed", as its gesture asks.
type KindCase struct {
	Question schema.Question
	Answer   schema.Answer
}

// KindCases are a question of every kind, for the test of each view that
// asks every kind through it, so that a kind a view does not handle fails
// there. A kind of a gesture that no case answers yet fails t.
func KindCases(t testing.TB) []KindCase {
	t.Helper()
	var cases []KindCase
	for k := range schema.Kinds {
		q := schema.Question{Kind: k, Header: "Pick", Question: "Which one?"}
		var a schema.Answer
		switch k.Gesture() {
		case schema.GesturePick:
			q.Options = []schema.Option{{Label: "First", Description: "The first"}, {Label: "Second", Description: "The second"}}
			a.Labels = []string{"Second"}
		case schema.GestureYesNo:
			q.Options, q.Default = []schema.Option{{Label: schema.Yes}, {Label: schema.No}}, schema.No
			a.Labels = []string{schema.Yes}
		case schema.GestureType:
			a.Other = "typed"
		default:
			t.Fatalf("no answer to a question of gesture %d (kind %s): add one here, and a way to give it in each view's TestEveryKind", k.Gesture(), k)
		}
		if k.Scripted() {
			var err error
			if q, err = schema.Remake(q); err != nil {
				t.Fatalf("kind %s: %v", k, err)
			}
		}
		cases = append(cases, KindCase{Question: q, Answer: a})
	}
	return cases
}
