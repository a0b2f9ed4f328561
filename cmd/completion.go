package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
)

func newCompletionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print a shell completion script",
		Long: `Print the completion script for a shell. Load it in the current shell, or
install it where your shell looks for completions.

bash: the script works as it is. With the bash-completion package
(apt-get install bash-completion, or brew install bash-completion@2) it also
completes values after : and =, and installs for good with
askuser completion bash > /etc/bash_completion.d/askuser.
zsh: completion must be turned on (autoload -U compinit; compinit in
~/.zshrc). fish and PowerShell need nothing more.`,
		Example: `  source <(askuser completion bash)
  askuser completion zsh > "${fpath[1]}/_askuser"
  askuser completion fish > ~/.config/fish/completions/askuser.fish
  askuser completion powershell | Out-String | Invoke-Expression`,
		ValidArgs: []string{"bash", "zsh", "fish", "powershell"},
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return ask.UsageErrorf("completion needs one shell: bash, zsh, fish or powershell")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return completionRun(cmd.Root(), cmd.OutOrStdout(), args[0])
		},
	}
}

// withoutBashCompletion returns cobra's bash script, which reads the words to
// complete with _get_comp_words_by_ref of the bash-completion package,
// made to work without it, as git's own completion script does: there,
// the words are taken as bash split them (at : and = too), which
// completes commands, flags and their values. It reports false when the
// script does not have the lines it changes (a test runs it).
func withoutBashCompletion(script, name string) (string, bool) {
	old := fmt.Sprintf("__%s_init_completion()\n{\n    COMPREPLY=()\n    _get_comp_words_by_ref \"$@\" cur prev words cword\n}\n", name)
	repl := fmt.Sprintf(`__%s_init_completion()
{
    COMPREPLY=()
    if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
        _get_comp_words_by_ref "$@" cur prev words cword
        return
    fi
    # Without the bash-completion package: the words as bash split them.
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
}
`, name)
	if !strings.Contains(script, old) {
		return "", false
	}
	return strings.Replace(script, old, repl, 1), true
}

// completionRun prints the completion script of root, the command tree,
// for shell. Cobra writes the scripts from the tree, so the tree is what
// it takes.
func completionRun(root *cobra.Command, w io.Writer, shell string) error {
	switch shell {
	case "bash":
		var b bytes.Buffer
		if err := root.GenBashCompletionV2(&b, true); err != nil {
			return err
		}
		script, ok := withoutBashCompletion(b.String(), root.Name())
		if !ok {
			return errors.New("the bash completion script is not as cobra wrote it before: see withoutBashCompletion")
		}
		_, err := io.WriteString(w, script)
		return err
	case "zsh":
		return root.GenZshCompletion(w)
	case "fish":
		return root.GenFishCompletion(w, true)
	case "powershell":
		return root.GenPowerShellCompletionWithDesc(w)
	}
	return ask.UsageErrorf("unknown shell %q: must be bash, zsh, fish or powershell", shell)
}
