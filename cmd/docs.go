package cmd

import (
	_ "embed"
	"sync"
	"text/template"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/schema"
)

// docs/agents.md and docs/commands/*.md are made from the commands:
//go:generate go run ../scripts/gendocs -schema ../schema.json -out ../docs

// docsText is the guide for agents, with the limits left as fields so that
// it always states the limits in effect.
//
//go:embed docs.tmpl
var docsText string

// docsTemplate is parsed when first used, not at start-up: parsing it costs
// more than the rest of package initialisation, and only "askuser docs"
// needs it.
var docsTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("docs").Parse(docsText))
})

func newDocsCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "docs",
		Short: "Print the usage guide for agents, for a system prompt",
		Long: `Print the guide that tells an agent how and when to use askuser: usage, the
input format with its limits (as set by any limit variables), the output,
every exit code, and examples. Paste it into a system prompt or a tool
description.`,
		Example: "  askuser docs\n  askuser docs >> AGENTS.md",
		Args:    noArgs,
		// The guide for the limits in effect.
		RunE: func(cmd *cobra.Command, _ []string) error {
			sch, err := loadSchema(env)
			if err != nil {
				return err
			}
			return docsTemplate().Execute(cmd.OutOrStdout(), guide{Limits: sch.Limits()})
		},
	}
}

// guide is what the agent guide says, besides the limits in effect: as
// the description of a tool (Tool; MCP for askuser mcp's), which a model
// calls without flags, it states the output that the tool gives, keyed by
// question text (KeyQuestion) or with arrays (Arrays), and nothing the
// model cannot use.
type guide struct {
	schema.Limits
	Tool, MCP, KeyQuestion, Arrays bool
}
