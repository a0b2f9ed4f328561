package cmd

import (
	"errors"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/localhttp"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/tui"
	"github.com/askuser/askuser/schema"
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
	o := ask.Options{
		Mode: mode, TTY: f.tty, Bell: f.bell,
		Color:         tui.ColorEnabled(env.Getenv, true),
		NotifyCommand: env.Getenv("ASKUSER_NOTIFY_COMMAND"),
		Web:           ask.WebOptions{Open: f.open, Browser: env.Getenv("BROWSER")},
	}
	if o.Web.Listen, err = checkWebFlags(mode, f, cmd.Flags().Changed("listen")); err != nil {
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

func parseUI(s string) (ask.UI, error) {
	switch m := ask.UI(s); m {
	case ask.UIAuto, ask.UITUI, ask.UILine, ask.UIWeb, ask.UIInbox:
		return m, nil
	}
	return "", ask.UsageErrorf("invalid --ui %q: must be auto, tui, line, web or inbox", s)
}

// checkWebFlags refuses the web page's flags without --ui web, and --tty
// with it, before anything is read. With --ui web, it returns where to
// serve the page.
func checkWebFlags(mode ask.UI, f *askFlags, listenSet bool) (localhttp.Addr, error) {
	if mode != ask.UIWeb {
		switch {
		case listenSet:
			return localhttp.Addr{}, ask.UsageErrorf("--listen serves the web page: add --ui web, or drop --listen")
		case f.open:
			return localhttp.Addr{}, ask.UsageErrorf("--open opens the web page: add --ui web, or drop --open")
		}
		return localhttp.Addr{}, nil
	}
	if f.tty {
		return localhttp.Addr{}, ask.UsageErrorf("--tty does not go with --ui web: the page is answered in a browser, not on the terminal")
	}
	listen := localhttp.DefaultAddr
	if listenSet {
		listen = f.listen
	}
	a, err := localhttp.ParseAddr(listen)
	if err != nil {
		return localhttp.Addr{}, ask.UsageErrorf("invalid --listen %q: %s", listen, err)
	}
	return a, nil
}

// accessible reports whether the person asked for plain line prompts, for
// a screen reader (ACCESSIBLE, a boolean) or a terminal without cursor
// control (TERM=dumb).
func accessible(getenv func(string) string) (bool, error) {
	on, _, err := envBool(getenv, "ACCESSIBLE")
	return on || getenv("TERM") == "dumb", err
}

// uiMode reads --ui when it was given, else ASKUSER_UI, else auto.
func (f *askFlags) uiMode(cmd *cobra.Command, env *Env) (ask.UI, error) {
	if cmd.Flags().Changed("ui") {
		return parseUI(f.ui)
	}
	return envUI(env)
}

// envUI reads ASKUSER_UI, the default of --ui for every command: auto when
// it is not set.
func envUI(env *Env) (ask.UI, error) {
	v := strings.TrimSpace(env.Getenv("ASKUSER_UI"))
	if v == "" {
		return ask.UIAuto, nil
	}
	m, err := parseUI(v)
	if err != nil {
		return "", ask.UsageErrorf("invalid ASKUSER_UI %q: must be auto, tui, line, web or inbox", v)
	}
	return m, nil
}

// resolveInbox reads where the inbox is, for --ui inbox and auto, which may
// ask there. A bad ASKUSER_INBOX is a usage error, reported before
// anything is read.
func (f *askFlags) resolveInbox(cmd *cobra.Command, env *Env, mode ask.UI) (ask.InboxOptions, error) {
	if mode == ask.UIInbox && f.tty {
		return ask.InboxOptions{}, ask.UsageErrorf("--tty does not go with --ui inbox: the questions are answered in the inbox, not on this terminal")
	}
	if mode != ask.UIInbox && mode != ask.UIAuto {
		return ask.InboxOptions{}, nil
	}
	a, err := inbox.AddrFromEnv(env.Getenv)
	if err != nil {
		return ask.InboxOptions{}, inboxAddrError(err)
	}
	o := ask.InboxOptions{Addr: a, From: f.from, Limits: limitsFromEnv(env.Getenv)}
	if !cmd.Flags().Changed("from") {
		o.From = env.Getenv("ASKUSER_FROM")
	}
	o.From = ask.CutFrom(o.From)
	return o, nil
}

// inboxAddrError is the error of an ASKUSER_INBOX that is not an address:
// a usage error, except for an inbox on NATS, whose every failure makes it
// unavailable.
func inboxAddrError(err error) error {
	var natsErr *inbox.NATSAddrError
	if errors.As(err, &natsErr) {
		return &prompt.UnavailableError{Err: err}
	}
	return &ask.UsageError{Msg: err.Error()}
}

// limitsFromEnv are the limits the questions were validated with, for the
// inbox to validate them alike; nil for the schema's own. The variables
// have been checked when the schema was compiled.
func limitsFromEnv(getenv func(string) string) *schema.Limits {
	l, err := schema.LimitsFromEnv(getenv)
	if err != nil || l == (schema.Limits{}) {
		return nil
	}
	return &l
}
