package mcpserver

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/localhttp"
	"github.com/askuser/askuser/prompt"
)

// WebWay asks on the web page of --ui web, on this machine, opened in the
// browser.
func WebWay(env *ask.Env) Way {
	return Way{Name: "web", Open: func(context.Context, *mcp.Implementation) (*Opened, error) {
		addr, err := localhttp.ParseAddr(localhttp.DefaultAddr)
		if err != nil {
			return nil, err
		}
		w, closer, err := ask.OpenWeb(env, addr, true)
		if err != nil {
			return nil, err
		}
		// Opened only to ask on: nothing a failed close could lose.
		return &Opened{Asker: w, Where: "Answer in your browser: " + w.URL(), Close: func() { _ = closer.Close() }}, nil
	}}
}

// InboxWay asks in the inbox (askuser inbox) of o, when one answers at its
// address: its probe says so. The questions come from o.From, else from
// the MCP client and the working directory (see from). log receives
// where they wait.
func InboxWay(o ask.InboxOptions, log io.Writer) Way {
	return Way{
		Name: "inbox",
		Hint: "Ask the person to run 'askuser inbox' in a terminal they keep in view, then ask again.",
		Reaches: func(ctx context.Context) error {
			if _, err := inbox.Dial(o.Addr).Probe(ctx); err != nil {
				if ctx.Err() != nil {
					return context.Cause(ctx)
				}
				return &prompt.UnavailableError{Err: err}
			}
			return nil
		},
		Open: func(ctx context.Context, client *mcp.Implementation) (*Opened, error) {
			c := inbox.Dial(o.Addr)
			cwd, _ := os.Getwd()
			home, _ := os.UserHomeDir()
			from := o.From
			if from == "" {
				from = clientFrom(client, cwd, home)
			}
			a := inbox.NewAsker(inbox.AskerOptions{
				Client: c,
				From:   from,
				Cwd:    cwd,
				PID:    os.Getpid(),
				Limits: o.Limits,
				Out:    log,
			})
			where := fmt.Sprintf("Waiting for an answer in the inbox (askuser inbox) at %s.", c.Addr())
			return &Opened{Asker: a, Where: where, Close: func() {}}, nil
		},
	}
}

// maxFromClient is how long the client's name may be, in characters, in
// where a call's questions come from: it leaves room for the directory
// within ask.MaxFrom.
const maxFromClient = 60

// clientFrom is where a call's questions come from, in the inbox, when --from
// and ASKUSER_FROM are empty: the MCP client as it names itself, and the
// directory it started the server in ("claude-code via MCP in ~/src/api"),
// which tells one project's agent from another's. It is "" (the inbox then
// shows the directory) when the client gave no name.
func clientFrom(client *mcp.Implementation, cwd, home string) string {
	if client == nil {
		return ""
	}
	name := client.Title
	if strings.TrimSpace(name) == "" {
		name = client.Name
	}
	// The inbox shows what it is given, escaped; it refuses only what is
	// not text.
	name = strings.Join(strings.Fields(strings.ToValidUTF8(strings.ReplaceAll(name, "\x00", ""), "")), " ")
	if name == "" {
		return ""
	}
	if r := []rune(name); len(r) > maxFromClient {
		name = string(r[:maxFromClient-1]) + "…"
	}
	from := name + " via MCP"
	home = strings.TrimSuffix(home, "/")
	switch {
	case cwd == "" || cwd == "/" || !utf8.ValidString(cwd):
		return from
	case home != "" && cwd == home:
		cwd = "~"
	case home != "" && strings.HasPrefix(cwd, home+"/"):
		cwd = "~" + strings.TrimPrefix(cwd, home)
	}
	if utf8.RuneCountInString(from)+len(" in ")+utf8.RuneCountInString(cwd) > ask.MaxFrom {
		return from
	}
	return from + " in " + cwd
}
