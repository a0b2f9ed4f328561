package cmd

import (
	"context"

	"errors"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

func newInputCmd(env *Env, runF func(context.Context, *Env, questionOptions) error) *cobra.Command {
	var placeholder, def string
	cmd := &cobra.Command{
		Use:   "input QUESTION",
		Short: "Ask for a line of text and print it",
		Long: `Ask the person for a line of text, for scripts, and print it followed by a
newline (with --json, the answer as askuser prints answers). The answer may
not be empty; with --default, Enter takes the default, which must be an answer
that could be typed (not blank). The exit codes are those of askuser confirm,
but for 1, which is an unexpected failure here.`,
		Example: `  name=$(askuser input "Component name?" --placeholder UserCard)
  branch=$(askuser input "Branch to release from?" --default main)`,
		Args: questionArg("input", "Component name?"),
	}
	cmd.Flags().StringVar(&placeholder, "placeholder", "", "show `TEXT` as an example answer")
	cmd.Flags().StringVar(&def, "default", "", "make `TEXT` the answer Enter takes")
	return newQuestionCmd(env, cmd, runF, func(args []string) (schema.Question, error) {
		clean, err := checkDefault(def)
		return schema.InputQuestion(args[0], placeholder, clean), err
	})
}

// checkDefault checks --default as a typed answer is checked, before
// anything is asked, and returns it cleaned: a default that could not be
// typed would be offered by Enter and then refused, for ever. An empty
// --default is no default, so that scripts may pass an empty variable.
func checkDefault(def string) (string, error) {
	if def == "" {
		return "", nil
	}
	clean, err := schema.CheckOther(def)
	switch {
	case err == nil:
		return clean, nil
	case errors.Is(err, schema.ErrOtherEmpty):
		err = errors.New("must not be blank: give text, or no --default")
	case errors.Is(err, schema.ErrOtherEncoding):
		err = errors.New("must be UTF-8 text")
	}
	return "", ask.UsageErrorf(`invalid --default "%s": %s`, prompt.Display(def), err)
}
