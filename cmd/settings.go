package cmd

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/localhttp"
)

// askFlags are the flags of every command that asks, as cobra sets them:
// how, where, for how long, and how to get the person's attention. The
// settings among them (--ui, --timeout, --from) are read with their
// variables (see setting.get).
type askFlags struct {
	tty, bell bool
	// listen and open serve --ui web.
	listen string
	open   bool
}

func (f *askFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	settingUI.register(cmd, askingCommands)
	fs.BoolVar(&f.tty, "tty", false, "ask on the controlling terminal even when stdin is a pipe")
	settingTimeout.register(cmd, askingCommands)
	fs.BoolVar(&f.bell, "bell", false, "ring the terminal bell when the first question appears")
	fs.StringVar(&f.listen, "listen", "", "with --ui web, serve the page on `ADDR` (HOST:PORT; default 127.0.0.1 on a random port)")
	fs.BoolVar(&f.open, "open", false, "with --ui web, open the page in the default browser ($BROWSER, else the system's)")
	settingFrom.register(cmd, askingCommands)
	_ = cmd.RegisterFlagCompletionFunc("listen", fixedCompletions("127.0.0.1:0", "localhost:8080"))
}

// register adds s's flag to cmd, a command of the kind c, with the help
// and the completions of that kind.
func (s *setting) register(cmd *cobra.Command, c commandKind) {
	help, ok := s.help[c]
	if !ok {
		panic(fmt.Sprintf("--%s has no help for %s", s.flag, cmd.Name()))
	}
	if s.placeholder != "" {
		help = strings.Replace(help, s.placeholder, "`"+s.placeholder+"`", 1)
	}
	switch zero := s.zero.(type) {
	case string:
		cmd.Flags().String(s.flag, zero, help)
	case bool:
		cmd.Flags().Bool(s.flag, zero, help)
	case time.Duration:
		cmd.Flags().Duration(s.flag, zero, help)
	}
	if uis := s.uis[c]; uis != nil {
		_ = cmd.RegisterFlagCompletionFunc(s.flag, fixedCompletions(uiNames(uis)...))
	}
}

// resolve reads --ui and checks the flags that go with it, then where the
// inbox is, and the timeout, into the engine's options.
func (f *askFlags) resolve(cmd *cobra.Command, env *Env) (ask.Options, error) {
	ui := settingUI.get(cmd, env)
	mode, err := ui.ui(settingUI.uis[askingCommands], "")
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
	if o.Timeout, err = settingTimeout.get(cmd, env).duration(); err != nil {
		return ask.Options{}, err
	}
	return o, nil
}

// given is the value of a setting: as given on the command line, else as
// its variable gives it, else the flag's default.
type given struct {
	value string
	from  string // where the value came from, for errors: "--ui", "ASKUSER_UI"
	env   bool   // from the variable
	set   bool   // given, on the command line or in the environment
}

// get is the value of s in cmd, which registered it.
func (s *setting) get(cmd *cobra.Command, env *Env) given {
	f := cmd.Flags().Lookup(s.flag)
	if !f.Changed {
		if g := envSetting(env, s.variable); g.set {
			return g
		}
	}
	return given{value: f.Value.String(), from: "--" + s.flag, set: f.Changed}
}

// envSetting is the value that v gives, unset when v is empty.
func envSetting(env *Env, v *variable) given {
	value := env.get(v)
	return given{value: value, from: v.name, env: true, set: value != ""}
}

// named says where the value came from, with the value, for errors:
// "--ui tui", "ASKUSER_UI=tui".
func (g given) named() string {
	if g.env {
		return g.from + "=" + g.value
	}
	return g.from + " " + g.value
}

// ui reads the value of --ui of a command that offers the ways offered,
// in the order its help lists them: auto when it is not set. suffix
// follows the value in a refusal (" for the inbox"). ASKUSER_UI takes the
// values that it takes for askuser, for every command, so that one
// setting serves them all; a value that a command does not offer counts
// as auto there (an MCP server has no terminal to ask at, and the inbox is
// where askers ask).
func (g given) ui(offered []ask.UI, suffix string) (ask.UI, error) {
	if !g.set {
		return ask.UIAuto, nil
	}
	valid := offered
	if g.env {
		valid, suffix = settingUI.uis[askingCommands], ""
	}
	u := ask.UI(g.value)
	if !slices.Contains(valid, u) {
		err := ask.UsageErrorf("invalid %s %q%s: must be %s", g.from, g.value, suffix, orList(valid))
		if g.env {
			err = ofVariable(err)
		}
		return "", err
	}
	if !slices.Contains(offered, u) {
		return ask.UIAuto, nil
	}
	return u, nil
}

// uiNames are the values of --ui that uis are, in their order: for its
// completions, and for its errors.
func uiNames(uis []ask.UI) []string {
	names := make([]string, len(uis))
	for i, u := range uis {
		names[i] = string(u)
	}
	return names
}

// orList lists uis as a sentence does: "auto, tui or line".
func orList(uis []ask.UI) string {
	names := uiNames(uis)
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
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

// duration reads the value of a duration that may not be negative.
func (g given) duration() (time.Duration, error) {
	d, err := time.ParseDuration(g.value)
	switch {
	case g.env && (err != nil || d < 0):
		return 0, ofVariable(ask.UsageErrorf("invalid %s %q: must be a duration such as 30s or 5m", g.from, g.value))
	case d < 0:
		return 0, ask.UsageErrorf("invalid %s %s: must not be negative", g.from, g.value)
	}
	return d, err
}

// boolean reads the value of a switch; see parseBool.
func (g given) boolean() (bool, error) {
	on, err := parseBool(g.from, g.value)
	if g.env {
		err = ofVariable(err)
	}
	return on, err
}

// parseBool reads the boolean value v of name (a flag, or an environment
// variable): what strconv.ParseBool accepts, and yes/no and on/off, in any
// case; empty is false. Anything else is a usage error that names name, so
// that a value meant as "on" is never taken as "off" in silence.
func parseBool(name, v string) (bool, error) {
	v = strings.TrimSpace(v)
	switch strings.ToLower(v) {
	case "yes", "on":
		return true, nil
	case "", "no", "off":
		return false, nil
	}
	on, err := strconv.ParseBool(strings.ToLower(v))
	if err != nil {
		return false, ask.UsageErrorf("invalid %s %q: must be true or false (also 1/0, yes/no, on/off)", name, v)
	}
	return on, nil
}

// ofVariable is err, a usage error about a variable's value, pointing at
// the help of the variables rather than the command's.
func ofVariable(err error) error {
	if u, ok := errors.AsType[*ask.UsageError](err); ok {
		u.See = "askuser help environment"
	}
	return err
}
