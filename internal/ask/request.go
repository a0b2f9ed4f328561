package ask

import (
	"cmp"
	"context"
	"errors"
	"io"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Request is one set of questions to ask, how they are checked, and how
// their answers are written.
type Request struct {
	// Schema checks Doc, the questions document (the input format), as
	// Parse does.
	Schema *schema.Schema
	Doc    []byte
	// Key keys the answers, and the input's answers and notes given in
	// advance, by header or by question text (--key).
	Key schema.KeyBy
	// Arrays writes each multi-select answer as an array (--arrays).
	Arrays bool
	// Presets are answers known before asking (ASKUSER_ANSWERS), keyed as
	// the input's "answers" are.
	Presets map[string]string

	// Streams, Options and Rest are how Run asks: the streams and the
	// environment, how to ask, and what followed the questions on stdin
	// (the answers; nil when the questions came from elsewhere).
	Streams *Streams
	Options Options
	Rest    io.Reader
}

// Run asks the questions of r that are not answered in advance, in one
// run, and returns the prepared request with every answer, for Write.
func Run(ctx context.Context, r Request) (*Prepared, error) {
	c, err := Prepare(r)
	if err != nil || len(c.Pending) == 0 {
		return c, err
	}
	return c, runAsking(ctx, r.Streams, r.Options, c, c.noAnswer)
}

// Prepared is a Request with its questions checked and the answers given in
// advance taken: what is left to ask, and where the answers go.
type Prepared struct {
	Request
	input *schema.Input
	// answers holds an answer for each question, in question order: the
	// ones given in advance, and the input's notes, then those that Fill
	// adds.
	answers []prompt.Answer
	// Pending are the indexes in input.Questions of the questions to ask.
	Pending []int
}

// Parse checks the questions document doc with sch, its answers and notes
// given in advance keyed by key. A syntax error in a document written with
// single quotes says so.
func Parse(sch *schema.Schema, doc []byte, key schema.KeyBy) (*schema.Input, error) {
	in, err := sch.Parse(doc, key)
	if _, syntax := errors.AsType[*schema.SyntaxError](err); syntax && singleQuoted(doc) {
		return nil, &singleQuotesError{Err: err}
	}
	return in, err
}

// Prepare checks r's questions, adds the presets to their answers given in
// advance, and takes them.
func Prepare(r Request) (*Prepared, error) {
	in, err := Parse(r.Schema, r.Doc, r.Key)
	if err != nil {
		return nil, err
	}
	if err := in.AddPresets("ASKUSER_ANSWERS", r.Presets, r.Key); err != nil {
		return nil, err
	}
	c := &Prepared{Request: r, input: in, answers: make([]prompt.Answer, len(in.Questions))}
	for i, q := range in.Questions {
		// A note the input gave passes through to the answer, asked or
		// not, unless the person writes one of their own (see Fill).
		k := r.Key.Key(q)
		c.answers[i].Note = in.Annotations[k]
		v, ok := in.Answers[k]
		if !ok {
			c.Pending = append(c.Pending, i)
			continue
		}
		labels, other := q.Resolve(v)
		// Parse and AddPresets have checked this very part, typed (what
		// names no option), with CheckOther, and refused the request had
		// it failed: this only cleans it (and leaves "", none, as it is).
		other, _ = schema.CheckOther(other)
		c.answers[i] = prompt.Answer{Labels: labels, Other: other, Note: c.answers[i].Note}
	}
	return c, nil
}

// Questions returns the questions left to ask, in order.
func (c *Prepared) Questions() []schema.Question {
	qs := make([]schema.Question, len(c.Pending))
	for j, i := range c.Pending {
		qs[j] = c.input.Questions[i]
	}
	return qs
}

// Fill takes the answers to Questions, in their order. A note the person
// wrote wins over the input's: it is the newer word of the person the
// notes come from.
func (c *Prepared) Fill(got []prompt.Answer) {
	for j, i := range c.Pending {
		note := cmp.Or(got[j].Note, c.answers[i].Note)
		c.answers[i] = got[j]
		c.answers[i].Note = note
	}
}

// NoAnswer names the question at which the answer input ended, when err
// says that it did.
func (c *Prepared) noAnswer(err error) error {
	short, ok := errors.AsType[*prompt.ShortError](err)
	if !ok {
		return err
	}
	q := c.input.Questions[c.Pending[short.Answered]]
	return &noAnswerError{Index: c.Pending[short.Answered] + 1, Total: len(c.input.Questions), Key: c.Key.Key(q)}
}

// Answers returns every answer, in question order, once Fill has taken those
// asked, for a door that writes them in a form of its own.
func (c *Prepared) Answers() []prompt.Answer { return c.answers }

// Write writes every answer, as the command line prints them.
func (c *Prepared) Write(w io.Writer) error {
	return WriteAnswers(w, c.input.Questions, c.answers, c.Key, c.Arrays)
}
