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
	var values, notes bytes.Buffer // the members of "answers" and of "annotations"
	for i, q := range qs {
		a := answers[i]
		var v any = a.String()
		if arrays && q.MultiSelect && !q.Kind.Typed() {
			v = a.Parts()
		}
		member(&values, key.Key(q), v)
		if a.Note != "" {
			// Claude Code's own result shape: {KEY: {"notes": text}}.
			member(&notes, key.Key(q), map[string]string{"notes": a.Note})
		}
	}
	out := `{"answers":{` + values.String() + "}"
	if notes.Len() > 0 {
		out += `,"annotations":{` + notes.String() + "}"
	}
	if _, err := io.WriteString(w, out+"}\n"); err != nil {
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

// member adds the member k: v to the members of a JSON object written in
// b, in the order they are added.
func member(b *bytes.Buffer, k string, v any) {
	if b.Len() > 0 {
		b.WriteByte(',')
	}
	b.WriteString(jsonout.String(k) + ":" + jsonout.String(v))
}
