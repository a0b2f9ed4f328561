package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// askOptions are the flags of the root command.
type askOptions struct {
	askFlags
	file string
	key  string
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
otherwise. Every question also offers "Other", for the person's own answer.

Exit codes: 0 answered, 1 unexpected failure, 64 usage error, 65 invalid
questions, 66 no answers (input ended), 124 timed out, 129 hung up,
130 cancelled, 143 terminated.

Run 'askuser docs' for the full guide, written for agents.`,
		Example: `  askuser '{"questions":[{"question":"Which database should we use?","header":"Database",
    "options":[{"label":"PostgreSQL (Recommended)","description":"Relational, rich features"},
               {"label":"SQLite","description":"Embedded, zero configuration"}],
    "multiSelect":false}]}'

  askuser -f questions.json --key question
  printf '%s\n2\n' "$json" | askuser        # questions and then answers on stdin`,
		Version:       env.Build.String(),
		Args:          rootArgs,
		SilenceErrors: true,
		SilenceUsage:  true,
		// Two edits apart, as git does: "shcema" finds "schema".
		SuggestionsMinimumDistance: 2,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAsk(cmd, env, opts, args)
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
	f.BoolVar(&opts.noReview, "no-review", false, "in the terminal UI, submit after the last question without a review")
	opts.askFlags.register(cmd)
	cmd.RegisterFlagCompletionFunc("key", fixedCompletions("header", "question"))

	cmd.AddCommand(
		newSchemaCmd(env),
		newValidateCmd(env),
		newConfirmCmd(env),
		newInputCmd(env),
		newToolCmd(env),
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

// isWord reports whether an argument looks like a mistyped subcommand
// rather than JSON: ^[a-z][a-z-]*$. (A regexp compiled at start-up would
// cost every run.)
func isWord(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && c != '-' {
			return false
		}
	}
	return true
}

// rootArgs accepts at most one argument, the questions, and catches a
// mistyped subcommand before it is read as JSON.
func rootArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return usageErrorf("too many arguments: give the questions as one argument (got %d); quote the JSON", len(args))
	}
	if len(args) == 1 && isWord(args[0]) {
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
	sch, err := schema.Compile(env.Schema, o)
	if err != nil {
		return nil, err
	}
	sch.CheckAnswer = prompt.CheckOther
	return sch, nil
}

// parseInput reads and validates the questions. answersFollow is as for
// readSource.
func parseInput(env *Env, args []string, file string, key schema.KeyBy, answersFollow bool) (*schema.Input, *source, error) {
	sch, err := loadSchema(env)
	if err != nil {
		return nil, nil, err
	}
	src, err := readSource(env, args, file, answersFollow)
	if err != nil {
		return nil, nil, err
	}
	in, err := sch.Parse(src.data, key)
	if err != nil {
		return nil, nil, err
	}
	return in, src, nil
}

func runAsk(cmd *cobra.Command, env *Env, opts *askOptions, args []string) error {
	key, err := schemaKey(opts.key)
	if err != nil {
		return err
	}
	if _, err := opts.checkUI(cmd); err != nil {
		return err
	}
	if _, err := opts.effectiveTimeout(cmd, env); err != nil {
		return err
	}
	presets, err := envPresets(env)
	if err != nil {
		return err
	}
	in, src, err := parseInput(env, args, opts.file, key, true)
	if err != nil {
		return err
	}
	if err := in.AddPresets("ASKUSER_ANSWERS", presets, key); err != nil {
		return err
	}

	answers := make([]prompt.Answer, len(in.Questions))
	var pending []schema.Question
	var pendingAt []int
	for i, q := range in.Questions {
		if v, ok := in.Answers[key.Key(q)]; ok {
			labels, other := q.Resolve(v)
			if other != "" {
				// Parse has checked it; this cleans it.
				if other, err = prompt.CheckOther(other); err != nil {
					return fmt.Errorf("preset answer for %q: %w", key.Key(q), err)
				}
			}
			answers[i] = prompt.Answer{Labels: labels, Other: other}
			continue
		}
		pending = append(pending, q)
		pendingAt = append(pendingAt, i)
	}

	if len(pending) > 0 {
		s, err := opts.start(cmd.Context(), cmd, env, src, pending[0])
		if err != nil {
			return err
		}
		got, err := s.Ask(s.ctx, pending)
		err = s.settle(err)
		if err == nil {
			for j, i := range pendingAt {
				answers[i] = got[j]
			}
			// Before end, which closes the terminal opened for --tty.
			s.summarize(in.Questions, answers)
		}
		s.end(env.IO.ErrOut)
		if err != nil {
			var short *prompt.ShortError
			if errors.As(err, &short) {
				q := pending[short.Answered]
				return &noAnswerError{index: pendingAt[short.Answered] + 1, total: len(in.Questions), key: key.Key(q)}
			}
			return err
		}
	}
	return writeAnswers(env.IO.Out, in.Questions, answers, key)
}

// envPresets reads ASKUSER_ANSWERS, answers known before asking for runs
// without a person: a JSON object of strings keyed like the output.
func envPresets(env *Env) (map[string]string, error) {
	v := env.Getenv("ASKUSER_ANSWERS")
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	var presets map[string]string
	if err := json.Unmarshal([]byte(v), &presets); err != nil || presets == nil {
		return nil, usageErrorf(`invalid ASKUSER_ANSWERS: must be a JSON object of strings, like {"Database":"SQLite"}`)
	}
	return presets, nil
}

// schemaKey reads the --key flag.
func schemaKey(s string) (schema.KeyBy, error) {
	k, err := schema.ParseKeyBy(s)
	if err != nil {
		return "", &usageError{msg: err.Error()}
	}
	return k, nil
}
