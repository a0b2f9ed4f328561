package approve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
	"github.com/askuser/askuser/schema/jsonout"
)

// Settings are what asking about a request takes from askuser's settings.
type Settings struct {
	// Who names the agent and where it works, in the question about a
	// call: "An agent in ~/src/api".
	Who string
	// Schema checks the questions, with the limits in force.
	Schema *schema.Schema
	// Presets are the answers known before asking (ASKUSER_ANSWERS): they
	// answer the agent tool's own questions as they answer askuser's.
	Presets map[string]string
	// Tools name askuser's own tool as the agent tool calls it, whose
	// calls ask the person themselves; none: OwnTool.
	Tools []string
}

// OwnTool is askuser's own tool as Claude Code names it, served by the MCP
// server that README's set-up adds (claude mcp add askuser -- askuser mcp).
const OwnTool = "mcp__askuser__askuser"

// Asking is what the person is asked about a request, and how their
// answers decide it.
type Asking struct {
	// Questions are asked in order. None: the request is decided without
	// asking anybody (see Decide).
	Questions []schema.Question
	// Decide returns the decision that got, the answers to Questions,
	// make.
	Decide func(got []prompt.Answer) Decision
}

// Ask returns what the person is asked about r. The agent tool's own questions
// are asked as they are, every one, and answered in the input that carries
// them back; a plan is asked as the plan it is; a call of askuser's own
// tool with askuser's input, or a shell command that only asks through
// askuser, which ask the person themselves, are allowed without asking;
// any other call is asked as Allow, Deny, or Allow for this session.
// Questions that askuser cannot ask (more than its limits take) are an
// error: the agent tool then asks them in its own dialog.
func (r Request) Ask(s Settings) (Asking, error) {
	switch {
	case (r.Dialect == PlainPermissionRequest || r.Dialect == CopilotPermission) && questionTools[r.Tool]:
		return Asking{}, &prompt.UnavailableError{Err: fmt.Errorf("%s is answered only in the agent tool's own dialog, which its PermissionRequest hook cannot hand the answers back to", r.Tool)}
	case r.Dialect == OpenCodeQuestion:
		doc, err := openCodeDoc(r.Input, s.Schema.Limits())
		if err != nil {
			return Asking{}, err
		}
		return r.askQuestions(doc, s)
	case r.Tool == "AskUserQuestion":
		// The agent tool's dialog fills in "answers" and "annotations": there,
		// they are the agent's, never the person's, who is asked every
		// question (the model asked, and gets the person's answers back,
		// rather than a refusal to ask again).
		return r.askQuestions(jsonout.Without(r.Input, "answers", "annotations"), s)
	case r.Tool == "ExitPlanMode":
		return r.askPlan(s), nil
	case r.ownTool(s), onlyAsks(r.command()):
		return Asking{Decide: func([]prompt.Answer) Decision { return Decision{Allow: true} }}, nil
	}
	return r.askCall(s), nil
}

// questionTools are the agent tools' own question tools, by the names
// their hooks give them: Claude Code's, Qwen Code's, Copilot CLI's and
// Gemini CLI's, Codex's.
var questionTools = map[string]bool{"AskUserQuestion": true, "ask_user_question": true, "ask_user": true, "request_user_input": true}

// ownTool reports whether r is a call of askuser's own tool, under one of
// the names s gives it, with askuser's own input, as the schema checks it
// (keyed by header or by question text, as askuser mcp --key takes them):
// a tool of another name, or a call with anything more than questions, is
// no call of askuser's, whose input askuser mcp would refuse.
func (r Request) ownTool(s Settings) bool {
	names := s.Tools
	if len(names) == 0 {
		names = []string{OwnTool}
	}
	keys := []schema.KeyBy{schema.KeyHeader, schema.KeyQuestion}
	return slices.Contains(names, r.Tool) && slices.ContainsFunc(keys, func(key schema.KeyBy) bool {
		_, err := s.Schema.Parse(r.Input, key)
		return err == nil
	})
}

// command returns the command of a call of Claude Code's Bash tool; "" for
// any other call, or one whose input gives none. It is read as the agent
// tool reads it, by encoding/json: of a name given twice, the last
// (gjson would take the first, and pass a command that does not run).
func (r Request) command() string {
	var in struct {
		Command string `json:"command"`
	}
	if r.Tool != "Bash" || json.Unmarshal(r.Input, &in) != nil {
		return ""
	}
	return in.Command
}

// askQuestions asks the questions of doc, askuser's input format, keyed by
// question text as the agent tools key their answers, and answers them in
// r's input.
func (r Request) askQuestions(doc []byte, s Settings) (Asking, error) {
	c, err := ask.Prepare(ask.Request{Schema: s.Schema, Doc: doc, Key: schema.KeyQuestion, Presets: s.Presets})
	if err != nil {
		return Asking{}, err
	}
	return Asking{Questions: c.Questions(), Decide: func(got []prompt.Answer) Decision {
		c.Fill(got)
		if r.Dialect == OpenCodeQuestion {
			answers := make([][]string, len(c.Answers()))
			for i, a := range c.Answers() {
				answers[i] = a.Parts()
			}
			return Decision{Allow: true, Answers: answers}
		}
		var b bytes.Buffer
		// Writing to memory fails only for want of it.
		_ = c.Write(&b)
		return Decision{Allow: true, Input: withAnswers(r.Input, b.Bytes())}
	}}, nil
}

// withAnswers returns input, the questions as the agent tool gave them, with
// the answers and notes of out, askuser's output for them: the input that
// Claude Code's AskUserQuestion reads the person's answers from (Claude Code
// 2.1.332: "answers" keyed by question text, "annotations" with their
// notes), as its own dialog fills it in.
func withAnswers(input json.RawMessage, out []byte) json.RawMessage {
	var in, answers map[string]json.RawMessage
	if json.Unmarshal(input, &in) != nil || json.Unmarshal(out, &answers) != nil {
		return input
	}
	delete(in, "annotations")
	maps.Copy(in, answers)
	return json.RawMessage(jsonout.String(in))
}

// The answers to the question about a plan, as the person reads them.
const (
	PlanAcceptEdits = "Yes, and accept edits"
	PlanAskEdits    = "Yes, and ask before edits"
	PlanYes         = "Yes"
	KeepPlanning    = "No, keep planning"
)

// askPlan asks whether the agent may carry out its plan (Claude Code's
// ExitPlanMode), shown in the preview of each yes, as Claude Code's own
// dialog does: yes, going on in the permission mode the answer names,
// where the decision can set it, or no, keep planning, with the person's
// words for the model.
func (r Request) askPlan(s Settings) Asking {
	// Read as command is, for the plan that the agent goes on with.
	var in struct {
		Plan     string `json:"plan"`
		PlanFile string `json:"planFilePath"`
	}
	_ = json.Unmarshal(r.Input, &in)
	plan := strings.TrimSpace(in.Plan)
	if plan == "" && in.PlanFile != "" {
		plan = "The plan is in " + in.PlanFile + "."
	}
	plan = prompt.Cut(plan, maxPreview)
	keep := schema.Option{Label: KeepPlanning, Description: "The agent keeps planning; to say what to change, type your answer (Other) or add a note."}
	// Where the decision cannot set the mode (a PreToolUse hook), the
	// agent goes on in the one it had before planning.
	opts := []schema.Option{{Label: PlanYes, Description: "Approve the plan: the agent starts carrying it out.", Preview: plan}, keep}
	modes := map[string]string{PlanAcceptEdits: "acceptEdits", PlanAskEdits: "default"}
	if r.Dialect == PromptTool || r.Dialect == PermissionRequest {
		opts = []schema.Option{
			{Label: PlanAcceptEdits, Description: "Approve the plan: the agent carries it out, and edits files without asking.", Preview: plan},
			{Label: PlanAskEdits, Description: "Approve the plan: the agent carries it out, and asks before each edit.", Preview: plan},
			keep,
		}
	}
	return s.one("Plan", s.Who+" has a plan ready, and asks to carry it out.", opts, func(a prompt.Answer) Decision {
		if len(a.Labels) == 1 && a.Labels[0] != KeepPlanning {
			return Decision{Allow: true, Mode: modes[a.Labels[0]]}
		}
		return refusal(a, "The person wants you to keep planning, and said: ", "The person wants you to keep planning.")
	})
}

// one asks one question, headed header, of text and opts, cut to fit
// s's limits; decide makes its answer the decision.
func (s Settings) one(header, text string, opts []schema.Option, decide func(prompt.Answer) Decision) Asking {
	l := s.Schema.Limits()
	q := schema.Question{
		Header:   prompt.Cut(header, l.HeaderMaxLength),
		Question: prompt.Cut(text, l.QuestionMaxLength),
		Options:  opts[:min(len(opts), l.MaxOptions)],
	}
	return Asking{Questions: []schema.Question{q}, Decide: func(got []prompt.Answer) Decision { return decide(got[0]) }}
}

// The options of the question about a call, as the person reads them;
// Other, which every view adds, is a denial in the person's words.
const (
	Allow        = "Allow"
	AllowSession = "Allow for this session"
	Deny         = "Deny"
)

// maxPreview is how long a preview may be (schema.json).
const maxPreview = 4000

// subjects name, for Claude Code's own tools and the shell tools of the
// others, the argument that says what a call does: the question shows it,
// the preview every argument.
var subjects = map[string]string{
	"Bash": "command", "Edit": "file_path", "MultiEdit": "file_path", "Write": "file_path", "Read": "file_path",
	"NotebookEdit": "notebook_path", "WebFetch": "url", "WebSearch": "query", "Glob": "pattern", "Grep": "pattern",
	"bash": "command", "run_shell_command": "command",
}

// askCall asks whether the call may run. The question names the tool and
// what the call does (the command, the file, the address; OpenCode's
// patterns), cut to fit; the preview of Allow holds every argument. The
// views draw both as they draw every question, escapes and controls shown,
// not obeyed. Allow for this session is offered where the decision can
// carry a rule as narrow as the call (see sessionRules), and says which.
func (r Request) askCall(s Settings) Asking {
	text := fmt.Sprintf("%s asks to use %s.", s.Who, r.Tool)
	if len(r.patterns) > 0 {
		text = fmt.Sprintf("%s asks to use %s:\n%s", s.Who, r.Tool, strings.Join(r.patterns, "\n"))
	}
	// The preview reads the arguments as the person reads them: name and
	// value, each string as it is and anything else as JSON, in the order
	// the call gives them.
	var preview strings.Builder
	gjson.ParseBytes(r.Input).ForEach(func(name, v gjson.Result) bool {
		value := v.Raw
		if v.Type == gjson.String {
			value = v.Str
		}
		if name.Str == subjects[r.Tool] {
			text = fmt.Sprintf("%s asks to use %s:\n%s", s.Who, r.Tool, value)
		}
		if strings.Contains(value, "\n") {
			value = "\n  " + strings.ReplaceAll(value, "\n", "\n  ")
		}
		fmt.Fprintf(&preview, "%s: %s\n", name.Str, value)
		return true
	})
	rules, noRule := r.sessionRules()
	opts := []schema.Option{
		{Label: Allow, Description: "Let this call run as shown." + noRule, Preview: prompt.Cut(strings.TrimSpace(preview.String()), maxPreview)},
		{Label: Deny, Description: "Do not let it run; the agent is told. To say why, type your answer (Other) or add a note."},
	}
	if desc := sessionText(rules); desc != "" {
		opts = append(opts, schema.Option{Label: AllowSession, Description: desc})
	}
	return s.one("Approve", text, opts, func(a prompt.Answer) Decision {
		if len(a.Labels) == 1 && a.Labels[0] != Deny {
			d := Decision{Allow: true}
			if a.Labels[0] == AllowSession {
				d.Rules = rules
			}
			return d
		}
		// A note on Allow has no place in the decision, which carries no
		// message.
		return refusal(a, fmt.Sprintf("The person denied this call of %s, and said why: ", r.Tool), fmt.Sprintf("The person denied this call of %s, without saying why.", r.Tool))
	})
}

// refusal returns the decision that denies a request for the answer a:
// said followed by what the person said with it (their own answer and
// their note), or unsaid when they said nothing.
func refusal(a prompt.Answer, said, unsaid string) Decision {
	if why := strings.TrimSpace(a.Other + " " + a.Note); why != "" {
		return Refusal(said + why)
	}
	return Refusal(unsaid)
}
