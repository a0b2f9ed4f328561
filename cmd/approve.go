package cmd

import (
	"context"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/approve"
	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/prompt"
)

// approveLong is askuser approve's help.
const approveLong = `Ask the person whether an agent's tool call may run, as Claude Code's
PermissionRequest hook: the hook's input on stdin, the decision on stdout.
The person sees which tool, from which directory, and what the call will do,
and chooses Allow, Deny, or Allow for this session; their own answer (Other)
or a note on Deny is the reason the model is told.

It asks in the inbox (stdin holds the hook's input, not answers), or on the
controlling terminal with --tty, or as --ui says. Without an answer (no
inbox, a cancel, --timeout), it prints nothing and exits as askuser does,
never 0 or 2: Claude Code then decides as it does without the hook. The
hook's timeout, in seconds, is how long Claude Code waits for the person.`

func newApproveCmd(env *Env) *cobra.Command {
	var flags askFlags
	cmd := &cobra.Command{
		Use:   "approve",
		Short: "Ask whether an agent's tool call may run (Claude Code's hook)",
		Long:  approveLong,
		Example: `  # ~/.claude/settings.json
  {"hooks":{"PermissionRequest":[
    {"hooks":[{"type":"command","command":"askuser approve","timeout":3600}]}]}}`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := flags.resolve(cmd, env)
			if err != nil {
				return err
			}
			return approveRun(cmd.Context(), env, o)
		},
	}
	flags.register(cmd)
	return cmd
}

// approveRun reads the hook's input, asks, and writes the hook's output.
func approveRun(ctx context.Context, env *Env, o ask.Options) error {
	sch, err := loadSchema(env)
	if err != nil {
		return err
	}
	in, err := ask.ReadLimited(env.IO.In, -1)
	if err != nil {
		return err
	}
	r, err := approve.Parse(in.Data)
	if err != nil {
		return ask.UsageErrorf("%s, as Claude Code's PermissionRequest hook gives it on stdin", err)
	}
	if o.Mode == ask.UIAuto && !o.TTY {
		// stdin held the hook's input, and no person answers there: of
		// auto's ways, only the inbox is left, unless --tty names the
		// controlling terminal.
		o.Mode = ask.UIInbox
	}
	who := "An agent"
	if r.Cwd != "" {
		home, _ := os.UserHomeDir() // as askuser mcp's approve and the inbox find it
		who += " in " + prompt.ShortHome(r.Cwd, home)
		// The inbox says where a set comes from: the agent's directory,
		// which the question names, not the hook's own.
		o.Inbox.Cwd = r.Cwd
	}
	answer, err := ask.ConverseOne(ctx, env.engine(), o, r.Question(who, sch.Limits()))
	if err != nil {
		return err
	}
	_, err = io.WriteString(env.IO.Out, r.Decide(answer).Hook()+"\n")
	return err
}
