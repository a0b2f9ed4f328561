package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// errDeclined is a "no" to askuser confirm: exit 1, with nothing to report.
var errDeclined = errors.New("declined")

func newConfirmCmd(env *Env) *cobra.Command {
	var flags askFlags
	var def string
	cmd := &cobra.Command{
		Use:   "confirm QUESTION",
		Short: "Ask a yes/no question; exit 0 for yes, 1 for no",
		Long: `Ask the person a yes/no question, for scripts. Exits 0 for yes and 1 for no,
130 when cancelled and 124 on --timeout; prints nothing on stdout. Enter takes
the default (yes unless --default no). Line prompts accept y, yes, n and no in
any case.`,
		Example: `  askuser confirm "Delete 15 files?" --default no && rm -- *.tmp
  if askuser confirm "Deploy to production?" --timeout 2m; then make deploy; fi`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 || strings.TrimSpace(args[0]) == "" {
				return usageErrorf(`confirm needs one question, e.g. askuser confirm "Delete 15 files?"`)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			yes, err := parseYesNo(def)
			if err != nil {
				return err
			}
			s, err := flags.start(cmd.Context(), cmd, env, &source{}, schema.Question{Header: "Confirm", Question: args[0]})
			if err != nil {
				return err
			}
			ok, err := s.Confirm(s.ctx, args[0], yes)
			err = s.settle(err)
			if err == nil {
				s.summarizeOne(args[0], map[bool]string{true: "Yes", false: "No"}[ok])
			}
			s.end(env.IO.ErrOut)
			if err != nil {
				return noAnswerIn(err, args[0])
			}
			if !ok {
				return errDeclined
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&def, "default", "yes", "the answer Enter takes: `yes` or no")
	cmd.RegisterFlagCompletionFunc("default", fixedCompletions("yes", "no"))
	flags.register(cmd)
	return cmd
}

func parseYesNo(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "yes", "y", "true":
		return true, nil
	case "no", "n", "false":
		return false, nil
	}
	return false, usageErrorf("invalid --default %q: must be yes or no", s)
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
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 || strings.TrimSpace(args[0]) == "" {
				return usageErrorf(`input needs one question, e.g. askuser input "Component name?"`)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := flags.start(cmd.Context(), cmd, env, &source{}, schema.Question{Header: "Input", Question: args[0]})
			if err != nil {
				return err
			}
			text, err := s.Input(s.ctx, args[0], placeholder, def)
			err = s.settle(err)
			if err == nil {
				s.summarizeOne(args[0], text)
			}
			s.end(env.IO.ErrOut)
			if err != nil {
				return noAnswerIn(err, args[0])
			}
			_, err = fmt.Fprintln(env.IO.Out, text)
			return err
		},
	}
	cmd.Flags().StringVar(&placeholder, "placeholder", "", "an example answer shown as a hint")
	cmd.Flags().StringVar(&def, "default", "", "the answer Enter takes")
	flags.register(cmd)
	return cmd
}

// noAnswerIn names the question in an ended-input error.
func noAnswerIn(err error, question string) error {
	if errors.Is(err, prompt.ErrNoAnswer) {
		return &noAnswerError{index: 1, total: 1, key: question}
	}
	return err
}
