// Package approve asks the person what an agent tool would otherwise ask
// them in its own dialog, for the agent tools that let an outside program
// answer: whether a tool call may run (a permission prompt), and the tool's
// own questions (Claude Code's AskUserQuestion, OpenCode's questions),
// which are asked as questions, never as Allow or Deny. A request becomes
// the questions the person is asked, the way every question is asked, and
// their answers become the decision, written in the dialect the agent tool
// reads (see Dialect).
package approve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/askuser/askuser/prompt"
)

// maxEvent is how much of a hook event's name an error quotes.
const maxEvent = 40

// Dialect is how a request came, which is also how its decision must be
// written: each agent tool reads its own.
type Dialect uint8

// The dialects of a request.
const (
	// PromptTool is a call of askuser mcp's approve tool, Claude Code's
	// --permission-prompt-tool: tool_name and input.
	PromptTool Dialect = iota
	// PermissionRequest is Claude Code's PermissionRequest hook, which
	// runs while Claude Code's own dialog asks the same.
	PermissionRequest
	// PreToolUse is Claude Code's or Codex's PreToolUse hook, which runs
	// before any dialog, and whose decision has no rules for the session.
	PreToolUse
	// PlainPermissionRequest is the PermissionRequest hook of Codex and
	// of Qwen Code, which run it before their own dialog and take allow,
	// or deny with a message, and nothing more: Codex 0.169.0 fails closed
	// on anything else, Qwen Code 0.24.4 drops it, and neither hands the
	// answers of its own question tool back from a hook.
	PlainPermissionRequest
	// CopilotPermission is Copilot CLI's permissionRequest hook, which
	// runs before its own dialog and takes allow, or deny with a message
	// (1.0.102): it denies the call when the hook fails, and asks in its
	// own dialog when the hook decides nothing (see Quiet).
	CopilotPermission
	// OpenCodePermission and OpenCodeQuestion are OpenCode's
	// permission.asked and question.asked events, passed on by OpenCode's
	// askuser plugin (see docs/setup.md), which replies with the decision
	// through OpenCode's server.
	OpenCodePermission
	OpenCodeQuestion
)

// Quiet reports whether the agent tool takes a hook that ends in failure
// for a denial, so that no answer must end quietly instead, without a
// decision: the tool then asks in its own dialog.
func (f Dialect) Quiet() bool { return f == CopilotPermission }

// rules reports whether the dialect's decision can carry rules for the rest
// of the session.
func (f Dialect) rules() bool {
	return f == PromptTool || f == PermissionRequest || f == OpenCodePermission
}

// Request is a tool call that waits for the person's answer: a tool call to
// approve, or a question of the agent tool's own.
type Request struct {
	Dialect Dialect
	// Tool names the tool that the call would run: Bash, AskUserQuestion,
	// mcp__db__query; OpenCode's permission (bash, edit) or "question".
	Tool string
	// Input is the call's arguments, a JSON object.
	Input json.RawMessage
	// Cwd is the directory the agent works in, "" when not given.
	Cwd string
	// Transcript is Claude Code's transcript of the session, where the
	// call's result shows once it was answered elsewhere; "" when not
	// given.
	Transcript string
	// suggestions are the changes to its rules that Claude Code's own
	// dialog offers for the call (permission_suggestions).
	suggestions []update
	// patterns are what an OpenCode permission is asked for (the command,
	// the file), and always those its "always" would allow until OpenCode
	// restarts.
	patterns, always []string
}

// update is one change of the rules of Claude Code's session, as its
// permission_suggestions and a decision's updatedPermissions give it.
type update struct {
	Type        string `json:"type"`
	Rules       []rule `json:"rules,omitempty"`
	Behavior    string `json:"behavior,omitempty"`
	Mode        string `json:"mode,omitempty"`
	Destination string `json:"destination"`
}

// rule is one of Claude Code's permission rules: a tool, and what of it
// ("go test *" for Bash), or the whole tool when that is empty.
type rule struct {
	ToolName    string `json:"toolName"`
	RuleContent string `json:"ruleContent,omitempty"`
}

// String returns the rule as Claude Code's settings and its dialog write it:
// Bash(go test *).
func (r rule) String() string {
	if r.RuleContent == "" {
		return r.ToolName
	}
	return r.ToolName + "(" + r.RuleContent + ")"
}

// ParseCall reads the arguments of a call of askuser mcp's approve tool,
// as Claude Code's permission prompt tool sends them.
func ParseCall(args []byte) (Request, error) {
	var c struct {
		Tool  string          `json:"tool_name"`
		Input json.RawMessage `json:"input"`
	}
	if json.Unmarshal(args, &c) != nil {
		return Request{}, errors.New(`read the tool call to approve: it must be a JSON object of "tool_name" and "input"`)
	}
	r := Request{Dialect: PromptTool, Tool: c.Tool, Input: c.Input}
	return r, r.check("tool_name", "input")
}

// ParseHook reads what askuser approve is given on stdin: the input of the
// PermissionRequest or PreToolUse hook of Claude Code, Codex or Qwen Code,
// or of Copilot CLI's permissionRequest hook, or an OpenCode event that
// OpenCode's askuser plugin passes on. Another hook's input is refused,
// naming its event.
func ParseHook(in []byte) (Request, error) {
	var h struct {
		Event       string          `json:"hook_event_name"`
		Tool        string          `json:"tool_name"`
		Input       json.RawMessage `json:"tool_input"`
		Cwd         string          `json:"cwd"`
		Transcript  string          `json:"transcript_path"`
		Suggestions []update        `json:"permission_suggestions"`
		// Codex's hooks name the turn, Qwen Code's the time; Claude
		// Code's neither.
		Turn      string          `json:"turn_id"`
		Timestamp json.RawMessage `json:"timestamp"`
		// A subagent's call, which its own transcript holds.
		Agent string `json:"agent_id"`
		// Copilot CLI's hook, in its own names.
		HookName     string          `json:"hookName"`
		CopilotTool  string          `json:"toolName"`
		CopilotInput json.RawMessage `json:"toolInput"`
		// An OpenCode event, with the directory the plugin works in.
		Type       string          `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Directory  string          `json:"directory"`
	}
	if json.Unmarshal(in, &h) != nil {
		return Request{}, errors.New(`read the hook's input: it must be a JSON object, as the agent tools' hooks give it on stdin`)
	}
	switch {
	case h.Type != "" && h.Event == "":
		return parseOpenCode(h.Type, h.Properties, h.Directory)
	case h.HookName == "permissionRequest":
		r := Request{Dialect: CopilotPermission, Tool: h.CopilotTool, Input: h.CopilotInput, Cwd: h.Cwd}
		return r, r.check("toolName", "toolInput")
	}
	r := Request{Tool: h.Tool, Input: h.Input, Cwd: h.Cwd, Transcript: h.Transcript, suggestions: h.Suggestions}
	if h.Agent != "" {
		r.Transcript = ""
	}
	switch {
	case h.Event == "PermissionRequest" && (h.Turn != "" || h.Timestamp != nil):
		r.Dialect = PlainPermissionRequest
	case h.Event == "PermissionRequest":
		r.Dialect = PermissionRequest
	case h.Event == "PreToolUse":
		r.Dialect = PreToolUse
	case h.Event == "":
		return Request{}, errors.New(`read the hook's input: "hook_event_name" is missing: askuser approve answers the PermissionRequest and PreToolUse hooks of Claude Code, Codex and Qwen Code, and Copilot CLI's permissionRequest hook`)
	default:
		event := strconv.Quote(prompt.Cut(h.Event, maxEvent))
		return Request{}, fmt.Errorf("this is the input of a %s hook: askuser approve answers only the PermissionRequest and PreToolUse hooks; take it out of the %s hooks in the settings", event, event)
	}
	return r, r.check("tool_name", "tool_input")
}

// check checks that r names a tool and gives its arguments, the members
// that the agent tool calls tool and input.
func (r Request) check(tool, input string) error {
	if strings.TrimSpace(r.Tool) == "" {
		return fmt.Errorf(`read the tool call to approve: %q is missing`, tool)
	}
	if !bytes.HasPrefix(bytes.TrimSpace(r.Input), []byte("{")) {
		return fmt.Errorf(`read the tool call to approve: %q must be the call's arguments, an object`, input)
	}
	return nil
}
