package cmd

import (
	"github.com/spf13/cobra"
)

func newCompletionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print a shell completion script",
		Long: `Print the completion script for a shell. Load it in the current shell, or
install it where your shell looks for completions.`,
		Example: `  source <(askuser completion bash)
  askuser completion zsh > "${fpath[1]}/_askuser"
  askuser completion fish > ~/.config/fish/completions/askuser.fish
  askuser completion powershell | Out-String | Invoke-Expression`,
		ValidArgs: []string{"bash", "zsh", "fish", "powershell"},
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("completion needs one shell: bash, zsh, fish or powershell")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			root, out := cmd.Root(), cmd.OutOrStdout()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(out, true)
			case "zsh":
				return root.GenZshCompletion(out)
			case "fish":
				return root.GenFishCompletion(out, true)
			case "powershell":
				return root.GenPowerShellCompletionWithDesc(out)
			}
			return usageErrorf("unknown shell %q: must be bash, zsh, fish or powershell", args[0])
		},
	}
}
