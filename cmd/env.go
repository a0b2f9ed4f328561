package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/history"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/natsinbox"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// variable is an environment variable that askuser reads. Every one is in
// the table below, beside the flag it stands in for and its default, and
// is read in this file only (a test holds every other file to it): the
// packages below cmd take values.
type variable struct {
	name  string
	alias string // an older name, still read
	flag  string // the flag whose default it gives, without "--"; "" for none
	def   string // what holds while it is unset, for the help; "" to say nothing
	does  string // what it does, for the help: a sentence or two
	// secret says that the value may hold a secret (a token, a private
	// address), which askuser doctor does not show.
	secret bool
}

// The settings table: every environment variable askuser reads.
var (
	varUI = &variable{name: "ASKUSER_UI", flag: "ui", def: "auto",
		does: "How to ask, for every command: auto, tui, line, web or inbox. askuser inbox takes tui and line as its screen and the rest as auto; askuser mcp takes tui and line as auto."}
	varTimeout = &variable{name: "ASKUSER_TIMEOUT", flag: "timeout", def: "none",
		does: "How long to wait for an answer (30s, 5m) before giving up with exit 124."}
	varArrays = &variable{name: "ASKUSER_ARRAYS", flag: "arrays", def: "false",
		does: "Write each multi-select answer as a JSON array of its labels."}
	varFrom = &variable{name: "ASKUSER_FROM", flag: "from", def: "the working directory",
		does: "The name the inbox shows the questions as coming from."}
	varInbox = &variable{name: inbox.EnvAddr, secret: true, def: "$XDG_RUNTIME_DIR/askuser/inbox.sock",
		does: "Where the inbox is, for the inbox and its askers alike: a socket path, unix:PATH, http://HOST:PORT/?token=T (askuser inbox --listen prints it), or nats://HOST:PORT/NAME?to=age1... (askuser inbox prints it)."}
	varAnswers = &variable{name: "ASKUSER_ANSWERS", def: "none",
		does: `Answers known in advance, as a JSON object keyed by header or question text ({"Database":"SQLite"}): those questions are not asked.`}
	varNotify = &variable{name: "ASKUSER_NOTIFY_COMMAND", secret: true, def: "none",
		does: "A shell command run when questions appear (ASKUSER_EVENT=asked), with ASKUSER_HEADER, ASKUSER_QUESTION, ASKUSER_ACTIONS and ASKUSER_JSON set; in the inbox also ASKUSER_FROM and ASKUSER_SET, and with --web ASKUSER_URL, the set's page, and in ASKUSER_ACTIONS the links that answer a single choice in one tap. The inbox runs it again for a reminder (ASKUSER_EVENT=reminded)."}
	varNotifyEnd = &variable{name: "ASKUSER_NOTIFY_END_COMMAND", secret: true, def: "none",
		does: "The inbox's: a shell command run when a set it told of ends (ASKUSER_EVENT=ended), with ASKUSER_SET, ASKUSER_FROM, ASKUSER_OUTCOME (answered, cancelled, withdrawn, closed), ASKUSER_VIA (here, page, notification, elsewhere) and ASKUSER_JSON set: to take the notification back."}
	varNotifyPrivate = &variable{name: "ASKUSER_NOTIFY_PRIVATE", def: "false",
		does: "Keep the questions' text out of notifications: ASKUSER_HEADER and ASKUSER_QUESTION are not given, nor one-tap actions (their labels are text); only who asks, and with --web the set's page."}
	varRemind = &variable{name: "ASKUSER_REMIND", flag: "remind", def: "none",
		does: "In the inbox, notify again (the bell, and ASKUSER_NOTIFY_COMMAND with ASKUSER_EVENT=reminded) when a set still waits after this long (10m)."}
	varHistory = &variable{name: "ASKUSER_HISTORY", def: "on",
		does: "What the inbox keeps of every set that ends, in its history (askuser history): on (who asked, when, how it ended and where, how long it waited), answers (that and the answers) or off."}
	varMaxQuestions = &variable{name: "ASKUSER_MAX_QUESTIONS", alias: "ASK_MAX_QUESTIONS", def: "4",
		does: "The most questions in one set."}
	varMaxOptions = &variable{name: "ASKUSER_MAX_OPTIONS", alias: "ASK_MAX_OPTIONS", def: "4",
		does: "The most options of one question (at least 2)."}
	varHeaderMax = &variable{name: "ASKUSER_HEADER_MAX_LENGTH", alias: "ASK_HEADER_MAX_LENGTH", def: "12",
		does: "The longest header, in characters."}
	varQuestionMax = &variable{name: "ASKUSER_QUESTION_MAX_LENGTH", alias: "ASK_QUESTION_MAX_LENGTH", def: "500",
		does: "The longest question, in characters."}
	varAccessible = &variable{name: "ACCESSIBLE", def: "false",
		does: "Ask with numbered line prompts rather than the terminal UI, for a screen reader."}
	varTerm = &variable{name: "TERM",
		does: "dumb: numbered line prompts, and no colour."}
	varNoColor = &variable{name: "NO_COLOR",
		does: "Any value: no colour."}
	varCliColor = &variable{name: "CLICOLOR",
		does: "0: no colour."}
	varCliColorForce = &variable{name: "CLICOLOR_FORCE",
		does: "Other than 0: colour, even with TERM=dumb (NO_COLOR wins)."}
	varBrowser = &variable{name: "BROWSER", def: "the system's opener",
		does: "The browser that opens a web page (--open, and askuser mcp's page)."}
	varRuntimeDir = &variable{name: "XDG_RUNTIME_DIR", def: "/run/user/UID when it is yours",
		does: "Without ASKUSER_INBOX, the inbox's socket is askuser/inbox.sock in this directory."}
	varTempDir = &variable{name: "TMPDIR", def: "/tmp",
		does: "Without ASKUSER_INBOX and a runtime directory, the inbox's socket is askuser-UID/inbox.sock in this directory."}
	varStateHome = &variable{name: "XDG_STATE_HOME", def: "~/.local/state",
		does: "The inbox keeps its history in askuser/history.jsonl in this directory."}
)

// variables is the table, in the order the help lists it.
var variables = []*variable{
	varUI, varTimeout, varArrays, varFrom, varInbox, varAnswers,
	varNotify, varNotifyEnd, varNotifyPrivate, varRemind, varHistory,
	varMaxQuestions, varMaxOptions, varHeaderMax, varQuestionMax,
	varAccessible, varTerm, varNoColor, varCliColor, varCliColorForce, varBrowser,
	varRuntimeDir, varTempDir, varStateHome,
}

// limitVariables are the variables of the schema's limits, by limit.
var limitVariables = [...]*variable{
	schema.MaxQuestions:      varMaxQuestions,
	schema.MaxOptions:        varMaxOptions,
	schema.HeaderMaxLength:   varHeaderMax,
	schema.QuestionMaxLength: varQuestionMax,
}

// processEnv is the process's environment, which Main gives the
// commands, to be read through the table above only.
func processEnv(name string) string { return os.Getenv(name) }

// VariableNames are the names of every variable of the table, and the
// older names: for a test harness to pass on what a script sets.
func VariableNames() []string {
	var names []string
	for _, v := range variables {
		names = append(names, v.name)
		if v.alias != "" {
			names = append(names, v.alias)
		}
	}
	return names
}

// get is v's value in env's environment, trimmed of white space: "" when
// it is unset.
func (env *Env) get(v *variable) string {
	return strings.TrimSpace(env.Getenv(v.name))
}

// getAlias is the value of v's older name.
func (env *Env) getAlias(v *variable) string {
	if v.alias == "" {
		return ""
	}
	return strings.TrimSpace(env.Getenv(v.alias))
}

// setting is the value of a flag: as given on the command line, else as
// its environment variable gives it (see variable.flag), else the flag's
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
	if i := slices.IndexFunc(variables, func(v *variable) bool { return v.flag == name }); i >= 0 && !f.Changed {
		if s := envSetting(env, variables[i]); s.set {
			return s
		}
	}
	return setting{value: f.Value.String(), from: "--" + name, set: f.Changed}
}

// envSetting is the setting that v gives, unset when v is empty.
func envSetting(env *Env, v *variable) setting {
	value := env.get(v)
	return setting{value: value, from: v.name, env: true, set: value != ""}
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
	if err == nil && d >= 0 {
		return d, nil
	}
	err = badDuration(s.from, s.value, err == nil)
	if s.env {
		err = ofVariable(err)
	}
	return 0, err
}

// badDuration is the one wording of a duration that askuser cannot take,
// from a flag (where the flag's parsing finds it) or from a variable
// alike: value, given by from, is not a duration, or is negative.
func badDuration(from, value string, negative bool) error {
	if negative {
		return ask.UsageErrorf("invalid %s %q: must not be negative", from, value)
	}
	return ask.UsageErrorf("invalid %s %q: must be a duration such as 30s or 5m", from, value)
}

// boolean reads a boolean setting; see parseBool.
func (s setting) boolean() (bool, error) {
	on, err := parseBool(s.from, s.value)
	if s.env {
		err = ofVariable(err)
	}
	return on, err
}

// ofVariable is err, a usage error about a variable's value, pointing at
// the help of the variables rather than the command's.
func ofVariable(err error) error {
	if u, ok := errors.AsType[*ask.UsageError](err); ok {
		u.See = "askuser help environment"
	}
	return err
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
		err := ask.UsageErrorf("invalid %s %q%s: must be %s", s.from, s.value, suffix, orList(valid))
		if s.env {
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
func accessible(env *Env) (bool, error) {
	on, err := parseBool(varAccessible.name, env.get(varAccessible))
	return on || env.get(varTerm) == "dumb", ofVariable(err)
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

// browser is the browser that opens web pages, "" for the system's.
func browser(env *Env) string { return env.get(varBrowser) }

// notifyCommands are the commands run when questions appear, and, in the
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

// historyKeep is what the inbox keeps in its history (ASKUSER_HISTORY).
func historyKeep(env *Env) (history.Keep, error) {
	keep, err := history.ParseKeep(env.get(varHistory))
	if err != nil {
		return 0, ofVariable(ask.UsageErrorf("invalid %s %q: %s", varHistory.name, env.get(varHistory), err))
	}
	return keep, nil
}

// historyPath is where the inbox's history is: in $XDG_STATE_HOME/askuser,
// else ~/.local/state/askuser, as the XDG base directories have it. A
// relative XDG_STATE_HOME is refused, as Go refuses a relative
// XDG_CONFIG_HOME.
func historyPath(env *Env) (string, error) {
	dir := env.get(varStateHome)
	switch {
	case dir != "" && !filepath.IsAbs(dir):
		return "", ofVariable(ask.UsageErrorf("invalid %s %q: must be an absolute path", varStateHome.name, dir))
	case dir == "":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the history: %w; set %s", err, varStateHome.name)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "askuser", history.FileName), nil
}

// presetAnswers are the answers known in advance (ASKUSER_ANSWERS).
func presetAnswers(env *Env) (map[string]string, error) {
	p, err := ask.ParsePresets(env.get(varAnswers))
	return p, ofVariable(err)
}

// inboxAddr is where the inbox is: ASKUSER_INBOX, else the default of
// the runtime directories. A value that is not an address is an error
// (see inboxAddrError).
func inboxAddr(env *Env) (inbox.Addr, error) {
	a, err := inbox.Where{Inbox: env.get(varInbox), RuntimeDir: env.get(varRuntimeDir), TempDir: env.get(varTempDir), Remote: natsinbox.Remote()}.Addr()
	if err != nil {
		return nil, inboxAddrError(err)
	}
	return a, nil
}

// limits are the limits the limit variables set, 0 for each left as the
// schema has it, read once a run: the schema is compiled with them, and
// the inbox told of them. A limit set under both its names must have the
// same number under both: when they differ, one of two settings the person
// made would be ignored without a word, so neither is taken.
func (env *Env) limits() (schema.Limits, error) {
	if env.limitsRead == nil {
		env.limitsRead = &limitsRead{}
		l, err := readLimits(env)
		env.limitsRead.l, env.limitsRead.err = l, ofVariable(err)
	}
	return env.limitsRead.l, env.limitsRead.err
}

// limitsRead are the limits as read, with the error of reading them.
type limitsRead struct {
	l   schema.Limits
	err error
}

func readLimits(env *Env) (schema.Limits, error) {
	var ls schema.Limits
	for _, l := range schema.AllLimits {
		v := limitVariables[l]
		n, err := readLimit(l, v.name, env.get(v))
		if err != nil {
			return schema.Limits{}, err
		}
		old, err := readLimit(l, v.alias, env.getAlias(v))
		if err != nil {
			return schema.Limits{}, err
		}
		if n != 0 && old != 0 && n != old {
			return schema.Limits{}, ask.UsageErrorf("%s=%s and %s=%s disagree: %s is the older name of %s; unset it or give both the same value",
				v.name, env.get(v), v.alias, env.getAlias(v), v.alias, v.name)
		}
		*ls.Field(l) = max(n, old)
	}
	return ls, nil
}

// readLimit reads the value of the variable name, which sets the limit l:
// 0 when it is empty.
func readLimit(l schema.Limit, name, value string) (int, error) {
	if value == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(value)
	switch {
	case (err != nil || n < l.Min()) && l.Min() > 1:
		return 0, ask.UsageErrorf("%s must be an integer of at least %d (got %q)", name, l.Min(), value)
	case err != nil || n < l.Min():
		return 0, ask.UsageErrorf("%s must be a positive integer (got %q)", name, value)
	}
	return n, nil
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
	o := ask.InboxOptions{Addr: a, From: ask.CutFrom(flagSetting(cmd, env, "from").value)}
	// A bad limit variable is reported where the schema is compiled
	// (loadSchema); here it only leaves the limits out.
	if l, err := env.limits(); err == nil && l != (schema.Limits{}) {
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
	return &ask.UsageError{Msg: err.Error(), See: "askuser help environment"}
}

// setVariables are the variables of the table that are set in env, with
// their values ("ASKUSER_UI=inbox"), in the table's order, an older name
// after its variable. The value of one that may hold a secret is not
// shown.
func setVariables(env *Env) []string {
	var set []string
	show := func(name, value string, secret bool) {
		switch {
		case value == "":
		case secret:
			set = append(set, name+" is set (its value may hold a secret: not shown)")
		default:
			set = append(set, fmt.Sprintf("%s=%s", name, prompt.Display(value)))
		}
	}
	for _, v := range variables {
		show(v.name, env.get(v), v.secret)
		show(v.alias, env.getAlias(v), v.secret)
	}
	return set
}
