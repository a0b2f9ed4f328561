package cmd

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
)

func newCompletionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print a shell completion script",
		Long: `Print the completion script for a shell. Load it in the current shell, or
install it where your shell looks for completions.

bash: the script needs the bash-completion package (apt-get install
bash-completion, or brew install bash-completion@2); install it for good with
askuser completion bash > /etc/bash_completion.d/askuser.
zsh: completion must be turned on (autoload -U compinit; compinit in ~/.zshrc).
fish and PowerShell need nothing more.`,
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

// completionRun prints the completion script of root, the command tree,
// for shell. Cobra writes the scripts from the tree, so the tree is what
// it takes.
func completionRun(root *cobra.Command, w io.Writer, shell string) error {
	switch shell {
	case "bash":
		return root.GenBashCompletionV2(w, true)
	case "zsh":
		return root.GenZshCompletion(w)
	case "fish":
		return root.GenFishCompletion(w, true)
	case "powershell":
		return root.GenPowerShellCompletionWithDesc(w)
	}
	return ask.UsageErrorf("unknown shell %q: must be bash, zsh, fish or powershell", shell)
}
