package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/approve"
	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/prompt"
)

// approveLong is askuser approve's help.
const approveLong = `Ask the person what an agent tool would ask in its own dialog: whether a
tool call may run, or the tool's own questions. The input comes on stdin, the
decision goes to stdout, in the agent tool's own form:

  - the PermissionRequest and PreToolUse hooks of Claude Code, Codex and
    Qwen Code, and Copilot CLI's permissionRequest hook
  - OpenCode's permission.asked and question.asked events, as OpenCode's
    askuser plugin passes them on

A call is asked as which tool, from which directory, and what it will do:
Allow, Deny, or Allow for this session, which names the rule it adds (a
command's prefix, such as Bash(go test *), never a whole tool) and is offered
only where the agent tool takes one. Your own answer (Other) or a note on
Deny is the reason the model is told. The agent tool's own questions
(Claude Code's AskUserQuestion, OpenCode's questions) are asked as questions,
ASKUSER_ANSWERS answering them as it answers askuser's, and their answers
go back to the model, and answers the agent put in them itself are never
taken; a plan (ExitPlanMode) is asked as a plan. Only what asks the person
and does nothing else is allowed without asking: a call of askuser's own
MCP tool, mcp__askuser__askuser (--tool names it otherwise), with askuser's
input; a shell command that runs askuser, confirm, input or choose, its
questions in its arguments or a here-document, with no other redirection,
command, substitution or expansion, and no flag that reads a file (-f) or
serves the page beyond this machine (--listen).

It asks in the inbox (stdin holds the input, not answers), or on the
controlling terminal with --tty, or as --ui says. When the question is
answered in Claude Code's own dialog first, it leaves the inbox and askuser
approve ends, writing nothing. Without an answer (no inbox, a cancel,
--timeout), it writes nothing and exits as askuser does, never 0 or 2: the
agent tool then asks in its own dialog, or decides as it does without the
hook. For Copilot CLI, which takes a failed hook for a denial, it exits 0
instead, writing nothing on stdout. A hook's timeout is how long the agent
tool waits for the person: give it a day (86400 s).`

// newApproveCmd returns askuser approve, whose flags become the options that
// runF asks with (approveRun, but for tests).
func newApproveCmd(env *Env, runF func(context.Context, *Env, approveOptions) error) *cobra.Command {
	var flags askFlags
	var s approve.Settings // --tool sets its Tools
	cmd := &cobra.Command{
		Use:   "approve",
		Short: "Answer an agent tool's approvals and own questions (its hook)",
		Long:  approveLong,
		Example: `  # ~/.claude/settings.json
  {"hooks":{"PermissionRequest":[{"hooks":[
    {"type":"command","command":"askuser approve","timeout":86400}]}]}}`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := flags.resolve(cmd, env)
			if err != nil {
				return err
			}
			if s.Schema, s.Presets, err = schemaAndPresets(env); err != nil {
				return err
			}
			return runF(cmd.Context(), env, approveOptions{Options: o, Settings: s})
		},
	}
	flags.register(cmd)
	cmd.Flags().StringArrayVar(&s.Tools, "tool", nil, "allow calls of `NAME` with askuser's input without asking, as askuser's own tool under the name the agent tool gives it; repeat for several (default "+approve.OwnTool+")")
	return cmd
}

// errAnsweredThere is why askuser approve stopped asking: the agent tool's
// own dialog was answered.
var errAnsweredThere = errors.New("answered in the agent tool's own dialog")

// approveOptions are askuser approve's: those of every command that asks,
// and what the hook's input is asked with: the schema in effect, the
// answers known in advance, and the names under which askuser's own tool
// passes without asking (the agent that asks is the input's own).
type approveOptions struct {
	ask.Options
	approve.Settings
}

// approveRun reads the hook's input, asks, and writes the hook's output.
func approveRun(ctx context.Context, env *Env, o approveOptions) error {
	in, err := ask.ReadLimited(env.IO.In, -1)
	if err != nil {
		return err
	}
	r, err := approve.ParseHook(in.Data)
	if err != nil {
		return &ask.InputError{Err: err}
	}
	if o.Mode == ask.UIAuto && !o.TTY {
		// stdin held the hook's input, and no person answers there: of
		// auto's ways, only the inbox is left, unless --tty names the
		// controlling terminal.
		o.Mode = ask.UIInbox
	}
	o.Who = "An agent"
	if r.Cwd != "" {
		home, _ := os.UserHomeDir() // as askuser mcp's approve and the inbox find it
		o.Who += " in " + prompt.ShortHome(r.Cwd, home)
		// The inbox says where a set comes from: the agent's directory,
		// which the question names, not the hook's own.
		o.Inbox.Cwd = r.Cwd
	}
	err = approveAsk(ctx, env, o.Options, r, o.Settings)
	if r.Dialect.Quiet() && err != nil {
		// Copilot CLI denies a call whose hook fails: without an answer,
		// it asks in its own dialog only when the hook ends quietly.
		text, _ := ask.Outcome(err, "askuser approve")
		_, err = io.WriteString(env.IO.ErrOut, text)
	}
	return err
}

// approveAsk asks the person about r, and writes the decision their
// answers make; when the agent tool's own dialog was answered first, it
// says so on stderr, and writes nothing.
func approveAsk(ctx context.Context, env *Env, o ask.Options, r approve.Request, s approve.Settings) error {
	asking, err := r.Ask(s)
	if err != nil {
		return err
	}
	var got []prompt.Answer
	if len(asking.Questions) > 0 {
		ctx, stop := context.WithCancelCause(ctx)
		defer stop(nil)
		go func() {
			if r.Answered(ctx) == nil {
				stop(errAnsweredThere)
			}
		}()
		got, err = ask.RunQuestions(ctx, &env.Streams, o, asking.Questions...)
		if errors.Is(context.Cause(ctx), errAnsweredThere) {
			_, err = fmt.Fprintln(env.IO.ErrOut, "Answered in the agent tool's own dialog: the question left the inbox.")
			return err
		}
		if err != nil {
			return err
		}
	}
	_, err = io.WriteString(env.IO.Out, r.Output(asking.Decide(got))+"\n")
	return err
}
