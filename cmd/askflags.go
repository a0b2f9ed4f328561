package cmd

import (
	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/prompt/web/localhttp"
)

// askFlags are the flags of every command that asks, as cobra sets them:
// how, where, for how long, and how to get the person's attention. --ui,
// --timeout and --from are read with their environment variables (see
// flagSetting).
type askFlags struct {
	tty, bell bool
	// listen and open serve --ui web.
	listen string
	open   bool
}

func (f *askFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.String("ui", "", "how to ask, `MODE`: auto, tui (terminal UI), line (numbered prompts), web (a local web page) or inbox (askuser inbox) (default $ASKUSER_UI, else auto)")
	fs.BoolVar(&f.tty, "tty", false, "ask on the controlling terminal even when stdin is a pipe")
	fs.Duration("timeout", 0, "give up after `DURATION` (e.g. 5m) without an answer: exit 124 (default $ASKUSER_TIMEOUT, else none)")
	fs.BoolVar(&f.bell, "bell", false, "ring the terminal bell when the first question appears")
	fs.StringVar(&f.listen, "listen", "", "with --ui web, serve the page on `ADDR` (HOST:PORT; default 127.0.0.1 on a random port)")
	fs.BoolVar(&f.open, "open", false, "with --ui web, open the page in the default browser ($BROWSER, else the system's)")
	fs.String("from", "", "in the inbox, say the questions come from `NAME` (default $ASKUSER_FROM, else the working directory)")
	_ = cmd.RegisterFlagCompletionFunc("ui", fixedCompletions(uiNames(commandLineUIs)...))
	_ = cmd.RegisterFlagCompletionFunc("listen", fixedCompletions("127.0.0.1:0", "localhost:8080"))
}

// resolve reads --ui and checks the flags that go with it, then where the
// inbox is, and the timeout, into the engine's options.
func (f *askFlags) resolve(cmd *cobra.Command, env *Env) (ask.Options, error) {
	ui := flagSetting(cmd, env, "ui")
	mode, err := ui.ui(commandLineUIs, "")
	if err != nil {
		return ask.Options{}, err
	}
	o := ask.Options{
		Mode: mode, ModeFrom: ui.named(), TTY: f.tty, Bell: f.bell,
		Color: colorEnabled(env),
		Web:   ask.WebOptions{Open: f.open, Browser: browser(env)},
	}
	if o.Notify, _, err = notifyCommands(env); err != nil {
		return ask.Options{}, err
	}
	if o.Web.Listen, err = checkWebFlags(mode, f, cmd.Flags().Changed("listen")); err != nil {
		return ask.Options{}, err
	}
	if o.Plain, err = accessible(env); err != nil {
		return ask.Options{}, err
	}
	if mode == ask.UIInbox && f.tty {
		return ask.Options{}, ask.UsageErrorf("--tty does not go with --ui inbox: the questions are answered in the inbox, not on this terminal")
	}
	if o.Inbox, err = inboxOptions(cmd, env, mode); err != nil {
		return ask.Options{}, err
	}
	if o.Timeout, err = flagSetting(cmd, env, "timeout").duration(); err != nil {
		return ask.Options{}, err
	}
	return o, nil
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
