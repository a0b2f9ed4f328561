package cmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/schema"
)

// questionOptions are what askuser confirm and input need, resolved from
// their flags: the one question, with the answer Enter takes, and how to
// ask it.
type questionOptions struct {
	question schema.Question
	session  ask.Options
}

func newConfirmCmd(env *Env) *cobra.Command {
	var flags askFlags
	var def string
	cmd := &cobra.Command{
		Use:   "confirm QUESTION",
		Short: "Ask a yes/no question; exit 0 for yes, 1 for no",
		Long: `Ask the person a yes/no question, for scripts. Exits 0 for yes and 1 for no;
any other exit code means that no answer was given, and is not a no: 130
cancelled, 124 timed out (--timeout), 66 the answer input ended, 69 the way of
asking chosen cannot be used here (--ui tui without a terminal), 129 or 143
stopped by a signal, 64 a usage error. It prints nothing on stdout. Enter
takes the default (yes unless --default no). Line prompts accept y, yes, n and
no in any case.`,
		Example: `  askuser confirm "Delete 15 files?" --default no && rm -- *.tmp
  if askuser confirm "Deploy to production?" --timeout 2m; then make deploy; fi

  askuser confirm "Deploy?"; case $? in 0) make deploy ;; 1) ;; *) exit 1 ;; esac`,
		Args: questionArg("confirm", "Delete 15 files?"),
		RunE: func(cmd *cobra.Command, args []string) error {
			yes, err := parseYesNo(def)
			if err != nil {
				return err
			}
			opts := questionOptions{question: schema.ConfirmQuestion(args[0], yes)}
			if opts.session, err = flags.resolve(cmd, env); err != nil {
				return err
			}
			return questionRun(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().StringVar(&def, "default", "yes", "the answer Enter takes: `yes` or no")
	_ = cmd.RegisterFlagCompletionFunc("default", fixedCompletions("yes", "no"))
	flags.register(cmd)
	return cmd
}

// questionRun asks the question of confirm or input: a "no" to confirm is
// ask.ErrDeclined, and the text typed for input is printed.
func questionRun(ctx context.Context, env *Env, opts questionOptions) error {
	answer, err := ask.ConverseOne(ctx, env.engine(), opts.session, opts.question)
	switch {
	case err != nil:
		return err
	case opts.question.Kind.Form() == schema.FormYesNo:
		if !schema.IsYes(answer) {
			return ask.ErrDeclined
		}
		return nil
	}
	_, err = fmt.Fprintln(env.IO.Out, answer.Other)
	return err
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

// questionArg accepts the one question of a confirm or input command. A
// question given in several words, unquoted, is told how to quote.
func questionArg(name, example string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		switch {
		case len(args) > 1:
			return ask.UsageErrorf(`%s takes one argument, the question, but got %d: quote the question, e.g. askuser %s %s`,
				name, len(args), name, shellQuote(strings.Join(args, " ")))
		case len(args) == 0 || strings.TrimSpace(args[0]) == "":
			return ask.UsageErrorf(`%s needs one question, e.g. askuser %s %q`, name, name, example)
		}
		return nil
	}
}

// shellQuote quotes s for a POSIX shell, in single quotes, in which
// nothing is special but the single quote itself.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
