package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// rules checks what JSON Schema cannot say: unique keys, unique labels, no
// explicit Other, and preset answers and notes that name a question once
// and fit it. It works on the decoded document, as far as its shape allows,
// so that its problems join the schema's in one list, and reads it into an
// Input as it goes: when neither the rules nor the schema find a problem,
// that is the input, with the preset answers and notes keyed as key says
// (FuzzParse checks that it is what json.Unmarshal makes of the input).
// The typed part of each preset answer, and each note, must pass
// CheckOther. Like the schema (see withinLimits), it looks at no more
// questions, and options of a question, than one past the limits lim.
func rules(doc any, key KeyBy, lim Limits) (*Input, []Problem) {
	root, _ := doc.(map[string]any)
	raw, _ := root["questions"].([]any)
	raw = raw[:min(len(raw), lim.MaxQuestions+1)]
	qs, keyed, ps := questionRules(raw, key, lim.MaxOptions)
	keys := newKeyIndex(qs, key)
	in := &Input{Questions: qs}
	in.Answers, ps = keys.check(root, "answers", keyed, answerRule, ps)
	in.Annotations, ps = keys.check(root, "annotations", keyed, noteRule, ps)
	return in, ps
}

// questionRules reads the questions raw, and checks that their answer keys
// differ and that the labels of each question differ and are not Other. It
// looks at no more options of a question than maxOptions+1. keyed tells
// whether any question has a key to answer it by.
func questionRules(raw []any, key KeyBy, maxOptions int) (qs []Question, keyed bool, ps []Problem) {
	qs = make([]Question, len(raw))
	seen := map[string]int{} // answer key, as seen → index of the first question with it
	for i, q := range raw {
		q, _ := q.(map[string]any)
		qs[i] = questionOf(q)
		if k := key.Key(qs[i]); !isBlank(k) {
			// Keys that differ only by what draws nothing look the same
			// on the screen and in the output.
			shown := stripInvisible(k)
			if first, dup := seen[shown]; dup {
				ps = append(ps, problem([]any{"questions", i, string(key)},
					"same as questions[%d].%s (%q); answers are keyed by %s, so each must be different",
					first, key, k, key.noun()))
			} else {
				seen[shown] = i
			}
		}
		opts, _ := q["options"].([]any)
		ps = append(ps, labelRules(i, opts[:min(len(opts), maxOptions+1)])...)
	}
	return qs, len(seen) > 0, ps
}

// labelRules checks the labels of the options opts of question i: none is
// Other, and no two are the same.
func labelRules(i int, opts []any) []Problem {
	var ps []Problem
	labels := map[string]int{}
	for j, o := range opts {
		o, _ := o.(map[string]any)
		l, ok := o["label"].(string)
		if !ok || isBlank(l) {
			continue
		}
		at := []any{"questions", i, "options", j, "label"}
		// Labels are compared as a person reads them: "Other\u200b"
		// is Other, and "SQ\u200bLite" is SQLite.
		norm := strings.ToLower(strings.TrimSpace(stripInvisible(l)))
		switch first, dup := labels[norm]; {
		case norm == "other":
			ps = append(ps, problem(at, "must not be %q: an Other choice is added to every question automatically", l))
		case dup:
			ps = append(ps, problem(at, "same as options[%d].label (%q); labels must differ, ignoring case", first, l))
		default:
			labels[norm] = j
		}
	}
	return ps
}

// answerRule reads a preset answer v, at at, to q, and checks it
// (textProblems, on its part that names no option).
func answerRule(at []any, q Question, v any) (string, []Problem) {
	s, ok := v.(string)
	if !ok {
		return "", nil
	}
	_, other := q.Resolve(s)
	_, ps := textProblems(at, s, other)
	return s, ps
}

// noteRule reads the notes of a preset annotation v, at at, cleaned by
// CheckOther, and checks them (textProblems).
func noteRule(at []any, _ Question, v any) (string, []Problem) {
	a, _ := v.(map[string]any)
	notes, ok := a["notes"].(string)
	if !ok {
		return "", nil
	}
	return textProblems(with(at, "notes"), notes, notes)
}

// textProblems says what is wrong with s, an answer or a note given in
// advance, at at: it is empty, or blank (only white space and characters
// that draw nothing), or typed, the part of it that names no option (""
// for none), fails CheckOther. It returns typed cleaned by CheckOther.
func textProblems(at []any, s, typed string) (string, []Problem) {
	switch {
	case s == "":
		return "", one(at, msgEmpty)
	case isBlank(s):
		return "", one(at, msgBlank)
	case typed == "":
		return "", nil
	}
	clean, err := CheckOther(typed)
	if err != nil {
		return "", one(at, "%s", err)
	}
	return clean, nil
}

// questionOf reads a decoded question that may not be valid into a
// Question, by the Question's own JSON fields, as far as its shape allows:
// json.Unmarshal leaves a field of the wrong type empty, for the schema to
// report. A "type" that names no kind stops it there, after every other
// field of the question: json.Marshal sorts the keys.
func questionOf(q map[string]any) Question {
	var out Question
	b, _ := json.Marshal(q) // decoded JSON, which writes again
	_ = json.Unmarshal(b, &out)
	return out
}

// keyIndex finds the question that the key of a preset answer or note
// names. Agents key them by header or by question text (Claude Code uses
// the text), whatever --key says: a key names the question whose answer key
// (header, or text under --key question) it is, or else the question whose
// other field it is.
type keyIndex struct {
	key     KeyBy
	qs      []Question
	byKey   map[string]int   // answer key → its question (the first, if several)
	byOther map[string][]int // other field → its questions
}

func newKeyIndex(qs []Question, key KeyBy) *keyIndex {
	x := &keyIndex{key: key, qs: qs, byKey: map[string]int{}, byOther: map[string][]int{}}
	for i, q := range qs {
		k, other := key.Key(q), key.other().Key(q)
		if _, dup := x.byKey[k]; !dup && !isBlank(k) {
			x.byKey[k] = i
		}
		if !isBlank(other) {
			x.byOther[other] = append(x.byOther[other], i)
		}
	}
	return x
}

// names returns the keys and other fields of the questions, for
// suggesting one.
func (x *keyIndex) names() []string {
	var out []string
	for _, by := range []KeyBy{x.key, x.key.other()} {
		for _, q := range x.qs {
			if k := by.Key(q); !isBlank(k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// resolve matches names, the keys of an object at field keyed like the
// answers, to questions. It returns the key each question is named by, and
// the problems: keys that name no question (only when strict), or several,
// and questions named twice.
func (x *keyIndex) resolve(field string, names []string, strict bool) (map[int]string, []Problem) {
	slices.Sort(names)
	var ps []Problem
	chosen := map[int]string{}
	for _, k := range names {
		at := []any{field, k}
		// k names the question whose answer key it is, else the questions
		// whose other field it is: one, or none, or several.
		i, ok := x.byKey[k]
		switch others := x.byOther[k]; {
		case ok:
		case len(others) == 0:
			if strict {
				ps = append(ps, problem(at, "no question has this header or question text%s", didYouMean(k, x.names())))
			}
			continue
		case len(others) > 1:
			var where []string
			for _, j := range others {
				where = append(where, fmt.Sprintf("questions[%d]", j))
			}
			ps = append(ps, problem(at, "names %s, which have this %s; key it by %s",
				strings.Join(where, " and "), x.key.other().noun(), x.key.noun()))
			continue
		default:
			i = others[0]
		}
		prev, dup := chosen[i]
		if !dup {
			chosen[i] = k
			continue
		}
		// One key is the question's answer key, the other its other
		// field: the problem is on the other, which the output does not
		// use.
		keyForm, otherForm := prev, k
		if k == x.key.Key(x.qs[i]) {
			keyForm, otherForm = k, prev
			chosen[i] = k
		}
		ps = append(ps, problem([]any{field, otherForm}, "names the same question as %s; keep one of the two",
			formatPath([]any{field, keyForm})))
	}
	return chosen, ps
}

// check resolves the keys of the object at field of root, keyed like the
// answers, and reads each value that names one question with value, keyed
// as x keys answers; it is nil when root has no such object. The problems
// found are added to ps.
func (x *keyIndex) check(root map[string]any, field string, strict bool, value func(at []any, q Question, v any) (string, []Problem), ps []Problem) (map[string]string, []Problem) {
	m, ok := root[field].(map[string]any)
	if !ok {
		return nil, ps
	}
	chosen, more := x.resolve(field, slices.Collect(maps.Keys(m)), strict)
	ps = append(ps, more...)
	out := make(map[string]string, len(chosen))
	for i, k := range chosen {
		v, more := value([]any{field, k}, x.qs[i], m[k])
		out[x.key.Key(x.qs[i])] = v
		ps = append(ps, more...)
	}
	return out, ps
}

// AddPresets adds answers known from elsewhere (from names where, e.g. an
// environment variable) for the questions that the input does not answer
// itself: the input's own answers win. As in the input, a preset may be
// keyed by header or by question text, and it is added keyed as key says.
// Presets are checked as the input's answers are, with from in place of
// "answers" in each problem: a key that no question has (with the key it
// may have meant), a question named by two presets (its header and its
// text), a key that names several questions, an empty preset for a
// question, or one whose own text (what names no option) CheckOther
// refuses, is a *ValidationError.
func (in *Input) AddPresets(from string, presets map[string]string, key KeyBy) error {
	chosen, ps := newKeyIndex(in.Questions, key).resolve(from, slices.Collect(maps.Keys(presets)), true)
	for i, pk := range chosen {
		q, v := in.Questions[i], presets[pk]
		k := key.Key(q)
		if _, own := in.Answers[k]; own {
			continue
		}
		if _, bad := answerRule([]any{from, pk}, q, v); bad != nil {
			ps = append(ps, bad...)
			continue
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
