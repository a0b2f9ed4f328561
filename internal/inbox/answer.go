package inbox

import (
	"fmt"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// checkAnswers checks that answers answer qs, one per question, each as
// Question.Check does, and returns them cleaned. Both the inbox (before an
// answer leaves it) and the asker (before it prints one) call it, so that
// nothing is printed that the person did not give.
func checkAnswers(qs []schema.Question, answers []prompt.Answer) ([]prompt.Answer, error) {
	if len(answers) != len(qs) {
		return nil, fmt.Errorf("%d answers for %d questions", len(answers), len(qs))
	}
	out := make([]prompt.Answer, len(qs))
	for i, q := range qs {
		a, err := q.Check(answers[i])
		if err != nil {
			return nil, fmt.Errorf("answer %d (%q): %w", i+1, q.Header, err)
		}
		out[i] = a
	}
	return out, nil
}
