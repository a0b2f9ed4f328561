package cmd

import (
	"io"
	"strings"

	"github.com/spf13/cobra"
)

func newSchemaCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the questions",
		Long: `Print the JSON Schema (draft 2020-12) that the questions are validated
against, with any limit variables (ASKUSER_MAX_QUESTIONS, ASKUSER_MAX_OPTIONS,
ASKUSER_HEADER_MAX_LENGTH, ASKUSER_QUESTION_MAX_LENGTH) applied. Their older
names (ASK_MAX_QUESTIONS and so on) are still read; a limit set to two
different numbers under its two names is an error.`,
		Example: "  askuser schema\n  ASKUSER_MAX_OPTIONS=6 askuser schema | jq .",
		Args:    noArgs,
		// The schema in effect, ending with a newline.
		RunE: func(cmd *cobra.Command, _ []string) error {
			sch, err := loadSchema(env)
			if err != nil {
				return err
			}
			_, err = io.WriteString(cmd.OutOrStdout(), strings.TrimSuffix(string(sch.Bytes()), "\n")+"\n")
			return err
		},
	}
}
