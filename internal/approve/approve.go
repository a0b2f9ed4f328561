// Package approve asks the person whether an agent's tool call may run,
// for an agent tool that lets an outside program answer its permission
// prompts (Claude Code's --permission-prompt-tool): the call becomes one
// question, asked the way every question is asked, and the answer becomes
// the decision the agent tool expects.
package approve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Request is a tool call that waits for the person's approval, as Claude
// Code sends it to its permission prompt tool, or to its PermissionRequest
// hook (the input as tool_input, and the directory it works in).
type Request struct {
	Tool  string          `json:"tool_name"`
	Input json.RawMessage `json:"input"`
	ID    string          `json:"tool_use_id"`
	Cwd   string          `json:"cwd"`
}

// Parse reads the request that args, the approving tool's arguments or
// the hook's input, hold.
func Parse(args []byte) (Request, error) {
	var r struct {
		Request
		HookInput json.RawMessage `json:"tool_input"`
	}
	if json.Unmarshal(args, &r) != nil {
		return r.Request, errors.New(`read the tool call to approve: it must be a JSON object of "tool_name" and "input"`)
	}
	if r.Input == nil {
		r.Input = r.HookInput
	}
	if strings.TrimSpace(r.Tool) == "" {
		return r.Request, errors.New(`read the tool call to approve: "tool_name" is missing`)
	}
	if !bytes.HasPrefix(bytes.TrimSpace(r.Input), []byte("{")) {
		return r.Request, errors.New(`read the tool call to approve: "input" must be the call's arguments, an object`)
	}
	return r.Request, nil
}

// The options of the question, as the person reads them; Other, which
// every view adds, is a denial in the person's words.
const (
	Allow        = "Allow"
	AllowSession = "Allow for this session"
	Deny         = "Deny"
)

// maxPreview is how long a preview may be (schema.json).
const maxPreview = 4000

// subjects name, for Claude Code's own tools, the argument that says what
// a call does: the question shows it, the preview every argument.
var subjects = map[string]string{
	"Bash": "command", "Edit": "file_path", "MultiEdit": "file_path", "Write": "file_path", "Read": "file_path",
	"NotebookEdit": "notebook_path", "WebFetch": "url", "WebSearch": "query", "Glob": "pattern", "Grep": "pattern",
}

// Question is the question that asks the person about r, which who (the
// agent, and where it works) made, within the limits l of the questions.
// The question names the tool and what the call does (the command, the
// file, the address), cut to fit; the preview of Allow holds every
// argument. The views draw both as they draw every question, escapes and
// controls shown, not obeyed.
func (r Request) Question(who string, l schema.Limits) schema.Question {
	f := fieldsOf(r.Input)
	text := fmt.Sprintf("%s asks to use %s.", who, r.Tool)
	if v, ok := f.values[subjects[r.Tool]]; ok {
		text = fmt.Sprintf("%s asks to use %s:\n%s", who, r.Tool, v)
	}
	var preview strings.Builder
	for _, a := range f.order {
		v := f.values[a]
		if strings.Contains(v, "\n") {
			v = "\n  " + strings.ReplaceAll(v, "\n", "\n  ")
		}
		fmt.Fprintf(&preview, "%s: %s\n", a, v)
	}
	opts := []schema.Option{
		{Label: Allow, Description: "Let this call run as shown.", Preview: prompt.Cut(strings.TrimSpace(preview.String()), maxPreview)},
		{Label: Deny, Description: "Do not let it run; the agent is told. To say why, type your answer (Other) or add a note."},
		{Label: AllowSession, Description: prompt.Cut("Let it run, and every call of "+r.Tool+" until this session of the agent ends.", 200)},
	}
	return schema.Question{
		Header:   prompt.Cut("Approve", l.HeaderMaxLength),
		Question: prompt.Cut(text, l.QuestionMaxLength),
		Options:  opts[:min(len(opts), l.MaxOptions)],
	}
}

// fields are a call's arguments as the person reads them: each string as
// it is, anything else as JSON, in the order the call gives them.
type fields struct {
	order  []string
	values map[string]string
}

// fieldsOf reads input, a JSON object, as fields.
func fieldsOf(input json.RawMessage) fields {
	a := fields{values: map[string]string{}}
	dec := json.NewDecoder(bytes.NewReader(input))
	if _, err := dec.Token(); err != nil {
		return a
	}
	for dec.More() {
		k, err := dec.Token()
		var v json.RawMessage
		if err != nil || dec.Decode(&v) != nil {
			break
		}
		name, _ := k.(string)
		var s string
		if json.Unmarshal(v, &s) != nil {
			s = string(v)
		}
		if _, dup := a.values[name]; !dup {
			a.order = append(a.order, name)
		}
		a.values[name] = s
	}
	return a
}

// Decision is the answer to a request, as Claude Code's permission prompt
// tool gives it: allow, with the input to run the tool with, and rules
// for the rest of the session, or deny, with a message for the model.
type Decision struct {
	Behavior           string          `json:"behavior"`
	UpdatedInput       json.RawMessage `json:"updatedInput,omitempty"`
	UpdatedPermissions []Update        `json:"updatedPermissions,omitempty"`
	Message            string          `json:"message,omitempty"`
	ToolUseID          string          `json:"toolUseID,omitempty"`
}

// JSON is d as JSON text, with <, > and & as they are, as askuser writes
// its answers.
func (d Decision) JSON() string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	// The input is JSON already, as it was read; the rest are strings.
	_ = enc.Encode(d)
	return strings.TrimSuffix(b.String(), "\n")
}

// Hook is d as Claude Code's PermissionRequest hook answers: without the
// input, so that the call runs as it was asked.
func (d Decision) Hook() string {
	d.UpdatedInput, d.ToolUseID = nil, ""
	return `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":` + d.JSON() + "}}"
}

// Update is a change of Claude Code's permission rules: here, rules that
// allow a tool until the session ends.
type Update struct {
	Type        string `json:"type"`
	Rules       []Rule `json:"rules"`
	Behavior    string `json:"behavior"`
	Destination string `json:"destination"`
}

// Rule names a tool that a permission rule covers.
type Rule struct {
	ToolName string `json:"toolName"`
}

// Decide is the decision that the person's answer a makes. Allow lets the
// call run as it was asked, and for the session adds a rule that allows
// the tool; Deny, or an answer of the person's own, denies it, with their
// words as the reason. A note on Allow has no place in the decision, which
// carries no message.
func (r Request) Decide(a prompt.Answer) Decision {
	if len(a.Labels) == 1 && a.Labels[0] != Deny {
		d := Decision{Behavior: "allow", UpdatedInput: r.Input, ToolUseID: r.ID}
		if a.Labels[0] == AllowSession {
			d.UpdatedPermissions = []Update{{Type: "addRules", Rules: []Rule{{ToolName: r.Tool}}, Behavior: "allow", Destination: "session"}}
		}
		return d
	}
	why := strings.TrimSpace(a.Other + " " + a.Note)
	if why == "" {
		return r.Refuse(fmt.Sprintf("The person denied this call of %s, without saying why.", r.Tool))
	}
	return r.Refuse(fmt.Sprintf("The person denied this call of %s, and said why: %s", r.Tool, why))
}

// Refuse is the decision that denies the call with message, for the model
// to read.
func (r Request) Refuse(message string) Decision {
	return Decision{Behavior: "deny", Message: message, ToolUseID: r.ID}
}
