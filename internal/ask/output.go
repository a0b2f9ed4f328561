package ask

import (
	"bytes"
	"errors"
	"io"
	"syscall"

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
		return &NotWrittenError{Err: err}
	}
	return nil
}

// NotWrittenError is an answer the person gave that could not be written
// on stdout: its error says the answer is lost, where a command that only
// prints text ends quietly when its reader has gone (see Outcome).
type NotWrittenError struct{ Err error }

func (e *NotWrittenError) Error() string {
	if errors.Is(e.Err, syscall.EPIPE) {
		return "the person answered, but the answer could not be written: the reader of stdout went away (" + e.Err.Error() + ")"
	}
	return "the person answered, but the answer could not be written: " + e.Err.Error()
}

func (e *NotWrittenError) Unwrap() error { return e.Err }

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
