package cmd

import (
	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/schema"
)

// validateOptions are what askuser validate needs, resolved from its flags.
type validateOptions struct {
	args []string // the questions, when given as the argument
	file string   // --file
	key  schema.KeyBy
}

func newValidateCmd(env *Env) *cobra.Command {
	var file, key string
	cmd := &cobra.Command{
		Use:   "validate ['<json>' | -f FILE]",
		Short: "Check questions without asking them",
		Long: `Check the questions as askuser would before asking them, and ask nothing.
Prints nothing and exits 0 when they are valid; otherwise prints every problem
on stderr and exits 65 (64 for a usage error).`,
		Example: `  askuser validate '{"questions":[...]}'
  askuser validate -f questions.json && echo ok
  generate-questions | askuser validate`,
		Args: docArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := validateOptions{args: args, file: file}
			var err error
			if opts.key, err = parseKey(key); err != nil {
				return err
			}
			return validateRun(env, opts)
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "read the questions from `FILE` (\"-\" for stdin)")
	cmd.Flags().StringVar(&key, "key", "header", "check that each `KEY` is unique: header, or question for the question text")
	return cmd
}

// validateRun reads and checks the questions, as askuser would before
// asking them.
func validateRun(env *Env, opts validateOptions) error {
	sch, err := loadSchema(env)
	if err != nil {
		return err
	}
	// Nothing is asked: what follows the document on stdin is not
	// answers, and must be nothing.
	src, err := ask.ReadSource(env.IO, opts.args, opts.file, false)
	if err != nil {
		return err
	}
	_, err = ask.Parse(sch, src.Data, opts.key)
	return err
}
