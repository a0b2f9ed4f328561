package cmd

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/inbox/serve"
)

// The flags and the environment become the options of the commands that
// ask, the inbox and the MCP server: a flag given wins over its variable,
// a variable over the default, and a value a command cannot take is a
// usage error that names where it came from. Each command runs a runF of
// the test's, which only writes down the options it was given.
func TestFlagsToOptions(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "inbox.sock")
	for _, tc := range []struct {
		args []string
		vars map[string]string
		want string
	}{
		{[]string{"{}"}, nil,
			"mode=auto (--ui ) timeout=0s tty=false bell=false review=true inbox=SOCK from=\"\" key=header arrays=false"},
		{[]string{"--ui", "line", "--timeout", "5s", "--arrays", "--key", "question", "--no-review", "--bell", "{}"}, nil,
			"mode=line (--ui line) timeout=5s tty=false bell=true review=false inbox= from=\"\" key=question arrays=true"},
		{[]string{"{}"}, map[string]string{"ASKUSER_UI": "inbox", "ASKUSER_TIMEOUT": "1m", "ASKUSER_ARRAYS": "yes", "ASKUSER_FROM": " ci "},
			"mode=inbox (ASKUSER_UI=inbox) timeout=1m0s tty=false bell=false review=true inbox=SOCK from=\"ci\" key=header arrays=true"},
		{[]string{"--ui", "tui", "--timeout", "0", "--arrays=false", "--from", "me", "--tty"}, map[string]string{"ASKUSER_UI": "line", "ASKUSER_TIMEOUT": "5m", "ASKUSER_ARRAYS": "1", "ASKUSER_FROM": "ci"},
			"mode=tui (--ui tui) timeout=0s tty=true bell=false review=true inbox= from=\"\" key=header arrays=false"},
		{[]string{"--ui", "web", "--listen", "127.0.0.1:7000"}, nil,
			"mode=web (--ui web) timeout=0s tty=false bell=false review=true inbox= from=\"\" key=header arrays=false listen={tcp4 127.0.0.1:7000 127.0.0.1}"},
		{[]string{"--ui", "popup"}, nil, `error: invalid --ui "popup": must be auto, tui, line, web or inbox`},
		{nil, map[string]string{"ASKUSER_UI": "elicit"}, `error: invalid ASKUSER_UI "elicit": must be auto, tui, line, web or inbox`},
		{nil, map[string]string{"ASKUSER_TIMEOUT": "soon"}, `error: invalid ASKUSER_TIMEOUT "soon": must be a duration such as 30s or 5m`},
		{[]string{"--timeout", "-1s"}, nil, `error: invalid --timeout "-1s": must not be negative`},
		{nil, map[string]string{"ASKUSER_ARRAYS": "maybe"}, `error: invalid ASKUSER_ARRAYS "maybe": must be true or false (also 1/0, yes/no, on/off)`},
		{[]string{"--listen", ":7000"}, nil, `error: --listen serves the web page: add --ui web, or drop --listen`},
		{[]string{"--ui", "inbox", "--tty"}, nil, `error: --tty does not go with --ui inbox: the questions are answered in the inbox, not on this terminal`},

		{[]string{"confirm", "Deploy?", "--default", "no", "--ui", "line", "--json"}, map[string]string{"ASKUSER_TIMEOUT": "2m"},
			`mode=line (--ui line) timeout=2m0s tty=false bell=false review=false inbox= from="" question="Deploy?" header="Confirm" default="No" options=[Yes No] json=true`},
		{[]string{"input", "Name?", "--placeholder", "Ann", "--default", " Bob "}, map[string]string{"ASKUSER_FROM": "ci"},
			`mode=auto (--ui ) timeout=0s tty=false bell=false review=false inbox=SOCK from="ci" question="Name?" header="Input" default="Bob" options=[] json=false`},
		{[]string{"choose", "--multi", "a", "b", "--header", "Letters"}, map[string]string{"ASKUSER_UI": "web"},
			`mode=web (ASKUSER_UI=web) timeout=0s tty=false bell=false review=false inbox= from="" question="Choose one or more" header="Letters" default="" options=[a b] json=false`},
		{[]string{"choose", "a"}, map[string]string{"ASKUSER_UI": "tv"}, `error: invalid ASKUSER_UI "tv": must be auto, tui, line, web or inbox`},

		{[]string{"inbox", "--web", "--open", "--remind", "10m"}, map[string]string{"ASKUSER_UI": "web", "ASKUSER_HISTORY": "off"},
			"addr=SOCK web=true open=true listen= remind=10m0s terminal=false headless=false history=false"},
		{[]string{"inbox", "--web", "--listen", "0.0.0.0:7777"}, map[string]string{"ASKUSER_REMIND": "1h"},
			"addr=SOCK web=true open=false listen={tcp4 0.0.0.0:7777 0.0.0.0} remind=1h0m0s terminal=false headless=false history=true"},
		{[]string{"inbox", "--web", "--remind", "0"}, map[string]string{"ASKUSER_REMIND": "1h"},
			"addr=SOCK web=true open=false listen= remind=0s terminal=false headless=false history=true"},
		{[]string{"inbox", "--ui", "web"}, nil, `error: invalid --ui "web" for the inbox: must be auto, tui or line`},
		{[]string{"inbox", "--web"}, map[string]string{"ASKUSER_REMIND": "-1m"}, `error: invalid ASKUSER_REMIND "-1m": must not be negative`},
		{[]string{"inbox", "--open"}, nil, `error: --open opens the inbox's web page: add --web, or drop --open`},

		{[]string{"mcp"}, map[string]string{"ASKUSER_UI": "tui", "ASKUSER_FROM": "agent"},
			`mode=auto () timeout=0s tty=false bell=false review=false inbox=SOCK from="agent" name=askuser key=header arrays=false`},
		{[]string{"mcp", "--ui", "elicit", "--name", "ask_user", "--key", "question", "--arrays"}, map[string]string{"ASKUSER_TIMEOUT": "2m", "ASKUSER_UI": "inbox"},
			`mode=elicit () timeout=2m0s tty=false bell=false review=false inbox= from="" name=ask_user key=question arrays=true`},
		{[]string{"mcp", "--from", "docs", "--timeout", "1s"}, map[string]string{"ASKUSER_UI": "inbox", "ASKUSER_ARRAYS": "on"},
			`mode=inbox () timeout=1s tty=false bell=false review=false inbox=SOCK from="docs" name=askuser key=header arrays=true`},
		{[]string{"mcp", "--ui", "line"}, nil, `error: invalid --ui "line": must be auto, elicit, inbox or web`},
		{[]string{"mcp", "--name", "approve"}, nil, `error: invalid --name "approve": the approving tool has that name`},
	} {
		vars := map[string]string{"ASKUSER_INBOX": sock}
		for k, v := range tc.vars {
			vars[k] = v
		}
		env := testEnv(t)
		env.Getenv = varsEnv(vars)
		var got string
		cmd := optionsCmd(env, tc.args, &got)
		if err := cmd.Execute(); err != nil {
			got = "error: " + err.Error()
		}
		if got = strings.ReplaceAll(got, sock, "SOCK"); got != tc.want {
			t.Errorf("%q with %v:\n got %s\nwant %s", tc.args, tc.vars, got, tc.want)
		}
	}
}

// optionsCmd is the command that args name, with its arguments, and a
// runF that writes the options it is given to got.
func optionsCmd(env *Env, args []string, got *string) *cobra.Command {
	session := func(o ask.Options) string {
		s := fmt.Sprintf("mode=%s (%s) timeout=%s tty=%t bell=%t review=%t inbox=%v from=%q",
			o.Mode, o.ModeFrom, o.Timeout, o.TTY, o.Bell, o.Review, o.Inbox.Addr, o.Inbox.From)
		return strings.Replace(s, "inbox=<nil>", "inbox=", 1)
	}
	question := func(_ context.Context, _ *Env, o questionOptions) error {
		q := o.question
		labels := []string{}
		for _, opt := range q.Options {
			labels = append(labels, opt.Label)
		}
		*got = fmt.Sprintf("%s question=%q header=%q default=%q options=%v json=%t", session(o.session), q.Question, q.Header, q.Default, labels, o.json)
		return nil
	}
	var cmd *cobra.Command
	name := ""
	if len(args) > 0 {
		name = args[0]
	}
	switch name {
	case "confirm":
		cmd = newConfirmCmd(env, question)
	case "input":
		cmd = newInputCmd(env, question)
	case "choose":
		cmd = newChooseCmd(env, question)
	case "inbox":
		cmd = newInboxCmd(env, func(_ context.Context, o serve.Options) error {
			listen := ""
			if o.Listen != nil {
				listen = fmt.Sprint(*o.Listen)
			}
			*got = fmt.Sprintf("addr=%v web=%t open=%t listen=%s remind=%s terminal=%t headless=%t history=%t",
				o.Addr, o.Web, o.Open, listen, o.Remind, o.Terminal, o.Headless, o.History != nil)
			return nil
		})
	case "mcp":
		cmd = newMCPCmd(env, func(_ context.Context, _ *Env, o mcpOptions) error {
			*got = fmt.Sprintf("%s name=%s key=%s arrays=%t", session(o.ask), o.name, o.Key, o.Arrays)
			return nil
		})
	default:
		cmd = newAskCmd(env, func(_ context.Context, _ *Env, o askOptions) error {
			*got = fmt.Sprintf("%s key=%s arrays=%t", session(o.Options), o.Key, o.Arrays)
			if o.Options.Mode == ask.UIWeb {
				*got += fmt.Sprintf(" listen=%v", o.Options.Web.Listen)
			}
			return nil
		})
		name = ""
	}
	if name != "" {
		args = args[1:]
	}
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return cmd
}
