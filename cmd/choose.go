package cmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/schema"
)

func newChooseCmd(env *Env, runF func(context.Context, *Env, questionOptions) error) *cobra.Command {
	var (
		multi            bool
		header, question string
	)
	cmd := &cobra.Command{
		Use:   "choose [--multi] [--question QUESTION] OPTION...",
		Short: "Ask for a choice among options and print it",
		Long: `Ask the person to choose among the options given, for scripts, and print the
choice followed by a newline; with --multi, any number of them, one a line,
in the order given. Like every question of askuser's, it also offers Other
(0), for the person's own answer, which is printed as typed (last, after the
options chosen). With --json, the answer is printed as askuser prints answers,
keyed by the header. Like confirm and input, it asks for no note: only
askuser's own answers have a place for one (annotations).

Each option must be text that could be typed, and options must differ,
ignoring case; "Other" is not one. The exit codes are those of askuser
confirm, but for 1, which is an unexpected failure here.`,
		Example: `  target=$(askuser choose staging production --question "Deploy where?")
  askuser choose --multi linux darwin windows --header Platforms |
    while read -r os; do GOOS=$os go build ./...; done
  askuser choose --json --header Database PostgreSQL SQLite
  # {"answers":{"Database":"SQLite"}}`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return ask.UsageErrorf("choose needs the options to choose from, e.g. askuser choose staging production")
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&multi, "multi", false, "let the person choose any number of the options (at least one)")
	f.StringVar(&header, "header", "Choose", "show `HEADER` above the question, and key the answer by it with --json")
	f.StringVar(&question, "question", "", "ask `QUESTION` (default \"Choose one\", with --multi \"Choose one or more\")")
	return newQuestionCmd(env, cmd, runF, func(args []string) (schema.Question, error) {
		if !cmd.Flags().Changed("question") {
			question = "Choose one"
			if multi {
				question = "Choose one or more"
			}
		}
		if _, err := schema.CheckOther(question); err != nil {
			return schema.Question{}, ask.UsageErrorf("invalid --question: %s", err)
		}
		if _, err := schema.CheckOther(header); err != nil {
			return schema.Question{}, ask.UsageErrorf("invalid --header: %s", err)
		}
		q, err := schema.ChooseQuestion(question, header, args, multi)
		if err != nil {
			return schema.Question{}, ask.UsageErrorf("invalid options: %s", err)
		}
		return q, nil
	})
}
