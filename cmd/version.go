package cmd

import (
	"cmp"
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// String returns the version line: "askuser 1.2.0 (commit abc1234, built
// 2026-11-22)". A binary built without ldflags reports what the Go build
// recorded.
func (b Build) String() string {
	v, commit, date := b.recorded()
	return fmt.Sprintf("askuser %s (commit %s, built %s)", v, commit, date)
}

// recorded returns the version, the commit (12 digits) and the build date, from
// ldflags, else from what the Go build recorded, else words that say so.
func (b Build) recorded() (version, commit, date string) {
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
	commit = commit[:min(len(commit), 12)]
	return cmp.Or(v, "dev"), cmp.Or(commit, "unknown"), cmp.Or(date, "unknown")
}

func newVersionCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version, commit and build date",
		Example: "  askuser version\n  askuser --version",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), env.Build)
			return err
		},
	}
}
