package elicit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

var (
	single = schema.Question{Question: "Which database should we use?", Header: "Database", Options: []schema.Option{
		{Label: "PostgreSQL (Recommended)", Description: "Relational, rich features", Preview: "CREATE TABLE notes (id bigserial);"},
		{Label: "SQLite", Description: "Embedded, zero configuration"},
	}}
	multi = schema.Question{Question: "Which features?", Header: "Features", MultiSelect: true, Options: []schema.Option{
		{Label: "Login", Description: "Sign-in"},
		{Label: "Search", Description: "Full text"},
		{Label: "Export", Description: "As JSON"},
	}}
	text = schema.Question{Question: "What should it be called?", Header: "Name", Kind: schema.KindText, Placeholder: "UserCard"}
)

// requestedJSON is the form's schema as the client receives it.
func requestedJSON(t *testing.T, p *mcp.ElicitParams) map[string]any {
	t.Helper()
	b, err := json.Marshal(p.RequestedSchema)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestFormMapsEachKindOfQuestion(t *testing.T) {
	p := Form([]schema.Question{single, multi, text}, "")
	if p.Mode != "form" {
		t.Errorf("mode %q, want form", p.Mode)
	}
	got := requestedJSON(t, p)
	want := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"q1_pick": map[string]any{"type": "string", "title": "Database",
				"description": "Which database should we use? • PostgreSQL (Recommended): Relational, rich features • SQLite: Embedded, zero configuration — Preview of PostgreSQL (Recommended): CREATE TABLE notes (id bigserial);",
				"oneOf": []any{
					map[string]any{"const": "PostgreSQL (Recommended)", "title": "PostgreSQL (Recommended)"},
					map[string]any{"const": "SQLite", "title": "SQLite"},
				}},
			"q1_other": map[string]any{"type": "string", "title": "Database: your own answer", "maxLength": 2000.0,
				"description": "Optional: type your own answer instead of choosing an option."},
			"q2_pick": map[string]any{"type": "array", "title": "Features (choose any)",
				"description": "Which features? • Login: Sign-in • Search: Full text • Export: As JSON",
				"items": map[string]any{"anyOf": []any{
					map[string]any{"const": "Login", "title": "Login"},
					map[string]any{"const": "Search", "title": "Search"},
					map[string]any{"const": "Export", "title": "Export"},
				}}},
			"q2_other": map[string]any{"type": "string", "title": "Features: your own answer", "maxLength": 2000.0,
				"description": "Optional: your own answer, added to the options you chose."},
			"q3_text": map[string]any{"type": "string", "title": "Name", "minLength": 1.0, "maxLength": 2000.0,
				"description": "What should it be called? — For example: UserCard"},
		},
		"required": []any{"q3_text"},
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", "  ")
		t.Errorf("requested schema:\n%s", g)
	}
	if want := "Please answer 3 questions: Database, Features, Name."; p.Message != want {
		t.Errorf("message %q, want %q", p.Message, want)
	}
	// The fields come in question order, as a client shows them.
	b, _ := json.Marshal(p.RequestedSchema)
	if i, j := strings.Index(string(b), `"q2_pick"`), strings.Index(string(b), `"q3_text"`); i < 0 || j < i {
		t.Errorf("fields out of order: %s", b)
	}
}

// Sorted by name, as Codex shows a form and sends it only from its last
// field, the fields keep the questions in order, each question's optional
// own answer before its choice, and the boxes to tick in option order: with
// ten questions or options and more too.
func TestFormFieldsSortAsAsked(t *testing.T) {
	many := multi
	many.Options = nil
	for j := range 11 {
		many.Options = append(many.Options, schema.Option{Label: fmt.Sprintf("Option %d", j+1), Description: "d"})
	}
	var qs []schema.Question
	for range 4 {
		qs = append(qs, single, many, text)
	}
	for _, version := range []string{"", "2025-06-18"} {
		props := requestedJSON(t, Form(qs, version))["properties"].(map[string]any)
		var names []string
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names)
		var want []string
		for i, q := range qs {
			f := fieldsOf(q, i, len(qs))
			switch {
			case q.Kind.Typed():
				want = append(want, f.answer)
			case q.MultiSelect && version != "":
				want = append(want, f.typed)
				for j := range q.Options {
					want = append(want, f.box(j))
				}
			default:
				want = append(want, f.typed, f.answer)
			}
		}
		if !reflect.DeepEqual(names, want) {
			t.Errorf("version %q: fields sorted by name\n%q, want\n%q", version, names, want)
		}
		if names[0] != "q01_other" || names[len(names)-1] != "q12_text" {
			t.Errorf("version %q: fields from %s to %s", version, names[0], names[len(names)-1])
		}
	}
}

func TestFormOfOneQuestionAsksIt(t *testing.T) {
	p := Form([]schema.Question{single}, "")
	if p.Message != single.Question {
		t.Errorf("message %q, want the question", p.Message)
	}
	q1 := requestedJSON(t, p)["properties"].(map[string]any)["q1_pick"].(map[string]any)
	if strings.HasPrefix(q1["description"].(string), single.Question) {
		t.Errorf("the question is said twice: %q", q1["description"])
	}
}

func TestFormBeforeTitledEnums(t *testing.T) {
	got := requestedJSON(t, Form([]schema.Question{single, multi}, "2025-06-18"))["properties"].(map[string]any)
	q1 := got["q1_pick"].(map[string]any)
	if !reflect.DeepEqual(q1["enum"], []any{"PostgreSQL (Recommended)", "SQLite"}) || !reflect.DeepEqual(q1["enumNames"], []any{"PostgreSQL (Recommended)", "SQLite"}) || q1["oneOf"] != nil {
		t.Errorf("single-select for 2025-06-18: %v", q1)
	}
	for j, label := range []string{"Login", "Search", "Export"} {
		box, ok := got[fieldsOf(multi, 1, 2).box(j)].(map[string]any)
		if !ok || box["type"] != "boolean" || box["title"] != "Features: "+label {
			t.Errorf("box for %s: %v", label, got[fieldsOf(multi, 1, 2).box(j)])
		}
	}
	if _, ok := got["q2_pick"]; ok {
		t.Error("an array in a form for 2025-06-18")
	}
	// Each box says what its own option means, and no other's; the first,
	// in this form of two questions, the question too.
	for j, o := range multi.Options {
		want := o.Description
		if j == 0 {
			want = multi.Question + " — " + want
		}
		if got := got[fieldsOf(multi, 1, 2).box(j)].(map[string]any)["description"]; got != want {
			t.Errorf("box for %s says %q, want %q", o.Label, got, want)
		}
	}
	one := requestedJSON(t, Form([]schema.Question{multi}, "2025-06-18"))["properties"].(map[string]any)
	if got := one[fieldsOf(multi, 0, 1).box(0)].(map[string]any)["description"]; got != multi.Options[0].Description {
		t.Errorf("the first box of a form of one question says %q, want only %q", got, multi.Options[0].Description)
	}
	a, again, err := Outcome([]schema.Question{single, multi}, "2025-06-18", &mcp.ElicitResult{Action: "accept", Content: map[string]any{
		"q1_pick": "SQLite", "q2_pick_3": true, "q2_pick_1": true, "q2_pick_2": false,
	}})
	if err != nil || again != nil {
		t.Fatalf("Outcome: %v, again %v", err, again)
	}
	if want := []prompt.Answer{{Labels: []string{"SQLite"}}, {Labels: []string{"Login", "Export"}}}; !reflect.DeepEqual(a, want) {
		t.Errorf("answers %+v, want %+v", a, want)
	}
}

// Text that a terminal would obey is shown, not obeyed: a client may draw
// the form on a terminal. The values sent back are the labels as given.
func TestFormShowsControlCharacters(t *testing.T) {
	q := schema.Question{Question: "Pick\x1b[2J one", Header: "H\x1b]0;x\a", Options: []schema.Option{
		{Label: "A\u202e", Description: "d\x1b[31m"}, {Label: "B", Description: "b"},
	}}
	p := Form([]schema.Question{q}, "")
	b, _ := json.Marshal(p)
	if strings.Contains(string(b), `\u001b`) || strings.Contains(string(b), `\u0007`) || !strings.Contains(p.Message, `\x1b[2J`) {
		t.Errorf("control characters reach the form: %s", b)
	}
	first := requestedJSON(t, p)["properties"].(map[string]any)["q1_pick"].(map[string]any)["oneOf"].([]any)[0]
	if want := map[string]any{"const": "A\u202e", "title": `A\u202e`}; !reflect.DeepEqual(first, want) {
		t.Errorf("the label sent back is not the label as given, or its title is not shown safe: %s", b)
	}
}

func TestOutcome(t *testing.T) {
	qs := []schema.Question{single, multi, text}
	tests := []struct {
		name    string
		content map[string]any
		want    []prompt.Answer
		problem map[string]string // header: what the form asked again says
	}{
		{"choices and text", map[string]any{"q1_pick": "SQLite", "q2_pick": []any{"Export", "Login"}, "q3_text": " OrderList "},
			[]prompt.Answer{{Labels: []string{"SQLite"}}, {Labels: []string{"Login", "Export"}}, {Other: "OrderList"}}, nil},
		{"own answers", map[string]any{"q1_other": "MySQL", "q2_pick": []any{"Search"}, "q2_other": "Tags,\tand\x07 colours", "q3_text": "x"},
			[]prompt.Answer{{Other: "MySQL"}, {Labels: []string{"Search"}, Other: "Tags, and colours"}, {Other: "x"}}, nil},
		{"the chosen label typed again", map[string]any{"q1_pick": "SQLite", "q1_other": "sqlite", "q2_other": "Other", "q3_text": "x"},
			[]prompt.Answer{{Labels: []string{"SQLite"}}, {Other: "Other"}, {Other: "x"}}, nil},
		{"empty strings are no answer", map[string]any{"q1_pick": "", "q1_other": " \u00a0", "q2_pick": []any{}, "q2_other": "", "q3_text": "\t"}, nil,
			map[string]string{"Database": "Choose an option, or type your own answer.", "Features": "Choose at least one option, or type your own answer.", "Name": "Type your answer."}},
		{"both", map[string]any{"q1_pick": "SQLite", "q1_other": "MySQL", "q2_pick": []any{"Login"}, "q3_text": "x"}, nil,
			map[string]string{"Database": "Choose an option or type your own answer, not both."}},
		{"too long", map[string]any{"q1_other": strings.Repeat("é", 2001), "q2_pick": []any{"Login"}, "q3_text": "x"}, nil,
			map[string]string{"Database": "Your answer is too long: at most 2000 characters (got 2001)."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, again, err := Outcome(qs, "", &mcp.ElicitResult{Action: "accept", Content: tt.content})
			if err != nil {
				t.Fatal(err)
			}
			if tt.problem == nil {
				if again != nil || !reflect.DeepEqual(got, tt.want) {
					t.Errorf("answers %+v (again: %v), want %+v", got, again, tt.want)
				}
				return
			}
			if again == nil {
				t.Fatalf("no form sent again; answers %+v", got)
			}
			for header, p := range tt.problem {
				if !strings.Contains(again.Message, "- "+header+": "+p+"\n") {
					t.Errorf("message lacks %q for %s:\n%s", p, header, again.Message)
				}
			}
			n := 0
			for _, line := range strings.Split(again.Message, "\n") {
				if strings.HasPrefix(line, "- ") {
					n++
				}
			}
			if n != len(tt.problem) {
				t.Errorf("message names %d problems, want %d:\n%s", n, len(tt.problem), again.Message)
			}
		})
	}
}

// Asking again fills in the answers that were fine, and leaves empty the
// fields of the question that was not.
func TestOutcomeKeepsTheAnswersThatWereFine(t *testing.T) {
	qs := []schema.Question{single, multi, text}
	_, again, err := Outcome(qs, "", &mcp.ElicitResult{Action: "accept", Content: map[string]any{
		"q1_pick": "SQLite", "q1_other": "MySQL", "q2_pick": []any{"Search"}, "q2_other": "Tags", "q3_text": "OrderList",
	}})
	if err != nil || again == nil {
		t.Fatalf("Outcome: %v, again %v", err, again)
	}
	props := requestedJSON(t, again)["properties"].(map[string]any)
	defaults := map[string]any{}
	for name, p := range props {
		if d, ok := p.(map[string]any)["default"]; ok {
			defaults[name] = d
		}
	}
	want := map[string]any{"q2_pick": []any{"Search"}, "q2_other": "Tags", "q3_text": "OrderList"}
	if !reflect.DeepEqual(defaults, want) {
		t.Errorf("defaults %v, want %v", defaults, want)
	}
	if !strings.HasSuffix(again.Message, "\n\nPlease answer 3 questions: Database, Features, Name.") {
		t.Errorf("message %q", again.Message)
	}
}

func TestOutcomeRefusals(t *testing.T) {
	qs := []schema.Question{single}
	if _, _, err := Outcome(qs, "", &mcp.ElicitResult{Action: "decline"}); !errors.Is(err, ErrDeclined) {
		t.Errorf("decline: %v", err)
	}
	if _, _, err := Outcome(qs, "", &mcp.ElicitResult{Action: "cancel"}); !errors.Is(err, prompt.ErrCancelled) {
		t.Errorf("cancel: %v", err)
	}
	for name, res := range map[string]*mcp.ElicitResult{
		"unknown action":        {Action: "maybe"},
		"not a label":           {Action: "accept", Content: map[string]any{"q1_pick": "MySQL"}},
		"label in another case": {Action: "accept", Content: map[string]any{"q1_pick": "sqlite"}},
		"a number":              {Action: "accept", Content: map[string]any{"q1_pick": 1.0}},
		"a number typed":        {Action: "accept", Content: map[string]any{"q1_other": 1.0}},
		"nothing":               nil,
	} {
		_, again, err := Outcome(qs, "", res)
		if _, ok := errors.AsType[*ClientError](err); !ok || again != nil {
			t.Errorf("%s: %v (again %v), want a ClientError", name, err, again)
		}
	}
	_, _, err := Outcome([]schema.Question{multi}, "", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_pick": "Login"}})
	if _, ok := errors.AsType[*ClientError](err); !ok {
		t.Errorf("text for a multi-select: %v", err)
	}
}

// Prompter asks again until the answers are fine, and stops when ctx ends.
func TestPrompter(t *testing.T) {
	var sent []*mcp.ElicitParams
	replies := []map[string]any{
		{},
		{"q1_pick": "SQLite"},
	}
	a := &Prompter{Elicit: func(_ context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		sent = append(sent, p)
		return &mcp.ElicitResult{Action: "accept", Content: replies[len(sent)-1]}, nil
	}}
	got, err := a.Ask(context.Background(), []schema.Question{single})
	if err != nil {
		t.Fatal(err)
	}
	if want := []prompt.Answer{{Labels: []string{"SQLite"}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("answers %+v, want %+v", got, want)
	}
	if len(sent) != 2 || !strings.HasPrefix(sent[1].Message, "Please check your answers:\n- Database: Choose an option") {
		t.Errorf("sent %d forms; the second says %q", len(sent), sent[len(sent)-1].Message)
	}

	// A client that sends the form back empty, as one that accepts forms
	// without showing them would, is not asked without end.
	sent = nil
	a = &Prompter{Elicit: func(_ context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		sent = append(sent, p)
		return &mcp.ElicitResult{Action: "accept"}, nil
	}}
	_, err = a.Ask(context.Background(), []schema.Question{single})
	if _, ok := errors.AsType[*ClientError](err); !ok || len(sent) != maxRounds {
		t.Errorf("a client that never answers: %v after %d forms", err, len(sent))
	}

	ctx, cancel := context.WithCancelCause(context.Background())
	stopped := errors.New("stopped")
	a = &Prompter{Elicit: func(ctx context.Context, _ *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		cancel(stopped)
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	if _, err := a.Ask(ctx, []schema.Question{single}); !errors.Is(err, stopped) {
		t.Errorf("ended context: %v, want its cause", err)
	}
}

// Field titles and descriptions hold no line breaks: clients draw them on
// one line, and some show a raw newline as "�". Line breaks in the text
// become separators every client draws.
func TestFormFieldsAreOneLine(t *testing.T) {
	q := schema.Question{Question: "Which layout\nfor the page?", Header: "Layout", Options: []schema.Option{
		{Label: "Grid", Description: "Cards in rows,\r\nthree wide", Preview: "+--+--+\n|  |  |\n+--+--+"},
		{Label: "List", Description: "One per line"},
	}}
	multiLine := schema.Question{Question: "Which parts?", Header: "Parts", MultiSelect: true, Options: []schema.Option{
		{Label: "Head", Description: "Top\nof the page"}, {Label: "Foot", Description: "Bottom"},
	}}
	textLines := schema.Question{Question: "Name it,\nplease.", Header: "Name", Kind: schema.KindText, Placeholder: "Card"}
	qs := []schema.Question{q, multiLine, textLines}
	_, again, err := Outcome(qs, "", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_pick": "Grid", "q1_other": "x"}})
	if err != nil || again == nil {
		t.Fatalf("no form asked again: %v", err)
	}
	for _, p := range []*mcp.ElicitParams{Form(qs, ""), Form(qs, "2025-06-18"), again} {
		for name, f := range requestedJSON(t, p)["properties"].(map[string]any) {
			for _, k := range []string{"title", "description"} {
				if s, _ := f.(map[string]any)[k].(string); strings.ContainsAny(s, "\r\n") {
					t.Errorf("%s's %s has a line break: %q", name, k, s)
				}
			}
		}
	}
	want := "Which layout · for the page? • Grid: Cards in rows, · three wide • List: One per line — Preview of Grid: +--+--+ · |  |  | · +--+--+"
	if got := requestedJSON(t, Form(qs, ""))["properties"].(map[string]any)["q1_pick"].(map[string]any)["description"]; got != want {
		t.Errorf("description\n%q, want\n%q", got, want)
	}
}

// A decline or cancel that comes sooner than a person can read the form
// is the client's (headless clients reply so without showing anything):
// the form could not be shown, and nothing was asked of the person. One
// that takes a person's time is the person's, and so is one that follows
// a form the person already sent back.
func TestPrompterTellsTheClientsReplyFromThePersons(t *testing.T) {
	const quickest = 150 * time.Millisecond
	reply := func(delay time.Duration, actions ...string) *Prompter {
		return &Prompter{Quickest: quickest, Elicit: func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			time.Sleep(delay)
			a := actions[0]
			actions = actions[1:]
			return &mcp.ElicitResult{Action: a}, nil
		}}
	}
	for _, action := range []string{"decline", "cancel"} {
		_, err := reply(0, action).Ask(context.Background(), []schema.Question{single})
		_, ok := errors.AsType[*prompt.NobodyError](err)
		if !ok || !strings.Contains(err.Error(), "sooner than a person can read it") {
			t.Errorf("an instant %s: %v, want a NobodyError", action, err)
		}
	}
	if _, err := reply(quickest+50*time.Millisecond, "decline").Ask(context.Background(), []schema.Question{single}); !errors.Is(err, ErrDeclined) {
		t.Errorf("a decline at a person's pace: %v, want ErrDeclined", err)
	}
	if _, err := reply(quickest+50*time.Millisecond, "cancel").Ask(context.Background(), []schema.Question{single}); !errors.Is(err, prompt.ErrCancelled) {
		t.Errorf("a cancel at a person's pace: %v, want ErrCancelled", err)
	}
	// The first reply is slow and accepted with nothing chosen; the form
	// asked again is then cancelled at once.
	slowThenFast := &Prompter{Quickest: quickest}
	n := 0
	slowThenFast.Elicit = func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		if n++; n == 1 {
			time.Sleep(quickest + 50*time.Millisecond)
			return &mcp.ElicitResult{Action: "accept"}, nil
		}
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	if _, err := slowThenFast.Ask(context.Background(), []schema.Question{single}); !errors.Is(err, prompt.ErrCancelled) {
		t.Errorf("a cancel after the person sent the form: %v, want ErrCancelled", err)
	}
}

// TestEveryKind asks a question of every kind of schema's kind table in a
// form: the form has the fields a person fills in to answer it, and the
// reply is read as that answer.
func TestEveryKind(t *testing.T) {
	content := map[schema.Gesture]map[string]any{
		schema.GesturePick:  {"q1_pick": "Second"},
		schema.GestureYesNo: {"q1_pick": schema.Yes},
		schema.GestureType:  {"q1_text": "typed"},
	}
	for _, c := range testutil.KindCases(t) {
		reply, ok := content[c.Question.Kind.Gesture()]
		if !ok {
			t.Fatalf("a form cannot answer a %s question", c.Question.Kind)
		}
		qs := []schema.Question{c.Question}
		form, err := json.Marshal(Form(qs, "").RequestedSchema)
		if err != nil {
			t.Fatal(err)
		}
		for name := range reply {
			if !strings.Contains(string(form), `"`+name+`":`) {
				t.Errorf("the %s question: the form %s has no field %s", c.Question.Kind, form, name)
			}
		}
		got, again, err := Outcome(qs, "", &mcp.ElicitResult{Action: "accept", Content: reply})
		if err != nil || again != nil || !reflect.DeepEqual(got, []prompt.Answer{c.Answer}) {
			t.Errorf("the %s question: %+v, %v (again %v); want %+v", c.Question.Kind, got, err, again, c.Answer)
		}
	}
}
