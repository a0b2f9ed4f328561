//go:build heavy

package agents

import "sync"

// The sections of docs/reach.md after the matrix: what each agent tool
// offers an outside program for its own questions and its approvals, at
// the version read, and what askuser does with it, with what the suite's
// runs showed.

// lateText begins the section on how long the person may take, whose rows
// TestPastTimeLimits fills in.
const lateText = `
## How long the person may take

Each CLI's MCP route, set up as [setup](setup.md) says, with the person answering only once the
CLI's own time limit for a call has passed (TestPastTimeLimits): the model got the answer in
each. While a call waits, ` + "`askuser mcp`" + ` sends progress every 20 s, which resets the limits
that progress resets; the limits it does not reset are settings, which setup's snippets set to a
day, and past which the model calls again with the same questions (as askuser's description
tells it) and gets the answer, which askuser keeps for it. The ` + "`timeout`" + ` of an approval hook is
the same kind of limit, set to a day in setup's snippets: past it, the agent tool asks in its own
dialog.

| tool | what the suite showed |
|---|---|
`

// ownShown holds, by the tool's name, how long after the model's call its
// own question was on the inbox's screen.
var ownShown sync.Map

// ownQuestionsText begins the section on the agent tools' own questions.
const ownQuestionsText = `
## The tool's own questions

Models often use their tool's own question tool rather than askuser. Where the tool lets an
outside program answer it, askuser asks its questions in the inbox as the questions they are
(options, multi-select, your own answer, notes, previews), never as Allow or Deny, and hands the
answers back in the form the tool reads; the first answer wins, in the inbox or in the tool's
own dialog, and the other lets the question go. The time is from the model's call to the
question in the inbox, in the suite's run.

| tool | its own question tool | askuser | on screen |
|---|---|---|---|
`

// ownQuestions are the rows of that section, in the matrix's order; timed
// where askuser asks the tool's own question, and the suite times it.
var ownQuestions = []struct {
	tool, offers, askuser string
	timed                 bool
}{
	{claude.name, "Claude Code 2.1.332: `AskUserQuestion`, in its interactive sessions (`claude -p` leaves it out); its " +
		"`PermissionRequest` hook sees it, and an allow whose `updatedInput` holds `answers` and `annotations` answers it",
		"✓ `askuser approve` asks it in the inbox and answers in `updatedInput`; Claude Code's dialog closes. Answered in Claude " +
			"Code's dialog first, it leaves the inbox once Claude Code writes the answer to the session's transcript (about 0.5 s after " +
			"the key; Claude Code leaves the hook running and tells it nothing), within 0.2 s of that. `ExitPlanMode` is asked as a plan", true},
	{codex.name, "Codex 0.169.0: `request_user_input`, answered by the client of its app-server (its own session)",
		"– no hook sees it, and no outside program may answer it", false},
	{gemini.name, "Gemini CLI 0.61.0: `ask_user`, answered only through its confirmation dialog",
		"– a `BeforeTool` hook can deny it or change its input, which carries no answers", false},
	{opencode.name, "OpenCode 1.18.33: `question`, a `question.asked` event of its server that any client may answer",
		"✓ askuser's plugin (see [setup](setup.md)) asks it in the inbox and replies through the server; answered in OpenCode first " +
			"(`question.replied`), it ends askuser and the question leaves the inbox", true},
	{qwen.name, "Qwen Code 0.24.4: `ask_user_question`, answered only in its own dialog: its `PermissionRequest` hook's allow does not answer it",
		"– `askuser approve` leaves it to Qwen Code's dialog, asking nothing", false},
	{copilot.name, "Copilot CLI 1.0.102: `ask_user`, answered in its own dialog; its `permissionRequest` hook takes allow or deny only",
		"– left to Copilot CLI's dialog", false},
	{kilo.name, "Kilo Code 7.7.7: OpenCode's `question`", "✓ the same plugin, in `~/.config/kilo/plugins/`", true},
}

// approvals is the section of docs/reach.md on approving tool calls.
const approvals = `
## Approving tool calls

Where an agent tool lets an outside program answer its permission prompts, askuser asks the
person instead, in the inbox or on a page they can see (see [setup](setup.md#approvals)).
**Allow for this session** is offered only where the tool takes a rule, and then adds one no
wider than the call (Claude Code's own, such as ` + "`Bash(go test *)`" + `, or OpenCode's patterns), named
in the option. Gemini CLI, Qwen Code and Copilot CLI also run as ACP agents (` + "`--acp`" + `): there they ask
the editor that runs them (` + "`session/request_permission`" + `), which is the person's screen for the
session, and no other program can answer beside it. What each tool offers, in the version read:

| tool | what it offers | askuser |
|---|---|---|
| Claude Code 2.1.332 (Agent SDK 0.3.332) | ` + "`--permission-prompt-tool`" + ` (an MCP tool) in ` + "`claude -p`" + `; the ` + "`PermissionRequest`" + ` hook, run beside its own dialog, and ` + "`PreToolUse`" + ` | ✓ askuser mcp's ` + "`approve`" + ` and ` + "`askuser approve`" + `; the suite runs both with ` + "`claude -p`" + ` (Allow, Deny with a note, Allow for this session of ` + "`go test`" + ` and then ` + "`rm -rf`" + ` asked again) and the hook in its interactive session (approved in Claude Code's dialog, the approval leaves the inbox) |
| Codex 0.169.0 | a ` + "`PermissionRequest`" + ` hook, run before its own approval, that takes allow, or deny with a message; it runs once the person has trusted it (` + "`/hooks`" + `); ` + "`codex exec`" + ` asks nothing | ✓ ` + "`askuser approve`" + `; the suite runs its interactive session: Allow and Deny in the inbox |
| Gemini CLI 0.61.0 | no way: a ` + "`BeforeTool`" + ` hook can deny a call or have it confirmed, never allow it, and the ` + "`ToolPermission`" + ` notification only tells | – |
| OpenCode 1.18.33 | ` + "`permission.asked`" + ` events of its server, which any client may answer; its ` + "`permission.ask`" + ` plugin hook is never called; ` + "`opencode run`" + ` rejects each at once | ✓ askuser's plugin; the suite runs its interactive session: allowed in the inbox, or in OpenCode (the approval leaves the inbox) |
| Qwen Code 0.24.4 | a ` + "`PermissionRequest`" + ` hook, run before its own dialog, that takes allow, or deny with a message (no rules); headless runs deny before it | ✓ ` + "`askuser approve`" + `; the suite runs its interactive session: Allow and Deny in the inbox |
| Copilot CLI 1.0.102 | a ` + "`permissionRequest`" + ` hook in the repository's ` + "`.github/hooks`" + `, run before its own dialog, that takes allow, or deny with a message; a failing hook denies | ✓ ` + "`askuser approve`" + `, which ends quietly without an answer; the suite runs its interactive session: Allow and Deny in the inbox, and with no inbox its own dialog |
| Kilo Code 7.7.7 | OpenCode's events | ✓ the same plugin; the suite runs it as OpenCode's |
`
