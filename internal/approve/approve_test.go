package approve

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// compile is askuser's schema with the limits l.
func compile(t *testing.T, l schema.Limits) *schema.Schema {
	t.Helper()
	raw, err := os.ReadFile("../../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	o, err := l.Overrides()
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schema.Compile(raw, o)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// valid checks that q is a question the schema takes, as the inbox checks
// every set it is sent.
func valid(t *testing.T, sch *schema.Schema, q schema.Question) {
	t.Helper()
	doc, err := json.Marshal(map[string]any{"questions": []schema.Question{q}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sch.Parse(doc, schema.KeyHeader); err != nil {
		t.Errorf("the question is not valid: %v\n%s", err, doc)
	}
}

func parse(t *testing.T, args string) Request {
	t.Helper()
	r, err := Parse([]byte(args))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The question says who asks to use which tool, and what the call does
// (for Claude Code's own tools, the argument that says it); the preview of
// Allow holds every argument, in the call's order, a text of several lines
// indented under its name.
func TestQuestion(t *testing.T) {
	sch := compile(t, schema.Limits{})
	for _, tc := range []struct {
		args, question, preview string
	}{
		{`{"tool_name":"Bash","input":{"description":"List","command":"ls -la"},"tool_use_id":"t1"}`,
			"claude-code in ~/api asks to use Bash:\nls -la", "description: List\ncommand: ls -la"},
		{`{"tool_name":"Edit","input":{"file_path":"/src/a.go","old_string":"a()\nb()","new_string":"c()","replace_all":false}}`,
			"claude-code in ~/api asks to use Edit:\n/src/a.go", "file_path: /src/a.go\nold_string: \n  a()\n  b()\nnew_string: c()\nreplace_all: false"},
		{`{"tool_name":"WebFetch","input":{"url":"https://example.com/","prompt":"Summarise"}}`,
			"claude-code in ~/api asks to use WebFetch:\nhttps://example.com/", "url: https://example.com/\nprompt: Summarise"},
		{`{"tool_name":"mcp__db__query","input":{"sql":"DROP TABLE users","limit":[1,2]}}`,
			"claude-code in ~/api asks to use mcp__db__query.", "sql: DROP TABLE users\nlimit: [1,2]"},
	} {
		q := parse(t, tc.args).Question("claude-code in ~/api", sch.Limits())
		if q.Question != tc.question || q.Options[0].Preview != tc.preview {
			t.Errorf("%s: question %q, preview %q; want %q, %q", tc.args, q.Question, q.Options[0].Preview, tc.question, tc.preview)
		}
		var labels []string
		for _, o := range q.Options {
			labels = append(labels, o.Label)
		}
		if strings.Join(labels, "|") != "Allow|Deny|Allow for this session" || q.Header != "Approve" || q.MultiSelect {
			t.Errorf("%s: header %q, options %v", tc.args, q.Header, labels)
		}
		valid(t, sch, q)
	}
}

// Input too long for the question is cut there, and the whole is in the
// preview, itself cut at the length a preview may have; the question fits
// the limits in effect, even lowered ones, so that the inbox takes it.
func TestQuestionFits(t *testing.T) {
	long := strings.Repeat("x", 5000)
	r := parse(t, `{"tool_name":"Bash","input":{"command":"echo `+long+`"}}`)
	sch := compile(t, schema.Limits{})
	q := r.Question("agent", sch.Limits())
	if n := len([]rune(q.Question)); n != 500 || !strings.HasSuffix(q.Question, "…") {
		t.Errorf("question of %d characters: %q", n, q.Question)
	}
	if p := q.Options[0].Preview; len([]rune(p)) != 4000 || !strings.HasPrefix(p, "command: echo xxx") || !strings.HasSuffix(p, "…") {
		t.Errorf("preview of %d characters", len([]rune(p)))
	}
	valid(t, sch, q)

	small := compile(t, schema.Limits{MaxOptions: 2, HeaderMaxLength: 4, QuestionMaxLength: 40})
	q = r.Question("agent", small.Limits())
	if len(q.Options) != 2 || q.Options[1].Label != Deny || q.Header != "App…" {
		t.Errorf("with lowered limits: %+v", q)
	}
	valid(t, small, q)
}

// A call that is not what Claude Code sends is refused, saying what is
// wrong.
func TestParse(t *testing.T) {
	for args, want := range map[string]string{
		`[]`:                                `read the tool call to approve: it must be a JSON object of "tool_name" and "input"`,
		`{"input":{}}`:                      `read the tool call to approve: "tool_name" is missing`,
		`{"tool_name":"Bash","input":"ls"}`: `read the tool call to approve: "input" must be the call's arguments, an object`,
		`{"tool_name":"Bash"}`:              `read the tool call to approve: "input" must be the call's arguments, an object`,
		`{"tool_name":" ","input":{"a":1}}`: `read the tool call to approve: "tool_name" is missing`,
	} {
		if _, err := Parse([]byte(args)); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
}

// Allow lets the call run with its input as it came, and for the session
// adds a rule for the tool; Deny, the person's own answer and a note on
// Deny are the reason told to the model.
func TestDecide(t *testing.T) {
	r := parse(t, `{"tool_name":"Bash","input":{"command":"make"},"tool_use_id":"t1"}`)
	for _, tc := range []struct {
		answer prompt.Answer
		want   string
	}{
		{prompt.Answer{Labels: []string{Allow}}, `{"behavior":"allow","updatedInput":{"command":"make"}}`},
		{prompt.Answer{Labels: []string{Allow}, Note: "fine"}, `{"behavior":"allow","updatedInput":{"command":"make"}}`},
		{prompt.Answer{Labels: []string{AllowSession}}, `{"behavior":"allow","updatedInput":{"command":"make"},` +
			`"updatedPermissions":[{"behavior":"allow","destination":"session","rules":[{"toolName":"Bash"}],"type":"addRules"}]}`},
		{prompt.Answer{Labels: []string{Deny}}, `{"behavior":"deny","message":"The person denied this call of Bash, without saying why."}`},
		{prompt.Answer{Labels: []string{Deny}, Note: "tests first"}, `{"behavior":"deny","message":"The person denied this call of Bash, and said why: tests first"}`},
		{prompt.Answer{Other: "use make -j4", Note: "it is faster"}, `{"behavior":"deny","message":"The person denied this call of Bash, and said why: use make -j4 it is faster"}`},
	} {
		got, err := json.Marshal(r.Decide(tc.answer))
		if err != nil || string(got) != tc.want {
			t.Errorf("%+v: %s, want %s", tc.answer, got, tc.want)
		}
	}
}
