package mcpserver

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/approve"
	"github.com/askuser/askuser/prompt"
)

// ApproveName is the name of the tool that asks the person whether an
// agent's tool call may run.
const ApproveName = "approve"

// approveTool is the tool that Claude Code calls, named as its permission
// prompt tool, to ask whether a call of another tool may run. Its
// description tells a model only what the model can do with it: nothing.
var approveTool = &mcp.Tool{
	Name:        ApproveName,
	Title:       approveTitle,
	Annotations: Annotations(approveTitle),
	Description: "Asks the person whether another tool's call may run, on behalf of the agent tool, which calls it itself " +
		"before a call that its rules do not allow. A model has no need to call it: to ask the person something, use askuser. " +
		`It answers with a decision as JSON text: {"behavior":"allow","updatedInput":{...}} or {"behavior":"deny","message":"..."}.`,
	InputSchema: json.RawMessage(`{"type":"object","properties":{` +
		`"tool_name":{"type":"string","description":"The tool that the call would run"},` +
		`"input":{"type":"object","description":"The call's arguments"},` +
		`"tool_use_id":{"type":"string","description":"The call's ID"}},` +
		`"required":["tool_name","input"]}`),
}

// approveTitle is the approve tool's name for people.
const approveTitle = "Ask the user to approve a tool call"

// Annotations returns the hints of a tool of askuser mcp, titled title. Asking
// changes nothing and reaches no one but the person, so clients may run
// the tools without asking for approval first (codex exec does, with no
// configuration). They are not idempotent: a second call asks the person
// again.
func Annotations(title string) *mcp.ToolAnnotations {
	no := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, DestructiveHint: &no, OpenWorldHint: &no}
}

// approve handles one call of the approve tool: it asks the person what
// the call to approve comes down to (see approve.Request.Ask), along the
// call's route, and answers with their decision. No answer (a timeout, a
// cancel, a decline) denies the call, saying why; where no way reaches
// anybody, or the client went, the call is a tool error, as for askuser.
func (s *Server) approve(reqCtx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	r, err := approve.ParseCall(req.Params.Arguments)
	if err != nil {
		return toolError(err), nil
	}
	who := cmp.Or(callFrom(req), "The agent")
	// The server's own tool, as Claude Code names it under the server's
	// name in README's set-up: a server added under another name has its
	// tool's calls asked about as any other's, since the server cannot
	// learn the name the client gave it.
	own := "mcp__askuser__" + s.opts.Tool.Name
	asking, err := r.Ask(approve.Settings{Who: who, Schema: s.opts.Request.Schema, Presets: s.opts.Request.Presets, Tools: []string{own}})
	if err != nil {
		return toolError(err), nil
	}
	var got []prompt.Answer
	if len(asking.Questions) > 0 {
		// Never through the client's forms: the client waits on the
		// approval to run another tool, and holds its servers' forms until
		// then (Claude Code 2.1.332 does, even in claude -p, which declines
		// them at once otherwise), so that the form would wait for ever
		// behind the approval it is for.
		// Without forms, no form is handed back.
		got, _, err = s.ask(reqCtx, req, asking.Questions, false, errApproveForms)
	}
	var d approve.Decision
	_, unavailable := errors.AsType[*prompt.UnavailableError](err)
	switch {
	case unavailable, withdrawn(err):
		return toolError(err), nil
	case err != nil:
		d = approve.Refusal("Not allowed, for want of an answer: " + strings.TrimPrefix(toolText(err), "Error: "))
	default:
		d = asking.Decide(got)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.Output(d)}}}, nil
}
