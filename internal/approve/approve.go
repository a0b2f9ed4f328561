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
	text := fmt.Sprintf("%s asks to use %s.", who, r.Tool)
	var preview strings.Builder
	for _, f := range fieldsOf(r.Input) {
		if f[0] == subjects[r.Tool] {
			text = fmt.Sprintf("%s asks to use %s:\n%s", who, r.Tool, f[1])
		}
		if strings.Contains(f[1], "\n") {
			f[1] = "\n  " + strings.ReplaceAll(f[1], "\n", "\n  ")
		}
		fmt.Fprintf(&preview, "%s: %s\n", f[0], f[1])
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

// fieldsOf reads input, a JSON object, as the person reads a call's
// arguments: name and value, each string as it is and anything else as
// JSON, in the order the call gives them.
func fieldsOf(input json.RawMessage) [][2]string {
	var out [][2]string
	dec := json.NewDecoder(bytes.NewReader(input))
	if _, err := dec.Token(); err != nil {
		return nil
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
		out = append(out, [2]string{name, s})
	}
	return out
}

// Decision is the answer to a request, as Claude Code's permission prompt
// tool gives it: allow, with the input to run the tool with, and rules
// for the rest of the session, or deny, with a message for the model.
type Decision struct {
	Behavior           string           `json:"behavior"`
	UpdatedInput       json.RawMessage  `json:"updatedInput,omitempty"`
	UpdatedPermissions []map[string]any `json:"updatedPermissions,omitempty"`
	Message            string           `json:"message,omitempty"`
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
	d.UpdatedInput = nil
	return `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":` + d.JSON() + "}}"
}

// Decide is the decision that the person's answer a makes. Allow lets the
// call run as it was asked, and for the session adds a rule that allows
// the tool; Deny, or an answer of the person's own, denies it, with their
// words as the reason. A note on Allow has no place in the decision, which
// carries no message.
func (r Request) Decide(a prompt.Answer) Decision {
	if len(a.Labels) == 1 && a.Labels[0] != Deny {
		d := Decision{Behavior: "allow", UpdatedInput: r.Input}
		if a.Labels[0] == AllowSession {
			d.UpdatedPermissions = []map[string]any{{"type": "addRules", "rules": []map[string]string{{"toolName": r.Tool}}, "behavior": "allow", "destination": "session"}}
		}
		return d
	}
	why := strings.TrimSpace(a.Other + " " + a.Note)
	if why == "" {
		return Refusal(fmt.Sprintf("The person denied this call of %s, without saying why.", r.Tool))
	}
	return Refusal(fmt.Sprintf("The person denied this call of %s, and said why: %s", r.Tool, why))
}

// Refusal is the decision that denies a call with message, for the model
// to read.
func Refusal(message string) Decision { return Decision{Behavior: "deny", Message: message} }
