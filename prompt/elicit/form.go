package elicit

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// titledEnums is the first protocol version whose forms have titled enums
// (oneOf, anyOf) and multi-select arrays. Before it, a choice is an enum
// with enumNames, and a multi-select question is a box to tick per option.
const titledEnums = "2025-11-25"

func legacyForm(version string) bool { return version != "" && version < titledEnums }

// fields are the names of the fields of one question of a form: answer
// holds its choice or choices ("qN_pick"; a multi-select question in a
// form without arrays has a box to tick per option instead, box), or the
// answer of typed text ("qN_text"); typed holds what the person types:
// that answer, or their own answer beside a choice ("qN_other"), or none
// ("") for a yes/no question.
// Codex (0.169.0) shows a form's fields sorted by name, and sends the form
// only from the last field: so a question's own answer, which is
// optional, sorts before its choice ("q1_other", "q1_pick", "q1_pick_1"),
// and the questions, and the options, are numbered as wide as the largest
// ("q01" with ten questions or more), so that they stay in order.
type fields struct {
	answer, typed string
	options       int // the number of options, for box
}

// fieldsOf returns the fields of question i (q) of a form of n questions.
func fieldsOf(q schema.Question, i, n int) fields {
	prefix := "q" + padded(i+1, n) + "_"
	f := fields{answer: prefix + "pick", options: len(q.Options)}
	switch {
	case q.Kind.Typed():
		f.answer = prefix + "text"
		f.typed = f.answer
	case q.Kind.OffersOther():
		f.typed = prefix + "other"
	}
	return f
}

// box returns the box to tick of option j.
func (f fields) box(j int) string { return f.answer + "_" + padded(j+1, f.options) }

// padded returns k, with leading zeros to the width of n.
func padded(k, n int) string { return fmt.Sprintf("%0*d", len(strconv.Itoa(n)), k) }

// Form returns the elicitation request that asks qs, for a client that
// speaks protocol version (which decides how choices are written; "" for
// the newest form). Everything shown from the questions goes through
// prompt.Display or prompt.DisplayMultiline: a client may draw the form on
// a terminal. The labels themselves are the values sent back.
func Form(qs []schema.Question, version string) *mcp.ElicitParams {
	return form(qs, version, nil, nil)
}

// form returns Form, asking again: problems say, by question, what was wrong
// with the answers the person sent ("" where nothing was; nil before any
// were sent), and last holds what they sent, so that
// the answers that were fine are filled in again. The fields are kept in
// the order the questions are asked (PropertyOrder): a client shows them in
// the order it reads them, and a map would sort "q10" before "q2".
func form(qs []schema.Question, version string, problems []string, last map[string]any) *mcp.ElicitParams {
	r := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	for i, q := range qs {
		keep := last != nil && problems[i] == ""
		put := func(name string, p *jsonschema.Schema) {
			if v, ok := last[name]; keep && ok && v != nil && v != "" {
				// What the client sent was JSON: it is written again.
				p.Default, _ = json.Marshal(v)
			}
			r.Properties[name] = p
			r.PropertyOrder = append(r.PropertyOrder, name)
		}
		add(r, q, fieldsOf(q, i, len(qs)), legacyForm(version), len(qs) > 1, put)
	}
	return &mcp.ElicitParams{Mode: "form", Message: message(qs, problems), RequestedSchema: r}
}

// add adds the fields of q, named as f says, to the form r (legacy: of a
// protocol version without titled enums and arrays; several: of several
// questions, which says each question beside its fields) through put,
// which fills in what the person sent before: its answer or its choice, a
// box to tick per option for a multi-select question without arrays, and
// the person's own answer where Other is offered.
func add(r *jsonschema.Schema, q schema.Question, f fields, legacy, several bool, put func(name string, p *jsonschema.Schema)) {
	title := prompt.Display(q.Header)
	desc := describe(q, several)
	var p *jsonschema.Schema
	switch {
	case q.Kind.Typed():
		if q.Placeholder != "" {
			desc = joinParts(desc, "For example: "+prompt.Display(q.Placeholder))
		}
		p = &jsonschema.Schema{Type: "string", Title: title, Description: desc,
			MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(schema.MaxOtherLength)}
		r.Required = append(r.Required, f.answer)
	case q.MultiSelect && legacy:
		// Each box says what its own option means; the first, in a form
		// of several questions, the question too.
		for j, o := range q.Options {
			box := &jsonschema.Schema{Type: "boolean", Title: title + ": " + prompt.Display(o.Label), Description: oneLine(o.Description)}
			if j == 0 && several {
				box.Description = joinParts(oneLine(q.Question), box.Description)
			}
			put(f.box(j), box)
		}
	case q.MultiSelect:
		p = &jsonschema.Schema{Type: "array", Title: title + " (choose any)", Description: desc, Items: &jsonschema.Schema{AnyOf: choices(q)}}
	case legacy:
		// An enum, and enumNames (not in JSON Schema) to show it.
		var names []string
		p = &jsonschema.Schema{Type: "string", Title: title, Description: desc}
		for _, o := range q.Options {
			p.Enum = append(p.Enum, o.Label)
			names = append(names, prompt.Display(o.Label))
		}
		p.Extra = map[string]any{"enumNames": names}
	default:
		p = &jsonschema.Schema{Type: "string", Title: title, Description: desc, OneOf: choices(q)}
	}
	if p != nil { // boxes to tick have no field of their own
		if q.Default != "" {
			p.Default, _ = json.Marshal(q.Default) // a string always is
		}
		put(f.answer, p)
	}
	if !q.Kind.OffersOther() {
		return
	}
	other := &jsonschema.Schema{Type: "string", Title: title + ": your own answer", MaxLength: jsonschema.Ptr(schema.MaxOtherLength),
		Description: "Optional: type your own answer instead of choosing an option."}
	if q.MultiSelect {
		other.Description = "Optional: your own answer, added to the options you chose."
	}
	put(f.typed, other)
}

// choices returns the options of q as a titled enum: each label, and how
// it is shown.
func choices(q schema.Question) []*jsonschema.Schema {
	cs := make([]*jsonschema.Schema, len(q.Options))
	for j, o := range q.Options {
		cs[j] = &jsonschema.Schema{Const: jsonschema.Ptr[any](o.Label), Title: prompt.Display(o.Label)}
	}
	return cs
}

// describe returns the description of q's field: the question itself when the
// form holds several (one question is the form's message), then what each
// option means and, for the options that have one, its preview. It is one
// line (see oneLine).
func describe(q schema.Question, withQuestion bool) string {
	var parts, previews []string
	if withQuestion {
		parts = append(parts, oneLine(q.Question))
	}
	for _, o := range q.Options {
		if o.Description != "" {
			parts = append(parts, "• "+prompt.Display(o.Label)+": "+oneLine(o.Description))
		}
		if o.Preview != "" {
			previews = append(previews, "Preview of "+prompt.Display(o.Label)+": "+oneLine(o.Preview))
		}
	}
	return joinParts(append([]string{strings.Join(parts, " ")}, previews...)...)
}

// oneLine puts multi-line text on one line for a field's description:
// clients draw a description on one line, and some show a raw line break as
// "�". Its lines are joined with " · ", which every client draws, and blank
// ones left out.
func oneLine(s string) string {
	var lines []string
	for _, l := range strings.Split(prompt.DisplayMultiline(s), "\n") {
		if l = strings.TrimRight(l, " "); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, " · ")
}

// message returns what the form says above its fields: the question, or how
// many there are; and, when asking again, what to put right.
func message(qs []schema.Question, problems []string) string {
	var b strings.Builder
	if len(problems) > 0 {
		b.WriteString("Please check your answers:\n")
		for i, q := range qs {
			if p := problems[i]; p != "" {
				fmt.Fprintf(&b, "- %s: %s\n", prompt.Display(q.Header), p)
			}
		}
		b.WriteByte('\n')
	}
	if len(qs) == 1 {
		b.WriteString(prompt.DisplayMultiline(qs[0].Question))
	} else {
		headers := make([]string, len(qs))
		for i, q := range qs {
			headers[i] = prompt.Display(q.Header)
		}
		fmt.Fprintf(&b, "Please answer %d questions: %s.", len(qs), strings.Join(headers, ", "))
	}
	return b.String()
}

// joinParts joins the parts of a description that are not empty with a
// dash, on one line.
func joinParts(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), " — ")
}
