package cmd

import (
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/schema"
)

// This file is the settings table: every environment variable askuser
// reads, each flag that a variable stands in for declared with it, and the
// help of both; and how a command registers a setting's flag. env.go reads
// them, and is the only file that reads the environment (a test holds every
// other file to it): the packages below cmd take values.

// variable is an environment variable that askuser reads. Every one is in
// the table below. One that stands in for a flag is a setting, and declares
// the flag with it: the flag's name, its type (zero is its value when not
// given), the placeholder of its value in its help, its help for each kind
// of command that takes it, and, for --ui, the values that each offers and
// completes. Commands register a setting and read it by the name of its
// declaration, never by the flag's name, so that a mistyped setting does
// not compile, nor does reading a flag of a variable that has none.
type variable struct {
	name  string
	alias string // an older name, still read
	def   string // what holds while it is unset, for the help; "" to say nothing
	does  string // what it does, for the help: a sentence or two
	// secret says that the value may hold a secret (a token, a private
	// address), which askuser doctor does not show.
	secret bool

	flag        string // "" for a variable that stands in for no flag
	zero        any    // "" for text, false for a switch, time.Duration(0) for a duration
	placeholder string
	help        map[commandKind]string
	uis         map[commandKind][]ask.UI
}

// setting is a variable that stands in for a flag: only a setting is
// registered on a command and read from it.
type setting struct{ *variable }

// register adds v's flag to cmd, a command of the kind c, with the help
// and the completions of that kind (TestSettings finds a flag registered
// without its help).
func (v setting) register(cmd *cobra.Command, c commandKind) {
	help := v.help[c]
	if v.placeholder != "" {
		help = strings.Replace(help, v.placeholder, "`"+v.placeholder+"`", 1)
	}
	switch zero := v.zero.(type) {
	case string:
		cmd.Flags().String(v.flag, zero, help)
	case bool:
		cmd.Flags().Bool(v.flag, zero, help)
	case time.Duration:
		cmd.Flags().Duration(v.flag, zero, help)
	}
	if uis := v.uis[c]; uis != nil {
		_ = cmd.RegisterFlagCompletionFunc(v.flag, fixedCompletions(uiNames(uis)...))
	}
}

// fixedCompletions completes a flag's value from values, and never from
// the files of the directory.
func fixedCompletions(values ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
}

// uiNames returns the values of --ui that uis are, in their order: for its
// completions, and for its errors.
func uiNames(uis []ask.UI) []string {
	names := make([]string, len(uis))
	for i, u := range uis {
		names[i] = string(u)
	}
	return names
}

// commandKind is a kind of command: the help of a setting, and the
// values of --ui, differ by kind.
type commandKind int

const (
	askingCommands commandKind = iota // askuser, confirm, input, choose, approve
	inboxCommand
	mcpCommand
)

// The settings: the variables that stand in for a flag.
var (
	settingUI = setting{&variable{name: "ASKUSER_UI", def: "auto", flag: "ui", zero: "", placeholder: "MODE",
		does: "How to ask, for every command: auto, tui, line, web or inbox. askuser inbox takes tui and line as its screen and the rest as auto; askuser mcp takes tui and line as auto.",
		help: map[commandKind]string{
			askingCommands: "how to ask, MODE: auto, tui (terminal UI), line (numbered prompts), web (a local web page) or inbox (askuser inbox) (default $ASKUSER_UI, else auto)",
			inboxCommand:   "how to show the questions, MODE: auto, tui (the terminal screen) or line (numbered prompts) (default $ASKUSER_UI when tui or line, else auto)",
			mcpCommand:     "how to reach the person, MODE: auto, elicit (the client's own interface), inbox (askuser inbox) or web (a local web page) (default $ASKUSER_UI, else auto)",
		},
		// In the order their help lists them. ASKUSER_UI takes those of
		// the asking commands, for every command (see given.ui).
		uis: map[commandKind][]ask.UI{
			askingCommands: {ask.UIAuto, ask.UITUI, ask.UILine, ask.UIWeb, ask.UIInbox},
			inboxCommand:   {ask.UIAuto, ask.UITUI, ask.UILine},
			mcpCommand:     {ask.UIAuto, ask.UIElicit, ask.UIInbox, ask.UIWeb},
		}}}
	settingTimeout = setting{&variable{name: "ASKUSER_TIMEOUT", def: "none", flag: "timeout", zero: time.Duration(0), placeholder: "DURATION",
		does: "How long to wait for an answer (30s, 5m) before giving up with exit 124.",
		help: map[commandKind]string{
			askingCommands: "give up after DURATION (e.g. 5m) without an answer: exit 124 (default $ASKUSER_TIMEOUT, else none)",
			mcpCommand:     "give up on a call after DURATION (e.g. 5m) without an answer (default $ASKUSER_TIMEOUT, else none)",
		}}}
	settingArrays = setting{&variable{name: "ASKUSER_ARRAYS", def: "false", flag: "arrays", zero: false,
		does: "Write each multi-select answer as a JSON array of its labels.",
		help: map[commandKind]string{
			askingCommands: "write each multi-select answer as a JSON array of labels, typed text last (default $ASKUSER_ARRAYS)",
			mcpCommand:     "write each multi-select answer as a JSON array of its labels, as askuser --arrays does (also $ASKUSER_ARRAYS)",
		}}}
	settingFrom = setting{&variable{name: "ASKUSER_FROM", def: "the working directory", flag: "from", zero: "", placeholder: "NAME",
		does: "The name the inbox shows the questions as coming from.",
		help: map[commandKind]string{
			askingCommands: "in the inbox, say the questions come from NAME (default $ASKUSER_FROM, else the working directory)",
			mcpCommand:     "in the inbox, say the questions come from NAME (default $ASKUSER_FROM, else the MCP client and the working directory)",
		}}}
	settingNotifyAfter = setting{&variable{name: "ASKUSER_NOTIFY_AFTER", def: "0s", flag: "notify-after", zero: time.Duration(0), placeholder: "DURATION",
		does: "In the inbox, run ASKUSER_NOTIFY_COMMAND for a set, and post it to the chat (ASKUSER_CHAT), only once it has waited this long unanswered (2m): the desk first. 0 does both at once; the bell rings at once either way.",
		help: map[commandKind]string{
			inboxCommand: "run ASKUSER_NOTIFY_COMMAND for a set, and post it to the chat, only once it has waited DURATION unanswered (e.g. 2m); the bell rings at once (default $ASKUSER_NOTIFY_AFTER, else at once)",
		}}}
	settingRemind = setting{&variable{name: "ASKUSER_REMIND", def: "none", flag: "remind", zero: time.Duration(0), placeholder: "DURATION",
		does: "In the inbox, notify again (the bell, and ASKUSER_NOTIFY_COMMAND with ASKUSER_EVENT=reminded) when a set still waits this long (10m) after it was notified.",
		help: map[commandKind]string{
			inboxCommand: "notify again when a set still waits DURATION (e.g. 10m) after it was notified: the bell, and ASKUSER_NOTIFY_COMMAND (default $ASKUSER_REMIND, else never)",
		}}}
)

// The settings table: every environment variable askuser reads, beside
// those of the settings.
var (
	varInbox = &variable{name: inbox.EnvAddr, secret: true, def: "$XDG_RUNTIME_DIR/askuser/inbox.sock",
		does: "Where the inbox is, for the inbox and its askers alike: a socket path, unix:PATH, http://HOST:PORT/?token=T (askuser inbox --listen prints it), or nats://HOST:PORT/NAME?to=age1... (askuser inbox prints it)."}
	varAnswers = &variable{name: "ASKUSER_ANSWERS", def: "none",
		does: `Answers known in advance, as a JSON object keyed by header or question text ({"Database":"SQLite"}): those questions are not asked.`}
	varNotify = &variable{name: "ASKUSER_NOTIFY_COMMAND", secret: true, def: "none",
		does: "A shell command run when questions appear (ASKUSER_EVENT=asked), with ASKUSER_HEADER, ASKUSER_QUESTION, ASKUSER_ACTIONS and ASKUSER_JSON set; in the inbox also ASKUSER_FROM and ASKUSER_SET, and with --web ASKUSER_URL, the set's page, and in ASKUSER_ACTIONS the links that answer a single choice in one tap. The inbox runs it again for a reminder (ASKUSER_EVENT=reminded)."}
	varNotifyEnd = &variable{name: "ASKUSER_NOTIFY_END_COMMAND", secret: true, def: "none",
		does: "The inbox's: a shell command run when a set it told of ends (ASKUSER_EVENT=ended), with ASKUSER_SET, ASKUSER_FROM, ASKUSER_OUTCOME (answered, cancelled, withdrawn, closed), ASKUSER_VIA (here, page, notification, chat, elsewhere) and ASKUSER_JSON set: to take the notification back."}
	varNotifyPrivate = &variable{name: "ASKUSER_NOTIFY_PRIVATE", def: "false",
		does: "Keep the questions' text out of notifications: ASKUSER_HEADER and ASKUSER_QUESTION are not given, nor one-tap actions (their labels are text); only who asks, and with --web the set's page."}
	varNotifyReply = &variable{name: "ASKUSER_NOTIFY_REPLY_URL", secret: true, def: "none",
		does: "The inbox's: the address of an ntfy topic (https://ntfy.sh/TOPIC) that the one-tap buttons of ASKUSER_ACTIONS post their keys to, and that the inbox reads by connecting out, so that a phone that cannot reach the inbox answers in one tap."}
	varChat = &variable{name: "ASKUSER_CHAT", def: "none",
		does: "The inbox's chat: telegram or matrix, to post each set there and take the person's answers (the ASKUSER_TELEGRAM_ or ASKUSER_MATRIX_ variables say where)."}
	varTelegramToken = &variable{name: "ASKUSER_TELEGRAM_TOKEN", secret: true,
		does: "The Telegram bot's token, from @BotFather."}
	varTelegramChat = &variable{name: "ASKUSER_TELEGRAM_CHAT",
		does: "The ID of the Telegram chat the bot posts to: your own chat with it (your user ID), or a group's."}
	varTelegramPeople = &variable{name: "ASKUSER_TELEGRAM_PEOPLE", def: "ASKUSER_TELEGRAM_CHAT",
		does: "The Telegram user IDs of those who may answer in the chat, separated by commas."}
	varTelegramAPI = &variable{name: "ASKUSER_TELEGRAM_API", def: "https://api.telegram.org",
		does: "The Bot API server's address, for a Bot API server of your own."}
	varMatrixServer = &variable{name: "ASKUSER_MATRIX_HOMESERVER",
		does: "The address of the Matrix homeserver of the inbox's account (https://matrix.example.org)."}
	varMatrixUser = &variable{name: "ASKUSER_MATRIX_USER",
		does: "The Matrix user ID of the inbox's account (@askuser:example.org)."}
	varMatrixPassword = &variable{name: "ASKUSER_MATRIX_PASSWORD", secret: true,
		does: "The password of the inbox's Matrix account (or ASKUSER_MATRIX_TOKEN)."}
	varMatrixToken = &variable{name: "ASKUSER_MATRIX_TOKEN", secret: true,
		does: "An access token of the inbox's Matrix account, in place of its password."}
	varMatrixRoom = &variable{name: "ASKUSER_MATRIX_ROOM",
		does: "The ID of the Matrix room the inbox posts to (!abc:example.org), unencrypted, which its account was invited to."}
	varMatrixPeople = &variable{name: "ASKUSER_MATRIX_PEOPLE",
		does: "The Matrix user IDs of those who may answer in the room, separated by commas (@you:example.org)."}
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
	settingUI.variable, settingTimeout.variable, settingArrays.variable, settingFrom.variable, varInbox, varAnswers,
	varNotify, varNotifyEnd, varNotifyPrivate, varNotifyReply, settingNotifyAfter.variable, settingRemind.variable,
	varChat, varTelegramToken, varTelegramChat, varTelegramPeople, varTelegramAPI,
	varMatrixServer, varMatrixUser, varMatrixPassword, varMatrixToken, varMatrixRoom, varMatrixPeople,
	varHistory,
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

// VariableNames returns the names of every variable of the table, and the
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
