package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// completionShells are the shells cobra writes completion scripts for.
var completionShells = []string{"bash", "zsh", "fish", "powershell"}

// newCompletionCmd is `kviz completion SHELL`. It replaces cobra's default
// command, which takes the shell as a subcommand and so answers an unknown
// one with its help and exit code 0; here it is a usage error.
func newCompletionCmd() *cobra.Command {
	return &cobra.Command{
		Use:       "completion " + strings.Join(completionShells, "|"),
		Short:     "Print a shell completion script",
		Long:      "Prints the completion script for a shell, e.g. source <(kviz completion bash).",
		ValidArgs: completionShells,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrf("completion needs one shell: %s", strings.Join(completionShells, ", "))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			root, out := cmd.Root(), cmd.OutOrStdout()
			var err error
			switch args[0] {
			case "bash":
				err = root.GenBashCompletionV2(out, true)
			case "zsh":
				err = root.GenZshCompletion(out)
			case "fish":
				err = root.GenFishCompletion(out, true)
			case "powershell":
				err = root.GenPowerShellCompletionWithDesc(out)
			default:
				return usageErrf("completion %q: unknown shell (valid: %s)", args[0], strings.Join(completionShells, ", "))
			}
			if err != nil {
				return failure(err)
			}
			return nil
		},
	}
}
