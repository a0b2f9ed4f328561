//go:build unix

package main

import (
	"bytes"
	"fmt"
	"strings"
)

// small is the document of every timed run: one question, two options.
const small = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL (Recommended)","description":"Relational, rich features"},{"label":"SQLite","description":"Embedded, zero configuration"}],"multiSelect":false}]}`

// smallWant is askuser's output when small is answered 2.
const smallWant = `{"answers":{"Database":"SQLite"}}` + "\n"

// inputCap is the largest document askuser accepts (schema.MaxInputSize;
// not imported, so that the harness builds against any revision).
const inputCap = 1 << 20

// capSize is the size of the large documents: at the cap, with room for
// the newline an agent's shell adds after it.
const capSize = inputCap - 16

// The schema's limits (schema.json), at which the large document of
// questions is written.
const (
	maxQuestions      = 4
	maxOptions        = 4
	maxQuestionLength = 500
	maxHeaderLength   = 12
	maxLabelLength    = 50
	maxDescLength     = 200
	maxPreviewLength  = 4000
)

// emoji is one character outside the Basic Multilingual Plane, written as
// the JSON escape of its surrogate pair: 12 bytes of input for one
// character, the most a character can take.
const emoji = `\ud83d\ude80`

// text is n characters, the first ones prefix (ASCII, to keep labels and
// headers apart), the rest emoji.
func text(prefix string, n int) string {
	return prefix + strings.Repeat(emoji, n-len(prefix))
}

// questionsDoc is a valid document of capSize bytes made of questions:
// four single-select questions of four options, every text at its longest
// (previews included) in escaped emoji, and the bytes left up to capSize
// (about a fifth) as white space. want is askuser's output
// when every question is answered 2.
func questionsDoc() (doc []byte, want string) {
	var b bytes.Buffer
	var answers []string
	b.WriteString(`{"questions":[`)
	for q := range maxQuestions {
		if q > 0 {
			b.WriteByte(',')
		}
		header := fmt.Sprintf("Q%d", q+1)
		fmt.Fprintf(&b, `{"question":"%s","header":"%s","multiSelect":false,"options":[`,
			text(fmt.Sprintf("Question %d ", q+1), maxQuestionLength), header)
		for o := range maxOptions {
			if o > 0 {
				b.WriteByte(',')
			}
			label := text(fmt.Sprintf("Option %d.%d ", q+1, o+1), maxLabelLength)
			fmt.Fprintf(&b, `{"label":"%s","description":"%s","preview":"%s"}`,
				label, text("", maxDescLength), text("", maxPreviewLength))
			if o == 1 {
				answers = append(answers, fmt.Sprintf(`"%s":"%s"`, header, strings.ReplaceAll(label, emoji, "\U0001F680")))
			}
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	return pad(b.Bytes()), `{"answers":{` + strings.Join(answers, ",") + `}}` + "\n"
}

// metadataDoc is a valid document of capSize bytes whose bulk is metadata,
// which askuser ignores: small's question, and as many of the smallest
// objects as fit.
func metadataDoc() []byte {
	var b bytes.Buffer
	b.WriteString(small[:len(small)-1])
	b.WriteString(`,"metadata":{"events":[`)
	const tail = `]}}`
	for i := 0; ; i++ {
		item := fmt.Sprintf(`{"n":%d}`, i)
		if i > 0 {
			item = "," + item
		}
		if b.Len()+len(item)+len(tail) > capSize {
			break
		}
		b.WriteString(item)
	}
	b.WriteString(tail)
	return pad(b.Bytes())
}

// pad brings doc up to capSize with white space after its opening brace.
func pad(doc []byte) []byte {
	if len(doc) > capSize {
		panic(fmt.Sprintf("document of %d bytes is over %d", len(doc), capSize))
	}
	out := make([]byte, 0, capSize)
	out = append(out, doc[0], '\n')
	out = append(out, bytes.Repeat([]byte{' '}, capSize-len(doc)-1)...)
	return append(out, doc[1:]...)
}
