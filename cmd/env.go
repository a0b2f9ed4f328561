package cmd

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Every environment variable that askuser reads is read in this package,
// and resolved into the options of the engine and of the inbox.

// envFlags names, for each flag that has one, the environment variable
// that gives its value when the flag is not given, for every command that
// has the flag (as gum's env: tags do).
var envFlags = map[string]string{
	"ui":      "ASKUSER_UI",
	"timeout": "ASKUSER_TIMEOUT",
	"arrays":  "ASKUSER_ARRAYS",
	"from":    "ASKUSER_FROM",
}

// setting is the value of a flag: as given on the command line, else as
// its environment variable gives it (see envFlags), else the flag's
// default.
type setting struct {
	value string
	from  string // where the value came from, for errors: "--ui", "ASKUSER_UI"
	env   bool   // from the environment variable
	set   bool   // given, on the command line or in the environment
}

// flagSetting is the setting of cmd's flag name.
func flagSetting(cmd *cobra.Command, env *Env, name string) setting {
	f := cmd.Flags().Lookup(name)
	if !f.Changed && envFlags[name] != "" {
		if v := strings.TrimSpace(env.Getenv(envFlags[name])); v != "" {
			return setting{value: v, from: envFlags[name], env: true, set: true}
		}
	}
	return setting{value: f.Value.String(), from: "--" + name, set: f.Changed}
}

// named says where the setting's value came from, with the value, for
// errors: "--ui tui", "ASKUSER_UI=tui".
func (s setting) named() string {
	if s.env {
		return s.from + "=" + s.value
	}
	return s.from + " " + s.value
}

// duration reads a setting of a duration that may not be negative.
func (s setting) duration() (time.Duration, error) {
	d, err := time.ParseDuration(s.value)
	switch {
	case s.env && (err != nil || d < 0):
		return 0, ask.UsageErrorf("invalid %s %q: must be a duration such as 30s or 5m", s.from, s.value)
	case d < 0:
		return 0, ask.UsageErrorf("invalid %s %s: must not be negative", s.from, s.value)
	}
	return d, err
}

// boolean reads a boolean setting; see parseBool.
func (s setting) boolean() (bool, error) {
	return parseBool(s.from, s.value)
}

// commandLineUIs are the values of --ui of askuser, confirm and input, in
// the order their help lists them; ASKUSER_UI takes these for every
// command.
var commandLineUIs = []ask.UI{ask.UIAuto, ask.UITUI, ask.UILine, ask.UIWeb, ask.UIInbox}

// ui reads the setting of --ui of a command that offers the ways offered,
// in the order its help lists them: auto when it is not set. suffix
// follows the value in a refusal (" for the inbox"). ASKUSER_UI takes the
// values that it takes for askuser, for every command, so that one
// setting serves them all; a value that a command does not offer counts
// as auto there (an MCP server has no terminal to ask at, and the inbox is
// where askers ask).
func (s setting) ui(offered []ask.UI, suffix string) (ask.UI, error) {
	if !s.set {
		return ask.UIAuto, nil
	}
	valid := offered
	if s.env {
		valid, suffix = commandLineUIs, ""
	}
	u := ask.UI(s.value)
	if !slices.Contains(valid, u) {
		return "", ask.UsageErrorf("invalid %s %q%s: must be %s", s.from, s.value, suffix, orList(valid))
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

// accessible reports whether the person asked for plain line prompts, for
// a screen reader (ACCESSIBLE, a boolean) or a terminal without cursor
// control (TERM=dumb).
func accessible(getenv func(string) string) (bool, error) {
	on, err := parseBool("ACCESSIBLE", getenv("ACCESSIBLE"))
	return on || getenv("TERM") == "dumb", err
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
	a, err := inbox.AddrFromEnv(env.Getenv)
	if err != nil {
		return ask.InboxOptions{}, inboxAddrError(err)
	}
	o := ask.InboxOptions{Addr: a, From: ask.CutFrom(flagSetting(cmd, env, "from").value)}
	// A bad limit variable is reported where the schema is compiled
	// (loadSchema); here it only leaves the limits out.
	if l, err := schema.LimitsFromEnv(env.Getenv); err == nil && l != (schema.Limits{}) {
		o.Limits = &l
	}
	return o, nil
}

// inboxAddrError is the error of an ASKUSER_INBOX that is not an address:
// a usage error, except for an inbox on NATS, whose every failure makes it
// unavailable.
func inboxAddrError(err error) error {
	if _, ok := errors.AsType[*inbox.ServerError](err); ok {
		return &prompt.UnavailableError{Err: err}
	}
	return &ask.UsageError{Msg: err.Error()}
}
