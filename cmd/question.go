package cmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/schema"
)

// The commands for scripts, confirm, input and choose, each ask one
// question given in their arguments, the same ways as askuser asks, with
// the same exit codes, and print the answer's text (or, with --json, the
// answer as askuser prints answers). This is their one body: each command's
// file gives its help, its flags and its question.

// questionOptions are what a command for scripts needs, resolved from its
// flags: the one question, how to ask it, and how to print the answer.
type questionOptions struct {
	question schema.Question
	session  ask.Options
	json     bool // --json: {"answers":{...}}, as askuser prints answers
}

// newQuestionCmd completes cmd, a command for scripts with its help and
// flags, with the flags of every command that asks, --json, and the run
// that asks the question that question makes of the arguments: runF
// (questionRun, but for tests).
func newQuestionCmd(env *Env, cmd *cobra.Command, runF func(context.Context, *Env, questionOptions) error, question func(args []string) (schema.Question, error)) *cobra.Command {
	var flags askFlags
	var asJSON bool
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		q, err := question(args)
		if err != nil {
			return err
		}
		opts := questionOptions{question: q, json: asJSON}
		if opts.session, err = flags.resolve(cmd, env); err != nil {
			return err
		}
		return runF(cmd.Context(), env, opts)
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print the answer as askuser prints answers: {"answers":{...}}`)
	flags.register(cmd)
	return cmd
}

// questionRun asks the question of a command for scripts, and prints its
// answer: nothing for confirm, whose "no" is ask.ErrDeclined (exit 1); the
// text typed for input; the labels chosen for choose, one a line, with the
// person's own answer last. With --json, every command prints the answer
// as askuser does, keyed by the question's header (confirm still exits 1
// for a "no").
func questionRun(ctx context.Context, env *Env, opts questionOptions) error {
	q := opts.question
	got, err := ask.RunQuestions(ctx, &env.Streams, opts.session, q)
	if err != nil {
		return err
	}
	answer := got[0]
	switch {
	case opts.json:
		err = ask.WriteAnswers(env.IO.Out, []schema.Question{q}, []schema.Answer{answer}, schema.KeyHeader, false)
	case q.Kind != schema.KindConfirm:
		// The labels chosen, then the text typed; confirm's answer is its
		// exit code. (Input has no labels, and its text is never empty; a
		// choice is at least one option, or the text typed.)
		// One write, as the answers of askuser: a reader never sees part.
		if _, werr := fmt.Fprint(env.IO.Out, strings.Join(answer.Parts(), "\n")+"\n"); werr != nil {
			err = &ask.NotWrittenError{Err: werr}
		}
	}
	if err == nil && q.Kind == schema.KindConfirm && !schema.IsYes(answer) {
		return ask.ErrDeclined
	}
	return err
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
