package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// writeAnswers prints {"answers":{...}} with the keys in question order, as
// one write, so that a reader never sees part of a result.
func writeAnswers(w io.Writer, qs []schema.Question, answers []prompt.Answer, key schema.KeyBy) error {
	var b bytes.Buffer
	b.WriteString(`{"answers":{`)
	for i, q := range qs {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(&b, key.Key(q))
		b.WriteByte(':')
		writeString(&b, answers[i].String())
	}
	b.WriteString("}}\n")
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
