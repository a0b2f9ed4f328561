package cmd

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// askOptions are the flags of the root command.
type askOptions struct {
	file    string
	key     string
	ui      string
	tty     bool
	timeout time.Duration
	// listen and open serve --ui web; listenSet says --listen was given.
	listen    string
	listenSet bool
	open      bool
}

func newRootCmd(env *Env) *cobra.Command {
	opts := &askOptions{}
	cmd := &cobra.Command{
		Use:   "askuser [flags] ['<json>']",
		Short: "Ask the person at the keyboard multiple-choice questions and print the answers as JSON",
		Long: `askuser asks the person at the keyboard 1-4 multiple-choice questions and prints
the answers as one line of JSON on stdout: {"answers":{"<header>":"<label>",...}}.

The questions come as the single argument, from --file, or on stdin. They are
asked in a terminal UI when there is a terminal, and as numbered line prompts
otherwise. With --ui web they are asked on a one-time local web page instead,
for when no terminal prompt can reach the person. Every question also offers
"Other", for the person's own answer.

Exit codes: 0 answered, 1 unexpected failure, 64 usage error, 65 invalid
questions, 66 no answers (input ended), 124 timed out, 129 hung up,
130 cancelled, 143 terminated.

Run 'askuser docs' for the full guide, written for agents.`,
		Example: `  askuser '{"questions":[{"question":"Which database should we use?","header":"Database",
    "options":[{"label":"PostgreSQL (Recommended)","description":"Relational, rich features"},
               {"label":"SQLite","description":"Embedded, zero configuration"}],
    "multiSelect":false}]}'

  askuser -f questions.json --key question
  printf '%s\n2\n' "$json" | askuser        # questions and then answers on stdin
  askuser --ui web --open -f questions.json  # answer on a page in the browser`,
		Version:       env.Build.String(),
		Args:          rootArgs,
		SilenceErrors: true,
		SilenceUsage:  true,
		// Two edits apart, as git does: "shcema" finds "schema".
		SuggestionsMinimumDistance: 2,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.listenSet = cmd.Flags().Changed("listen")
			return runAsk(cmd.Context(), env, opts, args)
		},
	}
	cmd.SetIn(env.IO.In)
	cmd.SetOut(env.IO.Out)
	cmd.SetErr(env.IO.ErrOut)
	cmd.SetVersionTemplate("{{.Version}}\n")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &usageError{msg: err.Error()}
	})
	cmd.CompletionOptions.DisableDefaultCmd = true

	f := cmd.Flags()
	f.StringVarP(&opts.file, "file", "f", "", "read the questions from `FILE` (\"-\" for stdin)")
	f.StringVar(&opts.key, "key", "header", "key the answers by `header` or question text (question)")
	f.StringVar(&opts.ui, "ui", "auto", "how to ask: `auto`, tui (terminal UI), line (numbered prompts) or web (a local web page)")
	f.BoolVar(&opts.tty, "tty", false, "ask on the controlling terminal even when stdin is a pipe")
	f.DurationVar(&opts.timeout, "timeout", 0, "give up after `DURATION` (e.g. 5m) without an answer: exit 124")
	f.StringVar(&opts.listen, "listen", "", "with --ui web, serve the page on `ADDR` (HOST:PORT; default 127.0.0.1 on a random port)")
	f.BoolVar(&opts.open, "open", false, "with --ui web, open the page in the default browser ($BROWSER, else the system's)")
	cmd.RegisterFlagCompletionFunc("key", fixedCompletions("header", "question"))
	cmd.RegisterFlagCompletionFunc("ui", fixedCompletions("auto", "tui", "line", "web"))
	cmd.RegisterFlagCompletionFunc("listen", fixedCompletions("127.0.0.1:0", "localhost:8080"))

	cmd.AddCommand(
		newSchemaCmd(env),
		newValidateCmd(env),
		newDocsCmd(env),
		newVersionCmd(env),
		newCompletionCmd(),
	)
	return cmd
}

func fixedCompletions(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// word is an argument that looks like a mistyped subcommand rather than
// JSON.
var word = regexp.MustCompile(`^[a-z][a-z-]*$`)

// rootArgs accepts at most one argument, the questions, and catches a
// mistyped subcommand before it is read as JSON.
func rootArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return usageErrorf("too many arguments: give the questions as one argument (got %d); quote the JSON", len(args))
	}
	if len(args) == 1 && word.MatchString(args[0]) {
		msg := fmt.Sprintf("unknown command %q for askuser", args[0])
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += fmt.Sprintf("; did you mean %q?", s[0])
		}
		return usageErrorf("%s", msg)
	}
	return nil
}

// loadSchema compiles the embedded schema with the limit variables applied.
func loadSchema(env *Env) (*schema.Schema, error) {
	o, err := schema.OverridesFromEnv(env.Getenv)
	if err != nil {
		return nil, err
	}
	return schema.Compile(env.Schema, o)
}

// parseInput reads and validates the questions.
func parseInput(env *Env, args []string, file string, key schema.KeyBy) (*schema.Input, *source, error) {
	sch, err := loadSchema(env)
	if err != nil {
		return nil, nil, err
	}
	src, err := readSource(env, args, file)
	if err != nil {
		return nil, nil, err
	}
	in, err := sch.Parse(src.data, key)
	if err != nil {
		return nil, nil, err
	}
	return in, src, nil
}

func runAsk(ctx context.Context, env *Env, opts *askOptions, args []string) error {
	key, err := schemaKey(opts.key)
	if err != nil {
		return err
	}
	mode, err := parseUI(opts.ui)
	if err != nil {
		return err
	}
	if opts.timeout < 0 {
		return usageErrorf("invalid --timeout %s: must not be negative", opts.timeout)
	}
	if err := checkWebFlags(mode, opts); err != nil {
		return err
	}
	in, src, err := parseInput(env, args, opts.file, key)
	if err != nil {
		return err
	}

	answers := make([]prompt.Answer, len(in.Questions))
	var pending []schema.Question
	var pendingAt []int
	for i, q := range in.Questions {
		if v, ok := in.Answers[key.Key(q)]; ok {
			labels, other := q.Resolve(v)
			answers[i] = prompt.Answer{Labels: labels, Other: other}
			continue
		}
		pending = append(pending, q)
		pendingAt = append(pendingAt, i)
	}

	if len(pending) > 0 {
		if opts.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeoutCause(ctx, opts.timeout, &timeoutError{after: opts.timeout})
			defer cancel()
		}
		a, err := newAsker(env, mode, opts, src)
		if err != nil {
			return err
		}
		defer a.close()
		got, err := a.Ask(ctx, pending)
		if err != nil {
			var short *prompt.ShortError
			if errors.As(err, &short) {
				q := pending[short.Answered]
				return &noAnswerError{index: pendingAt[short.Answered] + 1, total: len(in.Questions), key: key.Key(q)}
			}
			return err
		}
		for j, i := range pendingAt {
			answers[i] = got[j]
		}
	}
	return writeAnswers(env.IO.Out, in.Questions, answers, key)
}

// schemaKey reads the --key flag.
func schemaKey(s string) (schema.KeyBy, error) {
	k, err := schema.ParseKeyBy(s)
	if err != nil {
		return "", &usageError{msg: err.Error()}
	}
	return k, nil
}
