package cmd

import (
	"github.com/spf13/cobra"
)

func newSchemaCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the questions",
		Long: `Print the JSON Schema (draft 2020-12) that the questions are validated
against, with any limit variables (ASK_MAX_QUESTIONS, ASK_MAX_OPTIONS,
ASK_HEADER_MAX_LENGTH, ASK_QUESTION_MAX_LENGTH) applied.`,
		Example: "  askuser schema\n  ASK_MAX_OPTIONS=6 askuser schema | jq .",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sch, err := loadSchema(env)
			if err != nil {
				return err
			}
			out := sch.Bytes()
			if len(out) > 0 && out[len(out)-1] != '\n' {
				out = append(out[:len(out):len(out)], '\n')
			}
			_, err = cmd.OutOrStdout().Write(out)
			return err
		},
	}
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
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageErrorf("too many arguments: give the questions as one argument (got %d); quote the JSON", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			k, err := schemaKey(key)
			if err != nil {
				return err
			}
			// Nothing is asked: what follows the document on stdin is not
			// answers, and must be nothing.
			_, _, err = parseInput(env, args, file, k, false)
			return err
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "read the questions from `FILE` (\"-\" for stdin)")
	cmd.Flags().StringVar(&key, "key", "header", "check uniqueness of `header` or question text (question)")
	return cmd
}
