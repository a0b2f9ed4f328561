package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/prompt"
)

// newEnvironmentTopic returns "askuser help environment", as gh has it: the
// variables of the table (settings.go), written from it.
func newEnvironmentTopic() *cobra.Command {
	return &cobra.Command{
		Use:   "environment",
		Short: "The environment variables that askuser reads",
		Long:  environmentHelp(),
	}
}

// environmentIntro and environmentOutro are the words around the table.
const (
	environmentIntro = `askuser reads these environment variables. A flag given on the command line
wins over the variable that stands in for it. askuser doctor shows which of
them are set.`
	environmentOutro = `A switch (ASKUSER_ARRAYS, ASKUSER_NOTIFY_PRIVATE, ACCESSIBLE) takes 1/0,
true/false, yes/no or on/off, in any case; any other value, as any value a
variable does not take, is a usage error (exit 64) that names the variable.
Beyond these, only Go's own look-ups read the environment: the home
directory (HOME), shown as ~, and the folder of the NATS inbox's identity
($XDG_CONFIG_HOME/askuser, else ~/.config/askuser).`
)

// environmentHelp returns the help of the variables: each with the flag it
// stands in for, what holds while it is unset, and what it does, wrapped
// to the width of the rest of the help.
func environmentHelp() string {
	var b strings.Builder
	b.WriteString(environmentIntro + "\n")
	for _, v := range variables {
		b.WriteString("\n" + v.title())
		if v.flag != "" {
			fmt.Fprintf(&b, " (--%s)", v.flag)
		}
		b.WriteString("\n")
		about := v.does
		if v.def != "" {
			about += " Unset: " + v.def + "."
		}
		for _, line := range prompt.Wrap(about, helpWidth-2) {
			b.WriteString("  " + line + "\n")
		}
	}
	b.WriteString("\n" + environmentOutro)
	return b.String()
}

// EnvironmentTable returns the variables as a Markdown table, for the
// reference page (scripts/gendocs writes it there).
func EnvironmentTable() string {
	var b strings.Builder
	b.WriteString("| variable | flag | unset | does |\n|---|---|---|---|\n")
	for _, v := range variables {
		flag := ""
		if v.flag != "" {
			flag = "`--" + v.flag + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", strings.ReplaceAll(v.title(), ", ", "`, `"), flag, v.def, v.does)
	}
	return b.String() + "\n" + strings.Join(strings.Fields(environmentOutro), " ") + "\n"
}

// title names v, with its older name.
func (v *variable) title() string {
	if v.alias != "" {
		return v.name + ", " + v.alias
	}
	return v.name
}

// helpWidth is the width the help is written to.
const helpWidth = 80
