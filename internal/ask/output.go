package ask

import (
	"bytes"
	"fmt"
	"io"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
	"github.com/askuser/askuser/schema/jsonout"
)

// WriteAnswers prints {"answers":{...}}, keyed as key says, and
// "annotations" with the notes when any answer has one, with the keys in
// question order, as one write, so that a reader never sees part of a
// result. With arrays, each multi-select answer is an array of the chosen
// labels, in option order, with the typed answer as one more element:
// labels and typed text may hold ", ", which the joined string cannot be
// split at again.
func WriteAnswers(w io.Writer, qs []schema.Question, answers []prompt.Answer, key schema.KeyBy, arrays bool) error {
	keys := make([]string, len(qs))
	values := make([]any, len(qs))
	var noted []string // the keys of the answers with a note
	var notes []any
	for i, q := range qs {
		a := answers[i]
		keys[i], values[i] = key.Key(q), a.String()
		if arrays && q.MultiSelect && !q.Kind.Typed() {
			labels := append([]string{}, a.Labels...)
			if a.Other != "" {
				labels = append(labels, a.Other)
			}
			values[i] = labels
		}
		if a.Note != "" {
			// Claude Code's own result shape: {KEY: {"notes": text}}.
			noted = append(noted, keys[i])
			notes = append(notes, map[string]string{"notes": a.Note})
		}
	}
	var b bytes.Buffer
	b.WriteString(`{"answers":`)
	writeObject(&b, keys, values)
	if len(noted) > 0 {
		b.WriteString(`,"annotations":`)
		writeObject(&b, noted, notes)
	}
	b.WriteString("}\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write answers: %w", err)
	}
	return nil
}

// writeObject writes the JSON object of keys and their values, in that
// order.
func writeObject(b *bytes.Buffer, keys []string, values []any) {
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonout.String(k))
		b.WriteByte(':')
		b.WriteString(jsonout.String(values[i]))
	}
	b.WriteByte('}')
}
