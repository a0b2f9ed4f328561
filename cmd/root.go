package cmd

import (
	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	// The inbox on a NATS server: its package adds nats:// and tls:// to
	// the addresses ASKUSER_INBOX takes.
	_ "github.com/askuser/askuser/internal/inbox/natsinbox"
	"github.com/askuser/askuser/schema"
)

// NewRootCmd returns askuser's command tree: the ask command, with every
// other command under it. Run runs it; scripts/gendocs documents it.
func NewRootCmd(env *Env) *cobra.Command {
	cmd := newAskCmd(env)
	cmd.SetIn(env.IO.In)
	cmd.SetOut(env.IO.Out)
	cmd.SetErr(env.IO.ErrOut)
	cmd.SetVersionTemplate("{{.Version}}\n")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &ask.UsageError{Msg: err.Error()}
	})
	cmd.CompletionOptions.DisableDefaultCmd = true
	cmd.AddCommand(
		newSchemaCmd(env),
		newValidateCmd(env),
		newConfirmCmd(env),
		newInputCmd(env),
		newChooseCmd(env),
		newInboxCmd(env),
		newToolCmd(env),
		newMCPCmd(env),
		newApproveCmd(env),
		newDocsCmd(env),
		newVersionCmd(env),
		newDoctorCmd(env),
		newCompletionCmd(),
		newEnvironmentTopic(),
	)
	return cmd
}

// fixedCompletions completes a flag's value from values, and never from
// the files of the directory.
func fixedCompletions(values ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
}

// noArgs rejects arguments with a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return ask.UsageErrorf("%q takes no arguments (got %q)", cmd.CommandPath(), args[0])
	}
	return nil
}

// loadSchema compiles the embedded schema with the limit variables applied.
func loadSchema(env *Env) (*schema.Schema, error) {
	l, err := env.limits()
	if err != nil {
		return nil, err
	}
	o, err := l.Overrides()
	if err != nil {
		return nil, err
	}
	return schema.Compile(env.Schema, o)
}

// readInput reads the questions document, and the schema that checks it
// (see ask.Parse). answersFollow is as for ask.ReadSource.
func readInput(env *Env, args []string, file string, answersFollow bool) (*schema.Schema, *ask.Source, error) {
	sch, err := loadSchema(env)
	if err != nil {
		return nil, nil, err
	}
	src, err := ask.ReadSource(ask.Stdin{R: env.IO.In, TTY: env.IO.InTTY}, args, file, answersFollow)
	if err != nil {
		return nil, nil, err
	}
	return sch, src, nil
}
