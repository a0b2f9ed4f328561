package cmd

import (
	"context"

	"strings"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/schema"
)

func newConfirmCmd(env *Env, runF func(context.Context, *Env, questionOptions) error) *cobra.Command {
	var def string
	cmd := &cobra.Command{
		Use:   "confirm QUESTION",
		Short: "Ask a yes/no question; exit 0 for yes, 1 for no",
		Long: `Ask the person a yes/no question, for scripts. Exits 0 for yes and 1 for no;
any other exit code means that no answer was given, and is not a no: 130
cancelled, 124 timed out (--timeout), 66 the answer input ended, 69 the way of
asking chosen cannot be used here (--ui tui without a terminal), 129 or 143
stopped by a signal, 64 a usage error. It prints nothing on stdout (with
--json, the answer). Enter takes the default (yes unless --default no). Line
prompts accept y, yes, n and no in any case.`,
		Example: `  askuser confirm "Delete 15 files?" --default no && rm -- *.tmp
  if askuser confirm "Deploy to production?" --timeout 2m; then make deploy; fi

  askuser confirm "Deploy?"
  case $? in 0) make deploy ;; 1) ;; *) exit 1 ;; esac`,
		Args: questionArg("confirm", "Delete 15 files?"),
	}
	cmd.Flags().StringVar(&def, "default", "yes", "the answer Enter takes, `ANSWER`: yes or no")
	_ = cmd.RegisterFlagCompletionFunc("default", fixedCompletions("yes", "no"))
	return newQuestionCmd(env, cmd, runF, func(args []string) (schema.Question, error) {
		yes, err := parseYesNo(def)
		return schema.ConfirmQuestion(args[0], yes), err
	})
}

func parseYesNo(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "yes", "y", "true":
		return true, nil
	case "no", "n", "false":
		return false, nil
	}
	return false, ask.UsageErrorf("invalid --default %q: must be yes or no", s)
}
