package schema

import (
	"slices"
	"strconv"
	"strings"
)

// How an answer given as text is matched to a question's options, the same
// way for every asker (a line typed at a prompt, a form sent by the web
// page) and for the answers given in advance: a label matches ignoring case
// and the space around it.

// Choice reads one choice typed for q: a number (1 to the number of
// options for an option, 0 for Other), "other", or an option's label,
// ignoring case. It returns the option's index, or -1 for Other, and
// false when s is none of these. s is taken as it is: trim it first.
func (q Question) Choice(s string) (int, bool) {
	if k, err := strconv.Atoi(s); err == nil {
		if k == 0 {
			return -1, true
		}
		if k >= 1 && k <= len(q.Options) {
			return k - 1, true
		}
		return 0, false
	}
	if strings.EqualFold(s, "other") {
		return -1, true
	}
	return q.option(s)
}

// option finds the option labelled s, ignoring case and the space around
// the label.
func (q Question) option(s string) (int, bool) {
	for j, o := range q.Options {
		if strings.EqualFold(strings.TrimSpace(o.Label), s) {
			return j, true
		}
	}
	return 0, false
}

// Resolve reads an answer given as text — a preset, or a line typed at a
// prompt that is not a number — the way a person would mean it. Text that
// names an option (ignoring case and surrounding space) chooses it; in a
// multi-select question the text may name several, separated by commas.
// Whatever names no option is the person's own answer. The labels come back
// in option order.
func (q Question) Resolve(text string) (labels []string, other string) {
	text = strings.TrimSpace(text)
	if q.Kind.Typed() {
		return nil, text
	}
	if j, ok := q.option(text); ok {
		return []string{q.Options[j].Label}, ""
	}
	if !q.MultiSelect {
		return nil, text
	}
	chosen := map[string]bool{}
	var rest []string
	parts := strings.Split(text, ",")
	for i := 0; i < len(parts); i++ {
		// A label may itself hold commas ("Yes, with tests"): try the
		// longest run of parts that names an option first.
		j := len(parts)
		for ; j > i; j-- {
			if l, ok := q.labelOfParts(parts[i:j]); ok {
				chosen[l] = true
				break
			}
		}
		if j > i {
			i = j - 1
		} else if part := strings.TrimSpace(parts[i]); part != "" {
			rest = append(rest, part)
		}
	}
	for _, o := range q.Options {
		if chosen[o.Label] {
			labels = append(labels, o.Label)
		}
	}
	return labels, strings.Join(rest, ", ")
}

// labelOfParts finds the option whose label, split at its commas, is
// parts, ignoring case and the space around each part.
func (q Question) labelOfParts(parts []string) (string, bool) {
	same := func(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }
	for _, o := range q.Options {
		if slices.EqualFunc(strings.Split(o.Label, ","), parts, same) {
			return o.Label, true
		}
	}
	return "", false
}
