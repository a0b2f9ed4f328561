package approve

import (
	"encoding/json"

	"github.com/askuser/askuser/schema/jsonout"
)

// Decision is the answer to a request: allow it, or deny it with a message
// for the model.
type Decision struct {
	Allow bool
	// Input is the input to run the call with where the answer changed
	// it: the agent tool's own questions, with the person's answers. Nil:
	// the call runs as it was asked.
	Input json.RawMessage
	// Answers are the answers to OpenCode's questions, in their order:
	// each the chosen labels, then the person's own words.
	Answers [][]string
	// Rules are allowed for the rest of the agent's session.
	Rules []rule
	// Mode is the permission mode the agent goes on in, "" to keep its
	// own (Claude Code: default, acceptEdits).
	Mode string
	// Message says why the call was denied, for the model to read.
	Message string
}

// Refusal returns the decision that denies a call with message, for the model
// to read.
func Refusal(message string) Decision { return Decision{Message: message} }

// Output returns d as r's agent tool reads it: askuser approve writes it on
// stdout, askuser mcp's approve tool returns it as text.
func (r Request) Output(d Decision) string {
	switch r.Dialect {
	case PromptTool:
		return jsonout.String(r.claudeDecision(d, r.Input))
	case PermissionRequest, PlainPermissionRequest:
		// Without the input, the call runs as it was asked; the plain
		// hooks take neither input nor rules, and are never offered
		// either.
		return hookOutput(hookSpecific{HookEventName: "PermissionRequest", Decision: r.claudeDecision(d, nil)})
	case PreToolUse:
		if !d.Allow {
			return hookOutput(hookSpecific{HookEventName: "PreToolUse", PermissionDecision: "deny", PermissionDecisionReason: d.Message})
		}
		return hookOutput(hookSpecific{HookEventName: "PreToolUse", PermissionDecision: "allow", UpdatedInput: d.Input})
	case CopilotPermission:
		// Copilot CLI reads Claude Code's behavior and message: a decision
		// of its own changes no input, and carries no rule or mode.
		return jsonout.String(r.claudeDecision(d, nil))
	case OpenCodePermission:
		type reply struct {
			Reply   string `json:"reply"`
			Message string `json:"message,omitempty"`
		}
		switch {
		case !d.Allow:
			return jsonout.String(reply{"reject", d.Message})
		case len(d.Rules) > 0:
			return jsonout.String(reply{Reply: "always"})
		}
		return jsonout.String(reply{Reply: "once"})
	}
	return jsonout.String(struct {
		Answers [][]string `json:"answers"`
	}{d.Answers})
}

// claudeDecision returns d as Claude Code's permission prompt tool and
// PermissionRequest hook give it: allow, with the input to run the call
// with (input, unless d changed it) and the changes to the session's rules
// and mode, or deny with a message.
func (r Request) claudeDecision(d Decision, input json.RawMessage) any {
	type decision struct {
		Behavior           string          `json:"behavior"`
		UpdatedInput       json.RawMessage `json:"updatedInput,omitempty"`
		UpdatedPermissions []update        `json:"updatedPermissions,omitempty"`
		Message            string          `json:"message,omitempty"`
	}
	if !d.Allow {
		return decision{Behavior: "deny", Message: d.Message}
	}
	out := decision{Behavior: "allow", UpdatedInput: input}
	if d.Input != nil {
		out.UpdatedInput = d.Input
	}
	if len(d.Rules) > 0 {
		out.UpdatedPermissions = append(out.UpdatedPermissions, update{Type: "addRules", Rules: d.Rules, Behavior: "allow", Destination: "session"})
	}
	if d.Mode != "" {
		out.UpdatedPermissions = append(out.UpdatedPermissions, update{Type: "setMode", Mode: d.Mode, Destination: "session"})
	}
	return out
}

// hookSpecific is what a hook decided, as the hook's output gives it.
type hookSpecific struct {
	HookEventName            string          `json:"hookEventName"`
	Decision                 any             `json:"decision,omitempty"`
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
}

// hookOutput returns the output of a hook that decided h.
func hookOutput(h hookSpecific) string {
	return jsonout.String(struct {
		HookSpecificOutput hookSpecific `json:"hookSpecificOutput"`
	}{h})
}
