package cmd

import (
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
)

// askFlags are the flags of every command that asks, as cobra sets them:
// how, where, for how long, and how to get the person's attention. The
// settings among them (--ui, --timeout, --from) are read with their
// variables (see setting.get).
type askFlags struct {
	tty, bell bool
	// listen and open serve --ui web.
	listen string
	open   bool
}

func (f *askFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	settingUI.register(cmd, askingCommands)
	fs.BoolVar(&f.tty, "tty", false, "ask on the controlling terminal even when stdin is a pipe")
	settingTimeout.register(cmd, askingCommands)
	fs.BoolVar(&f.bell, "bell", false, "ring the terminal bell when the first question appears")
	fs.StringVar(&f.listen, "listen", "", "with --ui web, serve the page on `ADDR` (HOST:PORT; default 127.0.0.1 on a random port)")
	fs.BoolVar(&f.open, "open", false, "with --ui web, open the page in the default browser ($BROWSER, else the system's)")
	settingFrom.register(cmd, askingCommands)
	_ = cmd.RegisterFlagCompletionFunc("listen", fixedCompletions("127.0.0.1:0", "localhost:8080"))
}

// register adds s's flag to cmd, a command of the kind c, with the help
// and the completions of that kind (TestSettings finds a flag registered
// without its help).
func (s *setting) register(cmd *cobra.Command, c commandKind) {
	help := s.help[c]
	if s.placeholder != "" {
		help = strings.Replace(help, s.placeholder, "`"+s.placeholder+"`", 1)
	}
	switch zero := s.zero.(type) {
	case string:
		cmd.Flags().String(s.flag, zero, help)
	case bool:
		cmd.Flags().Bool(s.flag, zero, help)
	case time.Duration:
		cmd.Flags().Duration(s.flag, zero, help)
	}
	if uis := s.uis[c]; uis != nil {
		_ = cmd.RegisterFlagCompletionFunc(s.flag, fixedCompletions(uiNames(uis)...))
	}
}

// fixedCompletions completes a flag's value from values, and never from
// the files of the directory.
func fixedCompletions(values ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
}

// uiNames returns the values of --ui that uis are, in their order: for its
// completions, and for its errors.
func uiNames(uis []ask.UI) []string {
	names := make([]string, len(uis))
	for i, u := range uis {
		names[i] = string(u)
	}
	return names
}
