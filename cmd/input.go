package cmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
)

// inputOptions are what askuser input needs, resolved from its flags.
type inputOptions struct {
	question    string
	placeholder string // an example answer
	def         string // the answer Enter takes
	session     sessionOptions
}

func newInputCmd(env *Env) *cobra.Command {
	var flags askFlags
	var placeholder, def string
	cmd := &cobra.Command{
		Use:   "input QUESTION",
		Short: "Ask for a line of text and print it",
		Long: `Ask the person for a line of text, for scripts, and print it followed by a
newline. The answer may not be empty; with --default, Enter takes the default.`,
		Example: `  name=$(askuser input "Component name?" --placeholder UserCard)
  branch=$(askuser input "Branch to release from?" --default main)`,
		Args: questionArg("input", "Component name?"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := inputOptions{question: args[0], placeholder: placeholder, def: def}
			var err error
			if opts.session, err = flags.resolve(cmd, env); err != nil {
				return err
			}
			return inputRun(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().StringVar(&placeholder, "placeholder", "", "an example answer shown as a hint")
	cmd.Flags().StringVar(&def, "default", "", "the answer Enter takes")
	flags.register(cmd)
	return cmd
}

// inputRun asks for the text and prints it.
func inputRun(ctx context.Context, env *Env, opts inputOptions) error {
	text, err := converseOne(ctx, env, opts.session, "Input", opts.question, func(ctx context.Context, a fullAsker) (string, error) {
		return a.Input(ctx, opts.question, opts.placeholder, opts.def)
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(env.IO.Out, text)
	return err
}
