package cmd

import (
	"io"

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
			return schemaRun(env, cmd.OutOrStdout())
		},
	}
}

// schemaRun prints the schema in effect, ending with a newline.
func schemaRun(env *Env, w io.Writer) error {
	sch, err := loadSchema(env)
	if err != nil {
		return err
	}
	out := sch.Bytes()
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out[:len(out):len(out)], '\n')
	}
	_, err = w.Write(out)
	return err
}
