package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/mcpserver"
	"github.com/askuser/askuser/schema"
)

// toolFormats are the tool-definition shapes "askuser tool" prints.
var toolFormats = []string{"anthropic", "openai", "openai-responses", "mcp"}

// maxOpenAIDescription is the longest description OpenAI's APIs (and
// Azure's) accept for a function, in characters: a longer one is refused
// with string_above_max_length.
const maxOpenAIDescription = 1024

// toolTitle is the tool's name for people.
const toolTitle = "Ask the user"

// toolName is what the name of a tool may be in all three formats. It is
// compiled on first use: every run would pay for compiling it at
// start-up, and only "askuser tool" and "askuser mcp" need it.
var toolName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
})

func newToolCmd(env *Env) *cobra.Command {
	var format, name string
	cmd := &cobra.Command{
		Use:   "tool --format anthropic|openai|openai-responses|mcp",
		Short: "Print a tool definition for an agent framework",
		Long: `Print a ready-to-register tool definition: its name, a description (the
same guide as "askuser docs", without the command line) and the input schema
in effect (with any limit variables applied). Its "not blank" pattern for
texts is the plain ASCII \S, which clients keep intact; askuser checks each
call with the full pattern of "askuser schema".

  anthropic         the Messages API "tools" entry: name, description,
                    input_schema
  openai            the Chat Completions "tools" entry: type "function" with
                    name, description, parameters
  openai-responses  the Responses API "tools" entry, flat: type "function",
                    name, description, parameters, and strict: false (the
                    API takes a tool without it as strict, which this schema
                    is not written for)
  mcp               a Model Context Protocol tool: name, title,
                    description, inputSchema, and annotations that say
                    it only reads (readOnlyHint) and reaches no one but
                    the person (openWorldHint: false)

OpenAI refuses a function description over 1,024 characters, so both OpenAI
formats carry a short form of the guide; the schema's own descriptions say
the rest.

When the model calls the tool, run askuser with the call's input as the
argument and return its stdout (or, on failure, its stderr) as the result.`,
		Example: `  askuser tool --format anthropic > askuser-tool.json
  askuser tool --format openai --name ask_user
  askuser tool --format openai-responses
  ASKUSER_MAX_OPTIONS=6 askuser tool --format mcp`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return toolRun(env, cmd.OutOrStdout(), toolOptions{format: format, name: name})
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "the definition's shape, `FORMAT`: anthropic, openai, openai-responses or mcp (required)")
	cmd.Flags().StringVar(&name, "name", "askuser", "the tool's `NAME`")
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletions(toolFormats...))
	return cmd
}

// toolOptions are what askuser tool needs, resolved from its flags.
type toolOptions struct {
	format string // one of toolFormats
	name   string // checked against toolName
}

// toolRun writes the definition of the tool, for the schema in effect, on
// w.
func toolRun(env *Env, w io.Writer, opts toolOptions) error {
	if !toolName().MatchString(opts.name) {
		return ask.UsageErrorf("invalid --name %q: use 1-64 letters, digits, _ or -", opts.name)
	}
	sch, err := loadSchema(env)
	if err != nil {
		return err
	}
	switch {
	case opts.format == "":
		return ask.UsageErrorf("tool needs --format: %s", strings.Join(toolFormats, ", "))
	case !slices.Contains(toolFormats, opts.format):
		return ask.UsageErrorf("invalid --format %q: must be %s", opts.format, strings.Join(toolFormats, ", "))
	}
	desc, input, err := toolText(opts.format, sch, guide{})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(toolShape(opts.format, opts.name, desc, input)); err != nil {
		return fmt.Errorf("write tool definition: %w", err)
	}
	return nil
}

// toolText returns the tool's description in format (the guide, short for
// OpenAI's), and its input schema, as tool definitions carry it (see
// Advertised); the calls are checked against the full schema.
func toolText(format string, sch *schema.Schema, g guide) (string, json.RawMessage, error) {
	input, err := sch.Advertised()
	if err != nil {
		return "", nil, err
	}
	block := "tool"
	if strings.HasPrefix(format, "openai") {
		block = "tool-short"
	}
	var b strings.Builder
	g.Limits, g.Tool, g.MCP = sch.Limits(), true, format == "mcp"
	if err := docsTemplate().ExecuteTemplate(&b, block, g); err != nil {
		return "", nil, err
	}
	desc := strings.TrimSpace(b.String())
	if block == "tool-short" && utf8.RuneCountInString(desc) > maxOpenAIDescription {
		// The limits are in the text: only absurd ones make it this long.
		return "", nil, fmt.Errorf("the tool's description is %d characters, over OpenAI's %d: lower the limit variables", utf8.RuneCountInString(desc), maxOpenAIDescription)
	}
	return desc, input, nil
}

// mcpTool returns the tool that askuser mcp offers for the calls of r, as
// "askuser tool --format mcp" prints it, from the same parts, so that the
// two never differ but for the output that askuser mcp's --key and
// --arrays give.
func mcpTool(name string, r ask.Request) (*mcp.Tool, error) {
	desc, input, err := toolText("mcp", r.Schema, guide{KeyQuestion: r.Key == schema.KeyQuestion, Arrays: r.Arrays})
	if err != nil {
		return nil, err
	}
	return &mcp.Tool{Name: name, Title: toolTitle, Description: desc, InputSchema: input, Annotations: mcpserver.Annotations(toolTitle)}, nil
}

// toolShape returns the definition in format, one of toolFormats, with its
// members in the order the format's documentation gives them.
func toolShape(format, name, desc string, input json.RawMessage) definition {
	switch format {
	case "anthropic":
		return definition{Name: name, Description: desc, InputSchema: input}
	case "openai":
		return definition{Type: "function", Function: &definition{Name: name, Description: desc, Parameters: input}}
	case "openai-responses":
		// Strict is stated, false: the Responses API takes a tool without
		// it as strict, which asks for a schema written for it (every
		// property required, no pattern); this one is not.
		return definition{Type: "function", Name: name, Description: desc, Parameters: input, Strict: new(false)}
	}
	return definition{Name: name, Title: toolTitle, Description: desc, MCPInputSchema: input, Annotations: mcpserver.Annotations(toolTitle)}
}

// definition is a tool definition in any of toolFormats, its members in an
// order that is each format's own: a format fills those it has, and the
// others are left out.
type definition struct {
	Type     string      `json:"type,omitempty"`
	Function *definition `json:"function,omitempty"` // OpenAI's Chat Completions
	Name     string      `json:"name,omitempty"`
	Title    string      `json:"title,omitempty"`
	// Description is never empty: the guide.
	Description    string               `json:"description,omitempty"`
	InputSchema    json.RawMessage      `json:"input_schema,omitempty"` // Anthropic's
	Parameters     json.RawMessage      `json:"parameters,omitempty"`   // OpenAI's
	MCPInputSchema json.RawMessage      `json:"inputSchema,omitempty"`
	Strict         *bool                `json:"strict,omitempty"`
	Annotations    *mcp.ToolAnnotations `json:"annotations,omitempty"`
}
