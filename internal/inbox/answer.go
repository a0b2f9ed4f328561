package inbox

import (
	"fmt"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Reply is the person's answer to a set: Answers for a set of KindAsk, Yes
// for KindConfirm, Text for KindInput.
type Reply struct {
	Answers []prompt.Answer
	Yes     bool
	Text    string
}

// CheckAnswers checks that answers answer qs as a person could have: one
// answer per question; for a choice, labels that are the question's own,
// each once, one choice in all for a single-select question and at least
// one for a multi-select one; for a text question, text and no labels; and
// every typed answer and note fit for the output (prompt.CheckOther). It
// returns the answers cleaned, with the labels in option order, so that
// nothing is printed that the person did not give. Both the inbox (before
// an answer leaves it) and the asker (before it prints one) call it.
func CheckAnswers(qs []schema.Question, answers []prompt.Answer) ([]prompt.Answer, error) {
	if len(answers) != len(qs) {
		return nil, fmt.Errorf("%d answers for %d questions", len(answers), len(qs))
	}
	out := make([]prompt.Answer, len(qs))
	for i, q := range qs {
		a, err := checkAnswer(q, answers[i])
		if err != nil {
			return nil, fmt.Errorf("answer %d (%q): %w", i+1, q.Header, err)
		}
		out[i] = a
	}
	return out, nil
}

func checkAnswer(q schema.Question, a prompt.Answer) (prompt.Answer, error) {
	var out prompt.Answer
	var err error
	if a.Note != "" {
		if out.Note, err = prompt.CheckOther(a.Note); err != nil {
			return out, fmt.Errorf("the note %w", err)
		}
	}
	if a.Other != "" {
		if out.Other, err = prompt.CheckOther(a.Other); err != nil {
			return out, fmt.Errorf("the typed answer %w", err)
		}
	}
	if q.IsText() {
		if len(a.Labels) > 0 {
			return out, fmt.Errorf("a text question has no options to choose")
		}
		if out.Other == "" {
			return out, fmt.Errorf("no text")
		}
		return out, nil
	}
	chosen := make([]bool, len(q.Options))
	for _, l := range a.Labels {
		j := optionIndex(q, l)
		switch {
		case j < 0:
			return out, fmt.Errorf("%q is not one of the options", l)
		case chosen[j]:
			return out, fmt.Errorf("%q is chosen twice", l)
		}
		chosen[j] = true
	}
	for j, o := range q.Options {
		if chosen[j] {
			out.Labels = append(out.Labels, o.Label)
		}
	}
	n := len(out.Labels)
	if out.Other != "" {
		n++
	}
	switch {
	case n == 0:
		return out, fmt.Errorf("nothing is chosen")
	case n > 1 && !q.MultiSelect:
		return out, fmt.Errorf("%d choices for a single-select question", n)
	}
	return out, nil
}

func optionIndex(q schema.Question, label string) int {
	for j, o := range q.Options {
		if o.Label == label {
			return j
		}
	}
	return -1
}

// CheckText checks the answer to a set of KindInput, as CheckAnswers does.
func CheckText(text string) (string, error) {
	s, err := prompt.CheckOther(text)
	if err != nil {
		return "", fmt.Errorf("the text %w", err)
	}
	return s, nil
}
