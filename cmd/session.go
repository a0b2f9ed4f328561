package cmd

import (
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
)

// askFlags are the flags of every command that asks, as cobra sets them:
// how, where, for how long, and how to get the person's attention.
type askFlags struct {
	ui      string
	tty     bool
	timeout time.Duration
	bell    bool
	// listen and open serve --ui web.
	listen string
	open   bool
	from   string // names the asker in the inbox
}

func (f *askFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.ui, "ui", "", "how to ask: `auto`, tui (terminal UI), line (numbered prompts), web (a local web page) or inbox (askuser inbox) (default $ASKUSER_UI, else auto)")
	fs.BoolVar(&f.tty, "tty", false, "ask on the controlling terminal even when stdin is a pipe")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up after `DURATION` (e.g. 5m) without an answer: exit 124 (default $ASKUSER_TIMEOUT, else none)")
	fs.BoolVar(&f.bell, "bell", false, "ring the terminal bell when the first question appears")
	fs.StringVar(&f.listen, "listen", "", "with --ui web, serve the page on `ADDR` (HOST:PORT; default 127.0.0.1 on a random port)")
	fs.BoolVar(&f.open, "open", false, "with --ui web, open the page in the default browser ($BROWSER, else the system's)")
	fs.StringVar(&f.from, "from", "", "in the inbox, say the questions come from `NAME` (default $ASKUSER_FROM, else the working directory)")
	_ = cmd.RegisterFlagCompletionFunc("ui", fixedCompletions("auto", "tui", "line", "web", "inbox"))
	_ = cmd.RegisterFlagCompletionFunc("listen", fixedCompletions("127.0.0.1:0", "localhost:8080"))
}

// resolve reads --ui and checks the flags that go with it, then the
// timeout.
func (f *askFlags) resolve(cmd *cobra.Command, env *Env) (ask.Options, error) {
	mode, err := f.uiMode(cmd, env)
	if err != nil {
		return ask.Options{}, err
	}
	o := ask.Options{Mode: mode, TTY: f.tty, Bell: f.bell, Open: f.open}
	if o.Listen, err = checkWebFlags(mode, f, cmd.Flags().Changed("listen")); err != nil {
		return ask.Options{}, err
	}
	if o.Plain, err = accessible(env.Getenv); err != nil {
		return ask.Options{}, err
	}
	if o.Inbox, err = f.resolveInbox(cmd, env, mode); err != nil {
		return ask.Options{}, err
	}
	if o.Timeout, err = timeoutOption(f.timeout, cmd.Flags().Changed("timeout"), env); err != nil {
		return ask.Options{}, err
	}
	return o, nil
}

// timeoutOption is --timeout (flag) when it is given (set), else
// $ASKUSER_TIMEOUT, else none.
func timeoutOption(flag time.Duration, set bool, env *Env) (time.Duration, error) {
	if set {
		if flag < 0 {
			return 0, ask.UsageErrorf("invalid --timeout %s: must not be negative", flag)
		}
		return flag, nil
	}
	v := strings.TrimSpace(env.Getenv("ASKUSER_TIMEOUT"))
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, ask.UsageErrorf("invalid ASKUSER_TIMEOUT %q: must be a duration such as 30s or 5m", v)
	}
	return d, nil
}
