package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/approve"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// ApproveName is the name of the tool that asks the person whether an
// agent's tool call may run.
const ApproveName = "approve"

// approveTool is the tool that Claude Code calls, named with
// --permission-prompt-tool, to ask whether a call of another tool may run.
var approveTool = &mcp.Tool{
	Name:  ApproveName,
	Title: "Ask the user to approve a tool call",
	Description: "Asks the person whether a tool call may run, as Claude Code's permission prompt tool: " +
		"claude -p --permission-prompt-tool mcp__askuser__approve. Claude Code calls it itself; a model has no need to. " +
		`It answers with a decision as JSON text: {"behavior":"allow","updatedInput":{...}} or {"behavior":"deny","message":"..."}.`,
	InputSchema: json.RawMessage(`{"type":"object","properties":{` +
		`"tool_name":{"type":"string","description":"The tool that the call would run"},` +
		`"input":{"type":"object","description":"The call's arguments"},` +
		`"tool_use_id":{"type":"string","description":"The call's ID"}},` +
		`"required":["tool_name","input"]}`),
}

// approve handles one call of the approve tool: it asks the person the
// question of the call to approve, along the call's route, and answers
// with their decision. No answer (a timeout, a cancel, a decline) denies
// the call, saying why; where no way reaches anybody, or the client went,
// the call is a tool error, as for askuser.
func (s *Server) approve(reqCtx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	r, err := approve.Parse(req.Params.Arguments)
	if err != nil {
		return toolError(err), nil
	}
	who := callFrom(req)
	if who == "" {
		who = "The agent"
	}
	// Never through the client's forms: the client waits on the approval
	// to run another tool, and holds its servers' forms until then (Claude
	// Code 2.1.332 does, even in claude -p, which declines them at once
	// otherwise), so that the form would wait for ever behind the approval
	// it is for.
	got, err := s.ask(reqCtx, req, []schema.Question{r.Question(who, s.opts.Request.Schema.Limits())}, nil, errApproveForms)
	var d approve.Decision
	_, unavailable := errors.AsType[*prompt.UnavailableError](err)
	switch {
	case unavailable, withdrawn(err):
		return toolError(err), nil
	case err != nil:
		d = approve.Refusal("Not allowed, for want of an answer: " + strings.TrimPrefix(toolText(err), "Error: "))
	default:
		d = r.Decide(got[0])
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: d.JSON()}}}, nil
}
