package schema

import (
	"fmt"
	"strings"
)

// rules checks what JSON Schema cannot say: unique keys, unique labels, no
// explicit Other, and answers that fit their questions. It works on the
// decoded document, as far as its shape allows, so that its problems join
// the schema's in one list. check, when not nil, checks the typed part of
// each preset answer.
func rules(doc any, key KeyBy, check func(string) (string, error)) []Problem {
	root, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	var ps []Problem
	qs, _ := root["questions"].([]any)
	keyed := map[string]int{} // answer key → index of the first question with it
	var keys []string
	asked := map[string]Question{} // answer key → its question, as far as known
	for i, q := range qs {
		q, ok := q.(map[string]any)
		if !ok {
			continue
		}
		if k, ok := q[key.field()].(string); ok {
			if _, dup := asked[k]; !dup {
				asked[k] = questionOf(q)
			}
		}
		if k, ok := q[key.field()].(string); ok && strings.TrimSpace(k) != "" {
			if first, dup := keyed[k]; dup {
				ps = append(ps, problem([]any{"questions", i, key.field()},
					"same as questions[%d].%s (%q); answers are keyed by %s, so each must be different",
					first, key.field(), k, key.noun()))
			} else {
				keyed[k] = i
				keys = append(keys, k)
			}
		}
		opts, _ := q["options"].([]any)
		labels := map[string]int{}
		for j, o := range opts {
			o, ok := o.(map[string]any)
			if !ok {
				continue
			}
			l, ok := o["label"].(string)
			if !ok || strings.TrimSpace(l) == "" {
				continue
			}
			at := []any{"questions", i, "options", j, "label"}
			norm := strings.ToLower(strings.TrimSpace(l))
			if norm == "other" {
				ps = append(ps, problem(at, "must not be %q: an Other choice is added to every question automatically", l))
				continue
			}
			if first, dup := labels[norm]; dup {
				ps = append(ps, problem(at, "same as options[%d].label (%q); labels must differ, ignoring case", first, l))
				continue
			}
			labels[norm] = j
		}
	}
	answers, _ := root["answers"].(map[string]any)
	for k, v := range answers {
		at := []any{"answers", k}
		if _, ok := keyed[k]; !ok && len(keys) > 0 {
			msg := fmt.Sprintf("no question has this %s", key.noun())
			if s := suggest(k, keys); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			ps = append(ps, problem(at, "%s", msg))
			continue
		}
		s, ok := v.(string)
		if !ok {
			continue
		}
		if msg := noText(s); msg != "" {
			ps = append(ps, problem(at, "%s", msg))
			continue
		}
		if q, ok := asked[k]; ok && check != nil {
			if _, other := q.Resolve(s); other != "" {
				if _, err := check(other); err != nil {
					ps = append(ps, problem(at, "%s", err))
				}
			}
		}
	}
	return ps
}

// questionOf reads what Resolve needs from a decoded question that may not
// be valid: its type, the labels and whether it is a multi-select.
func questionOf(q map[string]any) Question {
	var out Question
	out.Type, _ = q["type"].(string)
	out.MultiSelect, _ = q["multiSelect"].(bool)
	opts, _ := q["options"].([]any)
	for _, o := range opts {
		if o, ok := o.(map[string]any); ok {
			if l, ok := o["label"].(string); ok {
				out.Options = append(out.Options, Option{Label: l})
			}
		}
	}
	return out
}

// AddPresets adds answers known from elsewhere (from names where, e.g. an
// environment variable) for the questions that the input does not answer
// itself: the input's own answers win. Presets for keys that no question
// has are ignored, since one set of presets may serve many inputs; an empty
// preset for a question, or one whose own text (what names no option) the
// CheckAnswer of the Schema that parsed the input refuses, is a
// *ValidationError.
func (in *Input) AddPresets(from string, presets map[string]string, key KeyBy) error {
	var ps []Problem
	for _, q := range in.Questions {
		k := key.Key(q)
		v, ok := presets[k]
		if !ok {
			continue
		}
		if _, own := in.Answers[k]; own {
			continue
		}
		if msg := noText(v); msg != "" {
			ps = append(ps, problem([]any{from, k}, "%s", msg))
			continue
		}
		if in.checkAnswer != nil {
			if _, other := q.Resolve(v); other != "" {
				if _, err := in.checkAnswer(other); err != nil {
					ps = append(ps, problem([]any{from, k}, "%s", err))
					continue
				}
			}
		}
		if in.Answers == nil {
			in.Answers = map[string]string{}
		}
		in.Answers[k] = v
	}
	if len(ps) > 0 {
		return newValidationError(ps)
	}
	return nil
}

// noText says what is wrong with an answer that has no text: it is empty,
// or blank. It returns "" for an answer with text.
func noText(s string) string {
	switch {
	case s == "":
		return msgEmpty
	case strings.TrimSpace(s) == "":
		return msgBlank
	}
	return ""
}
