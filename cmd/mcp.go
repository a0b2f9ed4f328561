package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/mcpserver"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web"
	"github.com/askuser/askuser/schema"
)

// uiElicit asks through the MCP client's own interface; only askuser mcp
// has one.
const uiElicit uiMode = "elicit"

// mcpOptions are what askuser mcp needs, resolved from its flags.
type mcpOptions struct {
	ui      uiMode // auto, elicit or web
	name    string // the tool's name
	key     schema.KeyBy
	arrays  bool // --arrays, as for askuser
	timeout time.Duration
}

func newMCPCmd(env *Env) *cobra.Command {
	var (
		flags   askFlags
		ui, key string
		name    string
		arrays  bool
	)
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve askuser as a tool to MCP clients, on stdin and stdout",
		Long: `Serve askuser as a Model Context Protocol server on stdin and stdout, for an
MCP client (Claude Code, Claude Desktop, VS Code, Cursor, Codex) to start. It
offers one tool, named askuser (--name changes it), with the same description
and input schema that "askuser tool --format mcp" prints. A call is checked
as askuser checks its input, and answered with what askuser prints:
{"answers":{...}}, as structured content and as text. Invalid questions,
cancel, decline and timeout are tool errors that tell the model what
happened.

How the person is reached (--ui):

  auto    through the client's own interface (MCP elicitation) when the
          client offers it, else on a web page opened in the browser (default)
  elicit  only through the client's own interface
  web     only on the web page: its address goes to the browser ($BROWSER,
          else the system's), to stderr, and to the client's log

Nothing but the protocol is written to stdout; notices go to stderr.`,
		Example: `  claude mcp add askuser -- askuser mcp
  askuser mcp --ui web --timeout 10m
  askuser mcp --name ask_user --key question`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts := mcpOptions{name: name}
			var err error
			if opts.ui, err = parseMCPUI(ui); err != nil {
				return err
			}
			if !toolName().MatchString(name) {
				return usageErrorf("invalid --name %q: use 1-64 letters, digits, _ or -", name)
			}
			if opts.key, err = schemaKey(key); err != nil {
				return err
			}
			if opts.arrays, err = arraysOption(arrays, cmd.Flags().Changed("arrays"), env); err != nil {
				return err
			}
			if opts.timeout, err = flags.effectiveTimeout(cmd.Flags().Changed("timeout"), env); err != nil {
				return err
			}
			return mcpRun(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&ui, "ui", "auto", "how to reach the person: `auto`, elicit (the client's own interface) or web (a local web page)")
	f.StringVar(&name, "name", "askuser", "the tool's `name`")
	f.StringVar(&key, "key", "header", "key the answers by `header` or question text (question)")
	f.BoolVar(&arrays, "arrays", false, "write each multi-select answer as a JSON array of its labels, as askuser --arrays does (also $ASKUSER_ARRAYS)")
	f.DurationVar(&flags.timeout, "timeout", 0, "give up on a call after `DURATION` (e.g. 5m) without an answer (default $ASKUSER_TIMEOUT, else none)")
	_ = cmd.RegisterFlagCompletionFunc("ui", fixedCompletions("auto", "elicit", "web"))
	_ = cmd.RegisterFlagCompletionFunc("key", fixedCompletions("header", "question"))
	return cmd
}

func parseMCPUI(s string) (uiMode, error) {
	switch m := uiMode(s); m {
	case uiAuto, uiElicit, uiWeb:
		return m, nil
	}
	return "", usageErrorf("invalid --ui %q: must be auto, elicit or web", s)
}

// mcpRun serves the tool until the client goes or a signal comes.
func mcpRun(ctx context.Context, env *Env, opts mcpOptions) error {
	sch, err := loadSchema(env)
	if err != nil {
		return err
	}
	presets, err := envPresets(env)
	if err != nil {
		return err
	}
	tool, err := mcpTool(opts.name, sch)
	if err != nil {
		return err
	}
	o := mcpserver.Options{
		Implementation: &mcp.Implementation{Name: "askuser", Title: "askuser", Version: strings.Fields(env.Build.String())[1]},
		Tool:           tool,
		Parse: func(args []byte) (*mcpserver.Call, error) {
			in, err := sch.Parse(args, opts.key)
			if err != nil {
				return nil, err
			}
			if err := in.AddPresets("ASKUSER_ANSWERS", presets, opts.key); err != nil {
				return nil, err
			}
			known, pending, err := knownAnswers(in, opts.key)
			if err != nil {
				return nil, err
			}
			return &mcpserver.Call{Input: in, Known: known, Pending: pending}, nil
		},
		Answers: func(c *mcpserver.Call, answers []prompt.Answer) ([]byte, error) {
			var b bytes.Buffer
			withInputNotes(c.Input, opts.key, answers)
			err := writeAnswers(&b, c.Input.Questions, answers, outputOptions{key: opts.key, arrays: opts.arrays})
			return b.Bytes(), err
		},
		ErrorText: func(err error) string {
			msg, _ := classify(err, "askuser mcp")
			return msg
		},
		Timeout: opts.timeout,
		Log:     env.IO.ErrOut,
	}
	// The ways of asking besides the client's own interface, in the order
	// auto tries them.
	switch opts.ui {
	case uiAuto:
		o.Ways = []mcpserver.Way{mcpWebWay(env)}
	case uiElicit:
		o.Elicitation = mcpserver.ElicitOnly
	case uiWeb:
		o.Elicitation = mcpserver.ElicitNever
		o.Ways = []mcpserver.Way{mcpWebWay(env)}
	}

	if env.IO.InTTY {
		_, _ = fmt.Fprintln(env.IO.ErrOut, "askuser mcp is an MCP server: it reads the protocol on stdin, for an MCP client to start it (see askuser mcp --help). Ctrl+D ends it.")
	}
	if env.WatchSignals != nil {
		var stop func()
		ctx, stop = env.WatchSignals(ctx)
		defer stop()
	}
	if err := mcpserver.New(o).Run(ctx, env.IO.In, env.IO.Out); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}

// mcpTool is the tool as "askuser tool --format mcp" prints it, from the
// same function, so that the two never differ.
func mcpTool(name string, sch *schema.Schema) (*mcp.Tool, error) {
	def, err := toolDefinition("mcp", name, sch)
	if err != nil {
		return nil, err
	}
	var t struct {
		Name, Title, Description string
		InputSchema              json.RawMessage
	}
	if err := json.Unmarshal(def, &t); err != nil {
		return nil, fmt.Errorf("read the tool definition: %w", err)
	}
	return &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.InputSchema}, nil
}

// mcpWebWay asks on the web page of --ui web, on this machine, opened in
// the browser.
func mcpWebWay(env *Env) mcpserver.Way {
	return mcpserver.Way{Name: "web", Open: func(context.Context, *mcp.Implementation) (*mcpserver.Opened, error) {
		addr, err := web.ParseAddr(web.DefaultAddr)
		if err != nil {
			return nil, err
		}
		a, err := newWebAsker(env, sessionOptions{mode: uiWeb, listen: addr, open: true})
		if err != nil {
			return nil, err
		}
		where := ""
		if w, ok := a.fullAsker.(*web.Asker); ok {
			where = "Answer in your browser: " + w.URL()
		}
		return &mcpserver.Opened{Asker: a.fullAsker, Where: where, Close: a.close}, nil
	}}
}
