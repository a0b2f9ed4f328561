package cmd

import (
	"errors"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	core "github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

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
	a, err := core.AddrFromEnv(env.Getenv)
	if err != nil {
		return ask.InboxOptions{}, inboxAddrError(err)
	}
	o := ask.InboxOptions{Addr: a, From: f.from, Limits: limitsFromEnv(env.Getenv)}
	if !cmd.Flags().Changed("from") {
		o.From = env.Getenv("ASKUSER_FROM")
	}
	o.From = cutFrom(o.From)
	return o, nil
}

// inboxAddrError is the error of an ASKUSER_INBOX that is not an address:
// a usage error, except for an inbox on NATS, whose every failure makes it
// unavailable.
func inboxAddrError(err error) error {
	var natsErr *core.NATSAddrError
	if errors.As(err, &natsErr) {
		return &prompt.UnavailableError{Err: err}
	}
	return &ask.UsageError{Msg: err.Error()}
}

// limitsFromEnv are the limits the questions were validated with, for the
// inbox to validate them alike; nil for the schema's own. The variables
// have been checked when the schema was compiled.
func limitsFromEnv(getenv func(string) string) *core.Limits {
	n := func(name string) int {
		v, _ := strconv.Atoi(strings.TrimSpace(getenv(name)))
		return v
	}
	l := core.Limits{
		MaxQuestions:      n("ASK_MAX_QUESTIONS"),
		MaxOptions:        n("ASK_MAX_OPTIONS"),
		HeaderMaxLength:   n("ASK_HEADER_MAX_LENGTH"),
		QuestionMaxLength: n("ASK_QUESTION_MAX_LENGTH"),
	}
	if l == (core.Limits{}) {
		return nil
	}
	return &l
}
