package cmd

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/chat"
	"github.com/askuser/askuser/internal/inbox/natsinbox"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web/localhttp"
	"github.com/askuser/askuser/schema"
)

// This file reads the flags and the environment into options, in the
// order that askuser reads them: --key, --arrays, then the flags of every
// command that asks (askFlags.resolve), then the answers known in advance
// and the schema with its limits. It is the only file that reads the
// environment, and reads only the variables of the table (settings.go).

// processEnv returns the process's environment, which Main gives the
// commands, to be read through the table only.
func processEnv(name string) string { return os.Getenv(name) }

// parseKey checks the value of --key: a usage error unless it is header
// or question.
func parseKey(s string) (schema.KeyBy, error) {
	if k := schema.KeyBy(s); k == schema.KeyHeader || k == schema.KeyQuestion {
		return k, nil
	}
	return "", ask.UsageErrorf("invalid --key %q: must be header or question", s)
}

// get returns the value of the setting v in cmd, which registered it.
func (v setting) get(cmd *cobra.Command, env *Env) given {
	f := cmd.Flags().Lookup(v.flag)
	if !f.Changed {
		if g := envSetting(env, v.variable); g.set {
			return g
		}
	}
	return given{value: f.Value.String(), from: "--" + v.flag, set: f.Changed}
}

// envSetting returns the value that v gives, unset when v is empty.
func envSetting(env *Env, v *variable) given {
	value := env.get(v)
	return given{value: value, from: v.name, env: true, set: value != ""}
}

// get returns v's value in env's environment, trimmed of white space: "" when
// it is unset.
func (env *Env) get(v *variable) string {
	return strings.TrimSpace(env.Getenv(v.name))
}

// getAlias returns the value of v's older name: "" for a variable without
// one, as no variable is named "".
func (env *Env) getAlias(v *variable) string {
	return strings.TrimSpace(env.Getenv(v.alias))
}

// given is the value of a setting: as given on the command line, else as
// its variable gives it, else the flag's default.
type given struct {
	value string
	from  string // where the value came from, for errors: "--ui", "ASKUSER_UI"
	env   bool   // from the variable
	set   bool   // given, on the command line or in the environment
}

// boolean reads the value of a switch: what strconv.ParseBool accepts, and
// yes/no and on/off, in any case; empty is false. Anything else is a usage
// error that names where the value came from, so that a value meant as "on"
// is never taken as "off" in silence.
func (g given) boolean() (bool, error) {
	v := strings.TrimSpace(g.value)
	switch strings.ToLower(v) {
	case "1", "t", "true", "yes", "on":
		return true, nil
	case "", "0", "f", "false", "no", "off":
		return false, nil
	}
	return false, g.errorf("invalid %s %q: must be true or false (also 1/0, yes/no, on/off)", g.from, v)
}

// errorf returns a usage error about g's value, which points at the help of
// the variables when the value came from one.
func (g given) errorf(format string, a ...any) error {
	if g.env {
		return envErrorf(format, a...)
	}
	return ask.UsageErrorf(format, a...)
}

// envErrorf returns a usage error about a variable's value, which points at
// the help of the variables rather than the command's.
func envErrorf(format string, a ...any) error {
	return &ask.UsageError{Msg: fmt.Sprintf(format, a...), See: "askuser help environment"}
}

// askFlags are the flags of every command that asks, as cobra sets them:
// how, where, for how long, and how to get the person's attention. The
// settings among them (--ui, --timeout, --from) are read with their
// variables (see variable.get).
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
		Web:   ask.WebOptions{Open: f.open, Browser: env.get(varBrowser)},
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
	o.Timeout, err = settingTimeout.get(cmd, env).duration()
	return o, err
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
		return "", g.errorf("invalid %s %q%s: must be %s", g.from, g.value, suffix, orList(valid))
	}
	if !slices.Contains(offered, u) {
		return ask.UIAuto, nil
	}
	return u, nil
}

// orList lists uis as a sentence does: "auto, tui or line".
func orList(uis []ask.UI) string {
	names := uiNames(uis)
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// named says where the value came from, with the value, for errors:
// "--ui tui", "ASKUSER_UI=tui".
func (g given) named() string {
	if g.env {
		return g.from + "=" + g.value
	}
	return g.from + " " + g.value
}

// colorEnabled says whether to use colour on the terminal that the screen
// is drawn on: NO_COLOR (any value) turns colour off, CLICOLOR_FORCE
// (other than 0) turns it on whatever TERM says, CLICOLOR=0 turns it off,
// and otherwise a terminal other than TERM=dumb gets colour.
func colorEnabled(env *Env) bool {
	force := env.get(varCliColorForce)
	switch {
	case env.get(varNoColor) != "":
		return false
	case force != "" && force != "0":
		return true
	case env.get(varCliColor) == "0":
		return false
	}
	return env.get(varTerm) != "dumb"
}

// notifyCommands returns the commands run when questions appear, and, in the
// inbox, when they end, each with whether the notifications keep the
// questions' text to themselves (ASKUSER_NOTIFY_PRIVATE).
func notifyCommands(env *Env) (asked, ended notify.Command, _ error) {
	private, err := envSetting(env, varNotifyPrivate).boolean()
	if err != nil {
		return notify.Command{}, notify.Command{}, err
	}
	return notify.Command{Name: varNotify.name, Line: env.get(varNotify), Private: private},
		notify.Command{Name: varNotifyEnd.name, Line: env.get(varNotifyEnd), Private: private}, nil
}

// replyURL reads ASKUSER_NOTIFY_REPLY_URL, the push service's reply topic:
// an http or https address, not quoted in its error, as it holds the
// topic's name, which is its password.
func replyURL(env *Env) (string, error) {
	s := envSetting(env, varNotifyReply)
	if !s.set {
		return "", nil
	}
	if u, err := url.Parse(s.value); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", envErrorf("invalid %s: must be the address of a topic, such as https://ntfy.sh/TOPIC", s.from)
	}
	return s.value, nil
}

// chatSettings returns the inbox's chat (ASKUSER_CHAT and the variables of
// its service), nil for none.
func chatSettings(env *Env) (*chat.Settings, error) {
	name := strings.ToLower(env.get(varChat))
	bad := func(v *variable, why string) error {
		return envErrorf("%s for ASKUSER_CHAT=%s: %s", v.name, name, why)
	}
	list := func(v *variable) []string {
		return slices.DeleteFunc(strings.Split(strings.ReplaceAll(env.get(v), " ", ""), ","), func(s string) bool { return s == "" })
	}
	s := &chat.Settings{Service: name}
	switch name {
	case "":
		return nil, nil
	case "telegram":
		chatID, err := strconv.ParseInt(env.get(varTelegramChat), 10, 64)
		switch {
		case env.get(varTelegramToken) == "":
			return nil, bad(varTelegramToken, "not set; create a bot with @BotFather and give its token")
		case err != nil:
			return nil, bad(varTelegramChat, "must be the chat's ID, a number")
		}
		s.Telegram = chat.TelegramOptions{Token: env.get(varTelegramToken), Chat: chatID, Server: env.get(varTelegramAPI)}
		s.People = list(varTelegramPeople)
	case "matrix":
		s.Matrix = chat.MatrixOptions{Homeserver: env.get(varMatrixServer), User: env.get(varMatrixUser),
			Password: env.get(varMatrixPassword), Token: env.get(varMatrixToken), Room: env.get(varMatrixRoom)}
		s.People = list(varMatrixPeople)
		for _, v := range []*variable{varMatrixServer, varMatrixUser, varMatrixRoom, varMatrixPeople} {
			if env.get(v) == "" {
				return nil, bad(v, "not set")
			}
		}
		if s.Matrix.Password == "" && s.Matrix.Token == "" {
			return nil, bad(varMatrixPassword, "not set, nor ASKUSER_MATRIX_TOKEN")
		}
	default:
		return nil, envErrorf("invalid %s %q: must be one of %s", varChat.name, name, strings.Join(chat.Services, ", "))
	}
	return s, nil
}

// checkWebFlags refuses the web page's flags without --ui web, and --tty
// with it, before anything is read. With --ui web, it returns where to
// serve the page.
func checkWebFlags(mode ask.UI, f *askFlags, listenSet bool) (localhttp.Addr, error) {
	switch {
	case mode != ask.UIWeb && listenSet:
		return localhttp.Addr{}, ask.UsageErrorf("--listen serves the web page: add --ui web, or drop --listen")
	case mode != ask.UIWeb && f.open:
		return localhttp.Addr{}, ask.UsageErrorf("--open opens the web page: add --ui web, or drop --open")
	case mode != ask.UIWeb:
		return localhttp.Addr{}, nil
	case f.tty:
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
func accessible(env *Env) (bool, error) {
	on, err := envSetting(env, varAccessible).boolean()
	return on || env.get(varTerm) == "dumb", err
}

// inboxOptions are, for a command of cmd's that asks in mode, and may ask
// in the inbox in it (auto, inbox), where the inbox is (ASKUSER_INBOX),
// with the limits the questions were validated with, and the name of the
// asker there (--from, ASKUSER_FROM). A bad ASKUSER_INBOX is reported
// before anything is read.
func inboxOptions(cmd *cobra.Command, env *Env, mode ask.UI) (ask.InboxOptions, error) {
	if mode != ask.UIAuto && mode != ask.UIInbox {
		return ask.InboxOptions{}, nil
	}
	a, err := inboxAddr(env)
	if err != nil {
		return ask.InboxOptions{}, err
	}
	// A longer --from or ASKUSER_FROM is cut to inbox.MaxFrom characters,
	// its end marked with "…": the inbox refuses a longer one, and a name
	// too long is no reason to leave questions unasked.
	o := ask.InboxOptions{Addr: a, From: prompt.Cut(strings.TrimSpace(settingFrom.get(cmd, env).value), inbox.MaxFrom)}
	// A bad limit variable is reported where the schema is compiled
	// (loadSchema); here it only leaves the limits out.
	if l, err := env.limits(); err == nil && l != (schema.Limits{}) {
		o.Limits = &l
	}
	return o, nil
}

// inboxAddr returns where the inbox is: ASKUSER_INBOX, else the default of
// the runtime directories. A value that is not an address is a usage
// error, except for an inbox on NATS, whose every failure makes it
// unavailable.
func inboxAddr(env *Env) (inbox.Addr, error) {
	a, err := inbox.Where{Inbox: env.get(varInbox), RuntimeDir: env.get(varRuntimeDir), TempDir: env.get(varTempDir), Remote: natsinbox.Remote()}.Addr()
	switch _, nats := errors.AsType[*inbox.ServerError](err); {
	case nats:
		return nil, &prompt.UnavailableError{Err: err}
	case err != nil:
		return nil, envErrorf("%s", err)
	}
	return a, nil
}

// limits returns the limits the limit variables set, 0 for each left as the
// schema has it: the schema is compiled with them, and the inbox told of
// them. A limit set under both its names must have the same number under
// both: when they differ, one of two settings the person made would be
// ignored without a word, so neither is taken.
func (env *Env) limits() (schema.Limits, error) {
	var ls schema.Limits
	for _, l := range schema.AllLimits {
		v := limitVariables[l]
		n, err := readLimit(l, v.name, env.get(v))
		old, oldErr := readLimit(l, v.alias, env.getAlias(v))
		if err := cmp.Or(err, oldErr); err != nil {
			return schema.Limits{}, err
		}
		if n != 0 && old != 0 && n != old {
			return schema.Limits{}, envErrorf("%s=%s and %s=%s disagree: %s is the older name of %s; unset it or give both the same value",
				v.name, env.get(v), v.alias, env.getAlias(v), v.alias, v.name)
		}
		*ls.Field(l) = max(n, old)
	}
	return ls, nil
}

// readLimit reads the value of the variable name, which sets the limit l:
// 0 when it is empty.
func readLimit(l schema.Limit, name, value string) (int, error) {
	n, err := strconv.Atoi(value)
	switch {
	case value == "":
		return 0, nil
	case err == nil && n >= l.Min():
		return n, nil
	case l.Min() > 1:
		return 0, envErrorf("%s must be an integer of at least %d (got %q)", name, l.Min(), value)
	}
	return 0, envErrorf("%s must be a positive integer (got %q)", name, value)
}

// duration reads the value of a duration that may not be negative: 0
// when it is not given, the default of every duration setting. It words
// the refusal of a flag's value that the flag's parsing finds is no
// duration too (flagError), so that a flag and a variable are told alike.
func (g given) duration() (time.Duration, error) {
	if !g.set {
		return 0, nil
	}
	d, err := time.ParseDuration(g.value)
	switch {
	case err != nil:
		return 0, g.errorf("invalid %s %q: must be a duration such as 30s or 5m", g.from, g.value)
	case d < 0:
		return 0, g.errorf("invalid %s %q: must not be negative", g.from, g.value)
	}
	return d, nil
}

// presetAnswers returns the answers known in advance, for runs without a
// person (ASKUSER_ANSWERS): a JSON object of strings keyed by header or by
// question text, as the input's "answers" are.
func presetAnswers(env *Env) (map[string]string, error) {
	v := env.get(varAnswers)
	if v == "" {
		return nil, nil
	}
	var presets map[string]string
	if err := json.Unmarshal([]byte(v), &presets); err != nil || presets == nil {
		return nil, envErrorf(`invalid %s: must be a JSON object of strings, like {"Database":"SQLite"}`, varAnswers.name)
	}
	return presets, nil
}

// schemaAndPresets returns what the commands that ask check their
// questions against, and the answers known in advance (ASKUSER_ANSWERS).
func schemaAndPresets(env *Env) (*schema.Schema, map[string]string, error) {
	sch, err := loadSchema(env)
	if err != nil {
		return nil, nil, err
	}
	presets, err := presetAnswers(env)
	return sch, presets, err
}

// loadSchema compiles the embedded schema with the limit variables applied.
func loadSchema(env *Env) (*schema.Schema, error) {
	l, err := env.limits()
	if err != nil {
		return nil, err
	}
	return schema.Compile(env.Schema, l)
}
