package ask

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Output says how the answers are written.
type Output struct {
	Key schema.KeyBy
	// arrays writes each multi-select answer as an array of the chosen
	// labels, in option order, with the typed answer as one more element:
	// labels and typed text may hold ", ", which the joined string cannot
	// be split at again.
	Arrays bool
}

// WriteAnswers prints {"answers":{...}}, and "annotations" with the notes
// when any answer has one, with the keys in question order, as one write,
// so that a reader never sees part of a result.
func WriteAnswers(w io.Writer, qs []schema.Question, answers []prompt.Answer, o Output) error {
	var b bytes.Buffer
	b.WriteString(`{"answers":{`)
	notes := false
	for i, q := range qs {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(&b, o.Key.Key(q))
		b.WriteByte(':')
		a := answers[i]
		notes = notes || a.Note != ""
		if !o.Arrays || !q.MultiSelect || q.Kind.Typed() {
			writeString(&b, a.String())
			continue
		}
		b.WriteByte('[')
		for j, l := range a.Labels {
			if j > 0 {
				b.WriteByte(',')
			}
			writeString(&b, l)
		}
		if a.Other != "" {
			if len(a.Labels) > 0 {
				b.WriteByte(',')
			}
			writeString(&b, a.Other)
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	if notes {
		// Claude Code's own result shape: {KEY: {"notes": text}}.
		b.WriteString(`,"annotations":{`)
		first := true
		for i, q := range qs {
			if answers[i].Note == "" {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			writeString(&b, o.Key.Key(q))
			b.WriteString(`:{"notes":`)
			writeString(&b, answers[i].Note)
			b.WriteByte('}')
		}
		b.WriteByte('}')
	}
	b.WriteString("}\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write answers: %w", err)
	}
	return nil
}

// writeString writes s as a JSON string without HTML escaping: the output
// is read by programs, not embedded in pages.
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // Encode ends with a newline
}
