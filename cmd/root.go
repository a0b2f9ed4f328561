package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/inbox/serve"
	"github.com/askuser/askuser/schema"
)

// NewRootCmd returns askuser's command tree: the ask command, with every
// other command under it. Run runs it; scripts/gendocs documents it.
func NewRootCmd(env *Env) *cobra.Command {
	cmd := newAskCmd(env, askRun)
	cmd.SetIn(env.IO.In)
	cmd.SetOut(env.IO.Out)
	cmd.SetErr(env.IO.ErrOut)
	cmd.SetVersionTemplate("{{.Version}}\n")
	cmd.SetUsageTemplate(usageTemplate)
	cmd.SetFlagErrorFunc(flagError)
	cmd.CompletionOptions.DisableDefaultCmd = true
	cmd.AddCommand(
		newSchemaCmd(env),
		newValidateCmd(env),
		newConfirmCmd(env, questionRun),
		newInputCmd(env, questionRun),
		newChooseCmd(env, questionRun),
		newInboxCmd(env, serve.Run),
		newHistoryCmd(env),
		newToolCmd(env),
		newMCPCmd(env, mcpRun),
		newApproveCmd(env, approveRun),
		newDocsCmd(env),
		newVersionCmd(env),
		newDoctorCmd(env),
		newCompletionCmd(),
		newManCmd(env),
		newEnvironmentTopic(),
	)
	return cmd
}

// usageTemplate is cobra's, with the flags wrapped to the width of the rest
// of the help (helpWidth), and the help topics named as "askuser help"
// takes them.
const usageTemplate = `Usage:{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Available Commands:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsagesWrapped 80 | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Global Flags:
{{.InheritedFlags.FlagUsagesWrapped 80 | trimTrailingWhitespaces}}{{end}}{{if .HasHelpSubCommands}}

Help topics:{{range .Commands}}{{if .IsAdditionalHelpTopicCommand}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} [command] --help" for more about a command{{if .HasHelpSubCommands}}, and
"{{.CommandPath}} help [topic]" for a topic{{end}}.{{end}}
`

// flagError returns the usage error of a flag that cmd cannot take: one it does
// not have is told the closest it has, as JSON fields are ("did you mean
// --ui?"), and as cobra tells commands.
func flagError(cmd *cobra.Command, err error) error {
	if invalid, ok := errors.AsType[*pflag.InvalidValueError](err); ok && invalid.GetFlag().Value.Type() == "duration" {
		_, err := given{value: invalid.GetValue(), from: "--" + invalid.GetFlag().Name, set: true}.duration()
		return err
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		// No flag of askuser's is hidden: each is one to suggest.
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			names = append(names, f.Name)
		})
		if s := schema.Suggest(name, names); s != "" {
			msg += fmt.Sprintf("; did you mean --%s?", s)
		}
	}
	return &ask.UsageError{Msg: msg}
}

// atMostOne accepts at most one argument: more are a usage error, its
// message tooMany with their number.
func atMostOne(tooMany string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) > 1 {
			return ask.UsageErrorf(tooMany, len(args))
		}
		return nil
	}
}

// noArgs rejects arguments with a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return ask.UsageErrorf("%q takes no arguments (got %q)", cmd.CommandPath(), args[0])
	}
	return nil
}
