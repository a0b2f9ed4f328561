package schema

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Kind is what a question asks for: a closed set, read once where a
// question comes in (its "type"). What differs between kinds is one row
// of the table kinds, which every view reads through Kind's methods: none
// switches on a kind.
type Kind uint8

// The kinds of question. The input gives KindChoice (without "type") and
// KindText; KindConfirm, KindInput and KindList are the questions of
// askuser confirm, input and choose, which askuser makes from their
// arguments (see Scripted): the first two asked alone, with a Default.
const (
	KindChoice  Kind = iota // the options (several with MultiSelect), or Other
	KindText                // typed text, without options
	KindConfirm             // Yes or No
	KindInput               // a line of typed text
	KindList                // askuser choose's: the options given as a list, without descriptions, or Other
)

// Gesture is what the person does to answer a question: pick among its
// options, say yes or no, or type. Each view has one way of taking each
// gesture, and asks every kind of that gesture alike.
type Gesture uint8

// The gestures that answer.
const (
	GesturePick  Gesture = iota // choose among the options (several with MultiSelect)
	GestureYesNo                // Yes or No, the options of the question
	GestureType                 // type text, without options
)

// kindRow is what differs between kinds: how the question is answered
// (its gesture), whether the person may type an answer of their own (Other)
// instead of, or beside, the options, whether it is asked alone, as
// askuser confirm and input ask theirs, under header: without its header
// shown; whether the person may attach a note to the answer (note),
// which only askuser's own answers have a place for (annotations); and
// whether a command makes it (scripted).
type kindRow struct {
	name                         string // as the input's "type" writes it
	gesture                      Gesture
	other, alone, note, scripted bool
	header                       string
}

// kinds is the one table of what differs between the kinds of question,
// a row a kind.
var kinds = [...]kindRow{
	KindChoice:  {name: "choice", gesture: GesturePick, other: true, note: true},
	KindText:    {name: "text", gesture: GestureType, note: true},
	KindConfirm: {name: "confirm", gesture: GestureYesNo, alone: true, scripted: true, header: "Confirm"},
	KindInput:   {name: "input", gesture: GestureType, alone: true, scripted: true, header: "Input"},
	KindList:    {name: "choose", gesture: GesturePick, other: true, scripted: true},
}

// Kinds is how many kinds of question there are: for k := range Kinds
// visits each.
const Kinds = Kind(len(kinds))

func (k Kind) String() string {
	if int(k) < len(kinds) {
		return kinds[k].name
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// MarshalText writes k as the input's "type" does.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind as the input's "type" (or an asker's request
// to the inbox) writes it.
func (k *Kind) UnmarshalText(b []byte) error {
	i := slices.IndexFunc(kinds[:], func(row kindRow) bool { return row.name == string(b) })
	if i < 0 {
		return fmt.Errorf("unknown type of question %q", b)
	}
	*k = Kind(i)
	return nil
}

// Gesture says what the person does to answer a question of kind k.
func (k Kind) Gesture() Gesture { return kinds[k].gesture }

// Typed reports whether the answer is text the person types rather than
// a choice among options.
func (k Kind) Typed() bool { return k.Gesture() == GestureType }

// OffersOther reports whether the person may type an answer of their own
// (Other) instead of, or beside, the options.
func (k Kind) OffersOther() bool { return kinds[k].other }

// Alone reports whether the question is asked on its own, as askuser
// confirm and input ask theirs: without its header.
func (k Kind) Alone() bool { return kinds[k].alone }

// OffersNote reports whether the person may attach a note to the answer:
// to askuser's own questions, whose answers carry notes (annotations),
// and not to those of the commands for scripts, whose printed answer has
// no place for one.
func (k Kind) OffersNote() bool { return kinds[k].note }

// Scripted reports whether the question is the one question of a command
// for scripts (askuser confirm, input, choose), which askuser makes from
// its arguments rather than reads from the input: the schema does not
// take it, and Remake checks it instead.
func (k Kind) Scripted() bool { return kinds[k].scripted }

// The options of a question of GestureYesNo.
const (
	Yes = "Yes"
	No  = "No"
)

// ConfirmQuestion makes the yes/no question of askuser confirm, whose answer
// is the option Yes or No (see IsYes); Enter takes Yes when yes is set.
func ConfirmQuestion(message string, yes bool) Question {
	return KindConfirm.alone(message, "", YesOrNo(yes))
}

// YesOrNo is the option Yes when yes is set, else No: the answer of a
// ConfirmQuestion, or its default.
func YesOrNo(yes bool) string {
	if yes {
		return Yes
	}
	return No
}

// InputQuestion makes the question of askuser input, a line of text, whose
// answer is the text typed (Answer.Other); Enter takes def when it is not
// "". The placeholder is an example answer.
func InputQuestion(message, placeholder, def string) Question {
	return KindInput.alone(message, placeholder, def)
}

// alone makes the question of kind k, asked alone, with its text, and the
// placeholder and default that its gesture takes.
func (k Kind) alone(text, placeholder, def string) Question {
	q := Question{Kind: k, Header: kinds[k].header, Question: text, Default: def}
	switch k.Gesture() {
	case GestureYesNo:
		q.Options = []Option{{Label: Yes}, {Label: No}}
	case GestureType:
		q.Placeholder = placeholder
	}
	return q
}

// ChooseQuestion makes the question of askuser choose: question, under
// header, with an option for each of labels (several may be chosen with
// multi), and Other. Its answer is the labels chosen, or the person's own
// text. It returns why the labels cannot be options: each must be text
// that could be typed (CheckOther), not Other (which every choice offers)
// and unlike the others, ignoring case, as the schema has the labels of
// the input.
func ChooseQuestion(question, header string, labels []string, multi bool) (Question, error) {
	if len(labels) == 0 {
		return Question{}, errors.New("needs at least one option")
	}
	q := Question{Kind: KindList, Header: header, Question: question, MultiSelect: multi, Options: make([]Option, len(labels))}
	seen := map[string]int{}
	for i, l := range labels {
		clean, err := CheckOther(l)
		if err != nil {
			return Question{}, fmt.Errorf("option %d %w", i+1, err)
		}
		norm := strings.ToLower(stripInvisible(clean))
		switch first, dup := seen[norm]; {
		case norm == "other":
			return Question{}, fmt.Errorf("option %d must not be %q: an Other choice is added automatically", i+1, l)
		case dup:
			return Question{}, fmt.Errorf("option %d is option %d again (%q): options must differ, ignoring case", i+1, first+1, l)
		}
		seen[norm] = i
		q.Options[i] = Option{Label: clean}
	}
	return q, nil
}

// IsYes reports whether a, the answer to a ConfirmQuestion, is yes.
func IsYes(a Answer) bool { return len(a.Labels) == 1 && a.Labels[0] == Yes }

// Remake returns q, the question of a command for scripts (see Scripted)
// that comes from elsewhere (an asker's request to the inbox), made again
// from its text, options and default, once they are checked: the rest of
// such a question is not the sender's to say.
func Remake(q Question) (Question, error) {
	if isBlank(q.Question) {
		return Question{}, fmt.Errorf("a %s question needs its question", q.Kind)
	}
	def := q.Default
	switch g := q.Kind.Gesture(); {
	case !q.Kind.Scripted():
		return Question{}, fmt.Errorf("a %s question is not made by a command", q.Kind)
	case g == GesturePick && isBlank(q.Header):
		return Question{}, fmt.Errorf("a %s question needs its header", q.Kind)
	case g == GesturePick:
		labels := make([]string, len(q.Options))
		for i, o := range q.Options {
			labels[i] = o.Label
		}
		c, err := ChooseQuestion(q.Question, q.Header, labels, q.MultiSelect)
		if err != nil {
			return Question{}, fmt.Errorf("a %s question's %w", q.Kind, err)
		}
		return c, nil
	case g == GestureYesNo && def != Yes && def != No:
		return Question{}, fmt.Errorf("the default of a %s question must be Yes or No", q.Kind)
	case g == GestureType && def != "":
		var err error
		if def, err = CheckOther(def); err != nil {
			return Question{}, fmt.Errorf("the default %w", err)
		}
	}
	return q.Kind.alone(q.Question, q.Placeholder, def), nil
}
