package cmd

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
)

// askOptions are what askuser needs to ask its questions, resolved from
// its flags: where the questions come from, and the engine's request but
// for them and the streams, which askRun adds.
type askOptions struct {
	args []string // the questions, when given as the argument
	file string   // --file
	ask.Request
}

// askLong is askuser's help.
const askLong = `askuser asks the person at the keyboard 1-4 multiple-choice questions and
prints the answers as one line of JSON on stdout:
{"answers":{"<header>":"<label>",...}}.

The questions come as the single argument, from --file, or on stdin. They are
asked in a terminal UI when there is a terminal, in the person's inbox
(askuser inbox) when nobody could answer at stdin and one runs, and as
numbered line prompts otherwise. Every question also offers "Other" (0), for
the person's own answer, and the person may add a note to an answer (n).

The input may also give "answers" already known and "annotations" (notes on
answers), each keyed by header or by question text. The output is keyed by
header (--key question: by question text). A multi-select answer is its
labels joined by ", ", or with --arrays a JSON array. Notes, the input's and
the person's, follow as "annotations":{"<header>":{"notes":"..."}}.

Exit codes: 0 answered, 1 unexpected failure, 64 usage error, 65 invalid
questions, 66 no answers (input ended), 69 the way of asking chosen is
unavailable (--ui tui without a terminal, --ui web that cannot listen, no
inbox for --ui inbox), 124 timed out, 129 hung up, 130 cancelled,
143 terminated.

Run 'askuser docs' for the full guide, written for agents.`

// newAskCmd returns the command that asks: askuser itself. Its flags become
// options that runF runs (askRun): a test passes its own, to check the
// options without asking anything.
func newAskCmd(env *Env, runF func(context.Context, *Env, askOptions) error) *cobra.Command {
	var (
		flags     askFlags
		file, key string
		noReview  bool
	)
	cmd := &cobra.Command{
		Use:   "askuser [flags] ['<json>']",
		Short: "Ask the person at the keyboard multiple-choice questions and print the answers as JSON",
		Long:  askLong,
		Example: `  askuser '{"questions":[{"question":"Which database should we use?",
    "header":"Database","multiSelect":false,"options":[
    {"label":"PostgreSQL (Recommended)",
     "description":"Relational, rich features"},
    {"label":"SQLite","description":"Embedded, zero configuration"}]}]}'

  askuser -f questions.json --key question
  printf '%s\n2\n' "$json" | askuser    # questions, then answers, on stdin`,
		Version:       env.Build.String(),
		Args:          askArgs,
		SilenceErrors: true,
		SilenceUsage:  true,
		// Two edits apart, as git does: "shcema" finds "schema".
		SuggestionsMinimumDistance: 2,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := askOptions{args: args, file: file}
			var err error
			if opts.Key, err = parseKey(key); err != nil {
				return err
			}
			if opts.Arrays, err = settingArrays.get(cmd, env).boolean(); err != nil {
				return err
			}
			if opts.Options, err = flags.resolve(cmd, env); err != nil {
				return err
			}
			opts.Options.Review = !noReview
			if opts.Schema, opts.Presets, err = schemaAndPresets(env); err != nil {
				return err
			}
			return runF(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&file, "file", "f", "", "read the questions from `FILE` (\"-\" for stdin)")
	f.StringVar(&key, "key", "header", "key the answers by `KEY`: header, or question for the question text")
	f.BoolVar(&noReview, "no-review", false, "in the terminal UI, submit after the last question without a review")
	settingArrays.register(cmd, askingCommands)
	flags.register(cmd)
	_ = cmd.RegisterFlagCompletionFunc("key", fixedCompletions("header", "question"))
	return cmd
}

// isWord reports whether an argument looks like a mistyped subcommand
// rather than JSON: ^[a-z][a-z-]*$. (A regexp compiled at start-up would
// cost every run.)
func isWord(s string) bool {
	return s != "" && s[0] != '-' && strings.Trim(s, "abcdefghijklmnopqrstuvwxyz-") == ""
}

// askArgs accepts at most one argument, the questions, and catches a
// mistyped subcommand before it is read as JSON: a lone word, or a first
// word that is a near miss of a command whatever follows it (askuser
// chose a b meant choose, not questions in three pieces).
func askArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 || !isWord(args[0]) {
		return docArg(cmd, args)
	}
	switch s := cmd.SuggestionsFor(args[0]); {
	case len(s) > 0:
		return ask.UsageErrorf("unknown command %q for askuser; did you mean %q?", args[0], s[0])
	case len(args) > 1:
		return docArg(cmd, args)
	}
	return ask.UsageErrorf("unknown command %q for askuser", args[0])
}

// docArg accepts at most one argument, the questions.
var docArg = atMostOne("too many arguments: give the questions as one argument (got %d); quote the JSON")

// askRun reads the questions, asks those that are not answered in advance,
// and prints every answer.
func askRun(ctx context.Context, env *Env, opts askOptions) error {
	opts.Streams = &env.Streams
	src, err := ask.ReadSource(env.IO, opts.args, opts.file, true)
	if err != nil {
		return err
	}
	opts.Doc, opts.Rest = src.Data, src.Rest
	c, err := ask.Run(ctx, opts.Request)
	if err != nil {
		return err
	}
	return c.Write(env.IO.Out)
}
