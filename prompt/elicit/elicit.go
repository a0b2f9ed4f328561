// Package elicit asks through the MCP client's own interface: MCP
// elicitation. The questions become one form of flat fields, as
// elicitation allows: a single-select question is a string enum titled
// with the option labels, a multi-select question an array of them, a text
// question a string, and each question with options has an optional field
// for the person's own answer (Other). What the question and its options
// say goes into the field descriptions. What comes back is checked against
// the labels, and every typed answer with schema.CheckOther; a form the
// person can put right is sent again, saying what to put right.
//
// Form and Outcome are the two halves of one round, for a server that
// returns the form to the client and reads the reply on the next call (the
// multi round-trip requests of MCP 2026-07-28); Prompter runs the rounds
// itself over a session that lets the server send requests.
package elicit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// ErrDeclined means the person declined to answer: the client's "decline".
var ErrDeclined = errors.New("declined")

// ClientError is a reply that the form could not have produced: a value of
// the wrong type, a label that is not an option, an action elicitation
// does not have. It is the client's fault, not the person's, so it is not
// sent back to be put right.
type ClientError struct {
	Msg string
}

func (e *ClientError) Error() string { return "the MCP client replied to the form with " + e.Msg }

// notShown returns an elicitation request that the client failed, rather than
// answered, and why: it declared elicitation but cannot show this form,
// or does not show forms at all. Nothing was asked of the person.
func notShown(why error) error {
	return &prompt.NobodyError{Err: fmt.Errorf("the MCP client could not show the form: %w", why)}
}

// Prompter asks through elicitation requests that it sends itself. It asks
// again, saying why, until the person sends answers that are fine, or
// declines, or cancels, or ctx ends. A request the client fails, or
// declines or cancels sooner than a person could (see Unattended), asked
// nobody: a *prompt.NobodyError.
type Prompter struct {
	// Elicit sends one elicitation request and returns the client's reply,
	// as mcp.ServerSession.Elicit does; it must return promptly when ctx
	// is done.
	Elicit func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error)
	// Version is the protocol version the client speaks, for Form.
	Version string
	// Quickest is the soonest a person can decline or cancel a form they
	// were shown (see Unattended); 0 takes every reply as the person's.
	Quickest time.Duration
}

// Quickest is how soon after a form is sent a person can decline or
// cancel it, at the least: they must see the form appear, take in what it
// asks, and reach a key or button. Reacting to something appearing on
// screen alone takes a person about a quarter of a second, and reading a
// question more; clients that cannot show forms reply within
// milliseconds (codex exec within 10 ms, Claude Code in print mode as
// fast), so a second tells the two apart with room on both sides.
const Quickest = time.Second

// Unattended returns a *prompt.NobodyError when res declines or cancels the
// form sooner after it was sent (after) than a person could (quickest):
// such a reply is the client's own, from one that declares forms but
// cannot show them, and nothing was asked of the person. It returns nil
// for any other reply, and when quickest is 0.
func Unattended(res *mcp.ElicitResult, after, quickest time.Duration) error {
	if res == nil || after >= quickest {
		return nil
	}
	did, ok := map[string]string{"decline": "declined", "cancel": "cancelled"}[res.Action]
	if !ok {
		return nil
	}
	return notShown(fmt.Errorf("it %s the form %d ms after it was sent, sooner than a person can read it", did, after.Milliseconds()))
}

// maxRounds is how many times a form is sent before askuser gives up on a
// client that sends it back unanswered: one that accepts forms without
// showing them would otherwise be asked without end.
const maxRounds = 10

// Ask puts qs to the person through the client; see Prompter.
func (a *Prompter) Ask(ctx context.Context, qs []schema.Question) ([]prompt.Answer, error) {
	params := Form(qs, a.Version)
	for round := 1; round <= maxRounds; round++ {
		sent := time.Now()
		res, err := a.Elicit(ctx, params)
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		if err != nil {
			return nil, notShown(err)
		}
		// Once the person has sent the form back, they are there: a form
		// asked again is theirs to cancel, however quickly.
		if err := Unattended(res, time.Since(sent), a.Quickest); round == 1 && err != nil {
			return nil, err
		}
		answers, again, err := Outcome(qs, a.Version, res)
		if err != nil || again == nil {
			return answers, err
		}
		params = again
	}
	return nil, &ClientError{Msg: fmt.Sprintf("answers that do not fit it %d times", maxRounds)}
}

// Outcome reads the client's reply to the form that asked qs (made by Form
// for version, or returned by Outcome). It returns one answer per question;
// or, when the person can put right what they sent, the form to send next;
// or ErrDeclined, prompt.ErrCancelled, or a *ClientError.
func Outcome(qs []schema.Question, version string, res *mcp.ElicitResult) ([]prompt.Answer, *mcp.ElicitParams, error) {
	if res == nil {
		return nil, nil, &ClientError{Msg: "nothing"}
	}
	switch res.Action {
	case "accept":
	case "decline":
		return nil, nil, ErrDeclined
	case "cancel":
		return nil, nil, prompt.ErrCancelled
	default:
		return nil, nil, &ClientError{Msg: fmt.Sprintf("the action %q", res.Action)}
	}
	answers := make([]prompt.Answer, len(qs))
	problems := make([]string, len(qs)) // what the person can put right, by question
	for i, q := range qs {
		var err error
		answers[i], problems[i], err = read(q, fieldsOf(q, i, len(qs)), legacyForm(version), res.Content)
		if err != nil {
			return nil, nil, err
		}
	}
	if slices.ContainsFunc(problems, func(p string) bool { return p != "" }) {
		return nil, form(qs, version, problems, res.Content), nil
	}
	return answers, nil, nil
}

// read reads the answer to q, in its fields f, from the form's content
// and checks it (Question.Check). A problem is what the person can put
// right; an error, what the client got wrong.
func read(q schema.Question, f fields, legacy bool, content map[string]any) (prompt.Answer, string, error) {
	var a prompt.Answer
	var err error
	if !q.Kind.Typed() {
		if a.Labels, err = chosenOf(q, f, legacy, content); err != nil {
			return a, "", err
		}
	}
	if f.typed != "" {
		own, err := field[string](content, f.typed, "text")
		if err != nil {
			return a, "", err
		}
		// Checked as every prompter does; only space is no answer.
		text, err := schema.CheckOther(own)
		long, tooLong := errors.AsType[*schema.OtherLengthError](err)
		switch {
		case err == nil:
			a.Other = text
		case tooLong:
			return a, fmt.Sprintf("Your answer is too long: at most %d characters (got %d).", schema.MaxOtherLength, long.Length), nil
		case !errors.Is(err, schema.ErrOtherEmpty):
			return a, "Your answer " + err.Error() + ".", nil
		}
	}
	if !q.MultiSelect && len(a.Labels) == 1 && a.Other != "" {
		if j, ok := q.Choice(a.Other); ok && j >= 0 && q.Options[j].Label == a.Labels[0] {
			// The chosen label typed out again says the same thing.
			a.Other = ""
		}
	}
	a, err = q.Check(a)
	switch {
	case err == nil:
		return a, "", nil
	case errors.Is(err, schema.ErrNoText):
		return a, "Type your answer.", nil
	case errors.Is(err, schema.ErrNothingChosen) && q.MultiSelect:
		return a, "Choose at least one option, or type your own answer.", nil
	case errors.Is(err, schema.ErrNothingChosen):
		return a, "Choose an option, or type your own answer.", nil
	case errors.Is(err, schema.ErrTooMany):
		return a, "Choose an option or type your own answer, not both.", nil
	}
	return a, "", &ClientError{Msg: fmt.Sprintf("an answer to %s that does not fit it (%v)", f.answer, err)}
}

// chosenOf returns what the reply chose among q's options, in its fields f, as
// the form asked: boxes to tick (legacy), a list, or one choice.
func chosenOf(q schema.Question, f fields, legacy bool, content map[string]any) ([]string, error) {
	var chosen []string
	switch {
	case q.MultiSelect && legacy:
		for j, o := range q.Options {
			tick, err := field[bool](content, f.box(j), "a box to tick")
			if err != nil {
				return nil, err
			}
			if tick {
				chosen = append(chosen, o.Label)
			}
		}
	case q.MultiSelect:
		list, err := field[[]any](content, f.answer, "a list of options")
		if err != nil {
			return nil, err
		}
		for _, item := range list {
			s, ok := item.(string)
			if !ok {
				return nil, &ClientError{Msg: fmt.Sprintf("%s among the choices of %s", describeValue(item), f.answer)}
			}
			chosen = append(chosen, s)
		}
	default:
		s, err := field[string](content, f.answer, "text")
		if err != nil {
			return nil, err
		}
		if s != "" {
			chosen = []string{s}
		}
	}
	return chosen, nil
}

// field reads the field name of the form's content as a T, which the form
// asks for as what: T's zero value when it is absent, and a *ClientError
// when it is of another type.
func field[T any](content map[string]any, name, what string) (T, error) {
	var zero T
	v, ok := content[name]
	if !ok || v == nil {
		return zero, nil
	}
	t, ok := v.(T)
	if !ok {
		return zero, &ClientError{Msg: fmt.Sprintf("%s for %s, which is %s", describeValue(v), name, what)}
	}
	return t, nil
}

// describeValue names the JSON type of v, for a ClientError.
func describeValue(v any) string {
	switch v.(type) {
	case string:
		return "text"
	case bool:
		return "true or false"
	case float64, int, int64:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}
