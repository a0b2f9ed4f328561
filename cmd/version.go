package cmd

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// String is the version line: "askuser 1.2.0 (commit abc1234, built
// 2026-11-22)". A binary built without ldflags reports what the Go build
// recorded.
func (b Build) String() string {
	v, commit, date := b.Version, b.Commit, b.Date
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && commit == "":
				commit = s.Value
			case s.Key == "vcs.time" && date == "":
				date = s.Value
			}
		}
	}
	if v == "" {
		v = "dev"
	}
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if commit == "" {
		commit = "unknown"
	}
	if date == "" {
		date = "unknown"
	}
	return fmt.Sprintf("askuser %s (commit %s, built %s)", v, commit, date)
}

func newVersionCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version, commit and build date",
		Example: "  askuser version\n  askuser --version",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), env.Build.String())
			return err
		},
	}
}

// noArgs rejects arguments with a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("%q takes no arguments (got %q)", cmd.CommandPath(), args[0])
	}
	return nil
}
