package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/history"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/serve"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web/localhttp"
)

// inboxLong is askuser inbox's help.
const inboxLong = `Collect the questions of every agent you run in one place, and answer them
there. Run it in a terminal you keep in view (a tmux pane, a tab), then use
your agents as usual: askuser asks in the inbox by itself wherever nobody
could answer at its stdin (an agent runs it with stdin from /dev/null or a
socket, or its terminal is not on view), and with --ui inbox or
ASKUSER_UI=inbox.

The sets of questions wait in a queue, oldest first. Each is shown with
where it came from (--from or ASKUSER_FROM, else the asker's working
directory), how long it has waited and how many more wait.

In a terminal, the oldest set is shown at once, with the screens and keys
of askuser's own terminal UI (arrows or j/k, digits, 0 for Other, Space,
Enter, n for a note, the review of several answers). Tab moves to the next
waiting set, Esc cancels the set shown (its asker exits 130), and Ctrl+C,
or q while nothing waits, quits. A line stays above the screen for every
set that ends, whichever view ended it: its answers, given here or on the
web page, or that it was cancelled, answered elsewhere or withdrawn.

Elsewhere (stdin not a terminal, --ui line or ASKUSER_UI=line,
ACCESSIBLE=1, TERM=dumb), the sets are asked as numbered prompts. Instead
of an answer, type /next to move to the next set, /cancel to cancel the
set shown, or /quit to quit (as do Ctrl+C and the end of the input).

When the inbox quits, every asker still waiting ends with exit 69. An
asker that stops waiting (killed, Ctrl+C, --timeout) withdraws its
questions. Each arrival rings the bell and runs ASKUSER_NOTIFY_COMMAND,
with ASKUSER_FROM, ASKUSER_HEADER and ASKUSER_QUESTION set, and with --web
ASKUSER_URL, the address of the set's own page, for a notification to
open, and ASKUSER_ACTIONS: for one single choice among at most three
options, a link for each that answers it in one tap from the
notification's buttons. --notify-after DURATION runs it only for a set
still waiting after DURATION, the desk first (the bell rings at once).
--remind DURATION rings and runs it again for a set still waiting DURATION
after that. When a set ends, ASKUSER_NOTIFY_END_COMMAND runs, to take its
notification back; ASKUSER_NOTIFY_PRIVATE=1 keeps the questions' text out
of both. Every set that ends is kept in the history: askuser history shows
it.

ASKUSER_CHAT=telegram or matrix also posts every set to your chat, with a
button per option, where you answer it from wherever your chat app works;
with --notify-after, only a set still waiting after DURATION, as the
notification. The inbox connects out to the chat service and listens on
nothing. Only the people of ASKUSER_TELEGRAM_PEOPLE or
ASKUSER_MATRIX_PEOPLE answer there; a set answered or withdrawn elsewhere
is shown ended in the chat. With stdin from /dev/null, the chat alone may
answer. See docs/away.md.

The inbox listens on a Unix socket that only you can use: $ASKUSER_INBOX
when set, else $XDG_RUNTIME_DIR/askuser/inbox.sock; without
XDG_RUNTIME_DIR, /run/user/UID/askuser/inbox.sock when that directory is
yours, else askuser-UID/inbox.sock in the temporary directory (askers take
the first of the two that has a socket). Askers read the same variables.
For agents in containers, VMs and CI, --listen ADDR also accepts askers
over TCP with a token: give them the ASKUSER_INBOX it prints. Across
machines, forward the socket with ssh -R rather: that is encrypted.

Across machines without a tunnel, the inbox and its askers meet on a NATS
server with JetStream: ASKUSER_INBOX=nats://[USER:PASSWORD@]HOST:PORT/NAME
(or tls://; creds=FILE, nkey=FILE, ca=FILE as parameters). The inbox keeps
an age identity in $XDG_CONFIG_HOME/askuser/inbox.age and prints the
address to give askers, with to= its recipient: they seal their questions
to it, and the answers come back sealed to them. Sets wait on the server
until answered, whether an inbox runs or not, and a set is withdrawn only
when the server saw no beat of its asker for a few seconds; several inboxes
with the same address and a copy of the first one's identity share the
queue, and the first answer wins.

--web also shows the queue on a web page, at an address with a token of its
own that the inbox prints (--open opens it in $BROWSER, else the system's
browser): on 127.0.0.1, or with --listen on its address, beside the askers.
The page asks as --ui web does, and works on a phone, with the keyboard, a
screen reader, and without JavaScript. It shows the oldest set waiting,
with a Next button to move to the next one and Cancel to cancel it; either
view, the page or the terminal, can answer, and the other moves on.
With stdin from /dev/null (a service, nohup), --web serves the page until
a signal, and logs on stderr each set that arrives and how it ends;
without --web, nothing could answer there, and the inbox exits 69 at once.

Exit codes: 0 quit, 1 another inbox already runs at the address, 64 usage
error, 69 nothing can answer here (no terminal and no --web), the address of
--listen or --web cannot be listened on, --ui tui has no terminal, or the
NATS server cannot be used, 129 hung up, 143 terminated.`

// newInboxCmd returns askuser inbox, whose flags become the options that runF
// serves (serve.Run, but for tests).
func newInboxCmd(env *Env, runF func(context.Context, serve.Options) error) *cobra.Command {
	// --web and --open set the options themselves; --ui is read with
	// ASKUSER_UI (see variable.get).
	var flags serve.Options
	var listen string
	cmd := &cobra.Command{
		Use:   "inbox [--web [--open]] [--listen ADDR]",
		Short: "Collect every agent's questions in one place, to answer there",
		Long:  inboxLong,
		Example: `  askuser inbox                               # in a tmux pane, then use agents
  askuser inbox --web --open                  # answer on a web page too
  askuser inbox --listen 0.0.0.0:7777         # also for agents in containers
  askuser inbox --web --listen 0.0.0.0:7777   # and the page for your phone
  ASKUSER_INBOX=/tmp/team.sock askuser inbox

  # Askers anywhere: give them the address it prints.
  ASKUSER_INBOX=nats://nats.example.com:4222/alice askuser inbox

  # Askers on build-host: ASKUSER_INBOX=/tmp/askuser.sock there.
  ssh -R /tmp/askuser.sock:$XDG_RUNTIME_DIR/askuser/inbox.sock build-host`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// The queue is shown on the terminal a person typed askuser
			// inbox at, even with its stderr captured (2>log, 2>&1 | tee
			// log), where the line prompts would fill the file before a
			// blank screen.
			e := *env
			e.IO = ask.OnStdinTerminal(env.IO)
			opts, err := inboxServeOptions(cmd, &e, flags, listen)
			if err != nil {
				return err
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "", "also accept askers over TCP on `ADDR` (HOST:PORT), with a token; with --web, serve the page there too")
	cmd.Flags().BoolVar(&flags.Web, "web", false, "also show the queue on a web page, at an address with a token (on 127.0.0.1 unless --listen)")
	cmd.Flags().BoolVar(&flags.Open, "open", false, "with --web, open the page in the default browser ($BROWSER, else the system's)")
	settingUI.register(cmd, inboxCommand)
	settingNotifyAfter.register(cmd, inboxCommand)
	settingRemind.register(cmd, inboxCommand)
	_ = cmd.RegisterFlagCompletionFunc("listen", fixedCompletions("127.0.0.1:0", "0.0.0.0:7777"))
	return cmd
}

// inboxOnTerminal says whether the inbox shows its queue on the terminal
// screen rather than as line prompts, as askuser chooses its terminal UI.
// from names where ui came from, for the error.
func inboxOnTerminal(env *Env, ui ask.UI, from string) (bool, error) {
	plain, err := accessible(env)
	if err != nil {
		return false, err
	}
	return ui.UseScreen(env.IO, plain, from, "use --ui line")
}

// inboxServeOptions completes opts, as cmd's flags set them, and listen,
// the value of --listen, with the rest of the flags and the environment into
// the inbox's options.
func inboxServeOptions(cmd *cobra.Command, env *Env, opts serve.Options, listen string) (serve.Options, error) {
	opts.Schema = env.Schema
	opts.IO = env.IO
	opts.Watch = env.WatchSignals
	opts.Color = colorEnabled(env)
	opts.Browser = env.get(varBrowser)
	// ASKUSER_UI's web and inbox say where askers ask, which is this
	// inbox, and count as auto here.
	ui := settingUI.get(cmd, env)
	mode, err := ui.ui(settingUI.uis[inboxCommand], " for the inbox")
	if err != nil {
		return opts, err
	}
	if err := inboxTelling(cmd, env, &opts); err != nil {
		return opts, err
	}
	if opts.Chat, err = chatSettings(env); err != nil {
		return opts, err
	}
	if opts.Addr, err = inboxAddr(env); err != nil {
		return opts, err
	}
	if err := inbox.CanListen(opts.Addr); err != nil {
		return opts, ask.UsageErrorf("%s", err)
	}
	if opts.Open && !opts.Web {
		return opts, ask.UsageErrorf("--open opens the inbox's web page: add --web, or drop --open")
	}
	if cmd.Flags().Changed("listen") {
		l, err := localhttp.ParseAddr(listen)
		if err != nil {
			return opts, ask.UsageErrorf("invalid --listen %q: %s", listen, err)
		}
		opts.Listen = &l
	}
	if opts.Terminal, err = inboxOnTerminal(env, mode, ui.named()); err != nil {
		return opts, err
	}
	// stdin /dev/null or a socket (a service, nohup, an agent's command)
	// takes no answers, and no screen is drawn: only the page can answer.
	if nobody := ask.StdinKind(env.IO.InFile, env.IO.InTTY); nobody != "" && !opts.Terminal {
		if !opts.Web && opts.Chat == nil {
			return opts, &prompt.UnavailableError{Err: fmt.Errorf("nothing can answer here: stdin is %s and there is no terminal; run askuser inbox in a terminal, add --web to answer on its web page, or set ASKUSER_CHAT to answer in your chat", nobody)}
		}
		opts.Headless = true
	}
	terminal := opts.Terminal
	opts.Ended = func(ctx context.Context, err error) (string, error) {
		return inboxEnded(ctx, env, terminal, err)
	}
	return opts, nil
}

// inboxTelling resolves how the inbox tells the person of its sets, into
// o: the notification commands, their reply topic, their delay
// (--notify-after, ASKUSER_NOTIFY_AFTER), the reminders (--remind,
// ASKUSER_REMIND), and the history.
func inboxTelling(cmd *cobra.Command, env *Env, o *serve.Options) error {
	var err error
	if o.Notify, o.NotifyEnd, err = notifyCommands(env); err != nil {
		return err
	}
	if o.ReplyURL, err = replyURL(env); err != nil {
		return err
	}
	if o.NotifyAfter, err = settingNotifyAfter.get(cmd, env).duration(); err != nil {
		return err
	}
	if o.Remind, err = settingRemind.get(cmd, env).duration(); err != nil {
		return err
	}
	if o.HistoryKeep, err = historyKeep(env); err != nil || o.HistoryKeep == history.KeepNothing {
		return err
	}
	path, err := historyPath(env)
	o.History = &history.File{Path: path}
	return err
}

// inboxEnded makes err, the error its view returned, the inbox's, and
// says why it quit when a signal stopped it. The terminal screen ends as
// a conversation on a terminal does (see ask.Ended: when it hung up, the
// end of its input or a failed write may come before the signal), except
// that the end of its input is the person quitting.
func inboxEnded(ctx context.Context, env *Env, terminal bool, err error) (why string, _ error) {
	if terminal {
		err = ask.Ended(ctx, err, []*os.File{env.IO.InFile, env.IO.ErrFile})
		if errors.Is(err, prompt.ErrNoAnswer) {
			return "", nil
		}
	}
	if sig, ok := errors.AsType[*ask.SignalError](err); ok {
		if sig.Sig != syscall.SIGTERM && sig.Sig != syscall.SIGHUP {
			// Ctrl+C is how the person quits.
			return "", nil
		}
		return "the inbox was stopped by " + sig.Name(), err
	}
	return "", err
}
