package cmd

import (
	"context"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// commands are every command of the tree and every help topic, root first.
func commands(c *cobra.Command) []*cobra.Command {
	all := []*cobra.Command{c}
	for _, sub := range c.Commands() {
		all = append(all, commands(sub)...)
	}
	return all
}

// Every line of every command's help, its examples too, fits in the width
// of a terminal (helpWidth): the flags are wrapped, and so are the texts.
func TestHelpFitsTheWidth(t *testing.T) {
	for _, c := range commands(NewRootCmd(testEnv(t))) {
		args := append(strings.Fields(c.CommandPath())[1:], "--help")
		if c.IsAdditionalHelpTopicCommand() {
			args = []string{"help", c.Name()}
		}
		code, stdout, stderr := run(t, context.Background(), strings.NewReader(""), nil, args...)
		if code != 0 || !strings.Contains(stdout, "\n") {
			t.Errorf("askuser %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
		for _, line := range strings.Split(stdout, "\n") {
			if n := utf8.RuneCountInString(line); n > helpWidth {
				t.Errorf("askuser %s: a line of %d columns:\n%s", strings.Join(args, " "), n, line)
			}
		}
	}
}

// Every flag that takes a value names it in capitals (--key KEY, --ui
// MODE), rather than showing a value that reads as the default (--key
// header) or its type (--name string).
func TestFlagPlaceholders(t *testing.T) {
	for _, c := range commands(NewRootCmd(testEnv(t))) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			name, _ := pflag.UnquoteUsage(f)
			if f.Value.Type() == "bool" {
				return
			}
			if name == "" || strings.IndexFunc(name, unicode.IsLower) >= 0 {
				t.Errorf("%s --%s shows its value as %q: name it in capitals, in backquotes in its usage", c.CommandPath(), f.Name, name)
			}
		})
	}
}

// A flag mistyped is told the closest the command has, as a JSON field
// mistyped is; one like none is told nothing more.
func TestFlagSuggestion(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--uii", "line"}, "Error: Unknown flag: --uii; did you mean --ui?\nRun 'askuser --help' for usage.\n"},
		{[]string{"confirm", "--defalt", "no", "Go?"}, "Error: Unknown flag: --defalt; did you mean --default?\nRun 'askuser confirm --help' for usage.\n"},
		{[]string{"inbox", "--wbe"}, "Error: Unknown flag: --wbe; did you mean --web?\nRun 'askuser inbox --help' for usage.\n"},
		{[]string{"--colour"}, "Error: Unknown flag: --colour\nRun 'askuser --help' for usage.\n"},
	} {
		code, stdout, stderr := run(t, context.Background(), strings.NewReader(""), nil, tt.args...)
		if code != 64 || stdout != "" || stderr != tt.want {
			t.Errorf("askuser %s: exit %d, stdout %q, stderr %q; want 64 and %q", strings.Join(tt.args, " "), code, stdout, stderr, tt.want)
		}
	}
}
