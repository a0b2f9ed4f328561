package cmd

import (
	"cmp"
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/mcpserver"
	"github.com/askuser/askuser/prompt/web/localhttp"
)

// mcpOptions are what askuser mcp needs, resolved from its flags.
type mcpOptions struct {
	name string // the tool's name
	// Request is what every call is checked and answered with, but for
	// its questions: the schema in effect, the answers known in advance,
	// --key and --arrays, as for askuser. Its Options are left empty: each
	// call's route is made from ask.
	ask.Request
	// ask is how each call reaches the person: --ui, --timeout, and where
	// the inbox is, for auto and --ui inbox. The inbox's From is --from,
	// else ASKUSER_FROM; when both are empty, each call names the MCP
	// client that made it.
	ask ask.Options
}

// mcpLong is askuser mcp's help.
const mcpLong = `Serve askuser as a Model Context Protocol server on stdin and stdout, for an
MCP client (Claude Code, Claude Desktop, VS Code, Cursor, Codex) to start. It
offers the tool askuser (--name changes it), with the same description and
input schema that "askuser tool --format mcp" prints. A call is checked as
askuser checks its input, and answered with what askuser prints:
{"answers":{...}}, as structured content and as text. Invalid questions,
cancel, decline and timeout are tool errors that tell the model what
happened.

Its second tool, approve, asks the person whether a tool call may run, for
claude -p --permission-prompt-tool mcp__askuser__approve: the person sees the
tool, the agent and its directory, and what the call will do, and chooses
Allow, Deny, or Allow for this session; their own answer (Other) or a note
on Deny is the reason the model is told. A timeout, a cancel or a decline
denies the call, saying why.

How the person is reached (--ui, default $ASKUSER_UI, else auto):

  auto    through the client's own interface (MCP elicitation) when the
          client offers it, and in the inbox (askuser inbox) too when one
          answers, the first answer winning; else in the inbox when one
          answers, else on a web page that someone can see: opened in the
          browser, or its address on stderr when stderr is a terminal.
          Where none of these reaches anybody, a call fails at once,
          saying how to start askuser inbox. A form the client declines
          or cancels within a second, sooner than a person can read it
          (headless clients do), asked nobody: the next way is tried, and
          stderr and the client's log say why
  elicit  only through the client's own interface
  inbox   only in the inbox; a call fails when none answers
  web     only on the web page: its address goes to the browser ($BROWSER,
          else the system's), to stderr, and to the client's log

ASKUSER_UI is read as by every askuser command; tui and line, which need a
terminal that an MCP server never has, count as auto. In the inbox, each
set of questions says where it came from: --from or ASKUSER_FROM, else the
MCP client's name and the server's working directory ("claude-code via MCP
in ~/src/api"). ASKUSER_INBOX says where the inbox is, as for askuser.

A person may take long to answer. While a call waits, askuser mcp sends the
client progress every 20 s, which keeps the calls of clients that end them
after a while without it (OpenCode, Copilot CLI, Claude Code). A client that
ends a call at a time limit of its own (Gemini CLI's and Qwen Code's timeout)
cancels it as timed out: its questions then keep waiting for the person, and
a call with the same questions, which the tool's description tells the model
to make, gets their answer. Any other cancel withdraws the questions.

Arguments that MCP clients add to every tool's for their own use are taken
and ignored: wait_for_previous (Gemini CLI). The command line refuses them.

Nothing but the protocol is written to stdout; notices go to stderr.`

// newMCPCmd returns askuser mcp, whose flags become the options that runF
// serves (mcpRun, but for tests).
func newMCPCmd(env *Env, runF func(context.Context, *Env, mcpOptions) error) *cobra.Command {
	var name, key string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve askuser as a tool to MCP clients, on stdin and stdout",
		Long:  mcpLong,
		Example: `  claude mcp add askuser -- askuser mcp
  claude -p --permission-prompt-tool mcp__askuser__approve "Fix the tests"
  askuser mcp --ui inbox --from docs-agent
  askuser mcp --ui web --timeout 10m
  askuser mcp --name ask_user --key question`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts, err := mcpResolve(cmd, env, name, key)
			if err != nil {
				return err
			}
			return runF(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	settingUI.register(cmd, mcpCommand)
	f.StringVar(&name, "name", "askuser", "the tool's `NAME`")
	settingFrom.register(cmd, mcpCommand)
	f.StringVar(&key, "key", "header", "key the answers by `KEY`: header, or question for the question text")
	settingArrays.register(cmd, mcpCommand)
	settingTimeout.register(cmd, mcpCommand)
	_ = cmd.RegisterFlagCompletionFunc("key", fixedCompletions("header", "question"))
	return cmd
}

// mcpResolve checks askuser mcp's flags, with the environment where they
// are not given, and the tool's name and key.
func mcpResolve(cmd *cobra.Command, env *Env, name, key string) (mcpOptions, error) {
	opts := mcpOptions{name: name}
	var err error
	if opts.ask.Mode, err = settingUI.get(cmd, env).ui(settingUI.uis[mcpCommand], ""); err != nil {
		return opts, err
	}
	if opts.ask.Inbox, err = inboxOptions(cmd, env, opts.ask.Mode); err != nil {
		return opts, err
	}
	// The page is on this machine, opened in the browser. (The default
	// address always parses.)
	opts.ask.Web = ask.WebOptions{Open: true, Browser: env.get(varBrowser)}
	opts.ask.Web.Listen, _ = localhttp.ParseAddr(localhttp.DefaultAddr)
	if !toolName().MatchString(name) {
		return opts, ask.UsageErrorf("invalid --name %q: use 1-64 letters, digits, _ or -", name)
	}
	if name == mcpserver.ApproveName {
		return opts, ask.UsageErrorf("invalid --name %q: the approving tool has that name", name)
	}
	if opts.Key, err = parseKey(key); err != nil {
		return opts, err
	}
	if opts.Arrays, err = settingArrays.get(cmd, env).boolean(); err != nil {
		return opts, err
	}
	if opts.ask.Timeout, err = settingTimeout.get(cmd, env).duration(); err != nil {
		return opts, err
	}
	opts.Schema, opts.Presets, err = schemaAndPresets(env)
	return opts, err
}

// mcpRun serves the tool until the client goes or a signal comes.
func mcpRun(ctx context.Context, env *Env, opts mcpOptions) error {
	tool, err := mcpTool(opts.name, opts.Request)
	if err != nil {
		return err
	}
	version, _, _ := env.Build.recorded()
	o := mcpserver.Options{
		Implementation: &mcp.Implementation{Name: "askuser", Title: "askuser", Version: version},
		Tool:           tool,
		Request:        opts.Request,
		Route: func(own *ask.Way, from string) *ask.Route {
			o := opts.ask
			o.Inbox.From = cmp.Or(o.Inbox.From, from)
			return ask.NewPlace(&env.Streams, o, nil).Client(o, own)
		},
		Log: env.IO.ErrOut,
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
	// nil unless a signal ended ctx.
	return context.Cause(ctx)
}
