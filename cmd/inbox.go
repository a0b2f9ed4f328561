package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	core "github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/screen"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/tui"
	"github.com/askuser/askuser/prompt/web"
)

// inboxCmdOptions are what askuser inbox needs, resolved from its flags and
// the environment.
type inboxCmdOptions struct {
	addr core.Addr
	// listen, when set, is where askers over TCP are also accepted.
	listen *web.Addr
	// terminal shows the queue on the terminal screen rather than as
	// line prompts.
	terminal bool
}

func newInboxCmd(env *Env) *cobra.Command {
	var listen, ui string
	cmd := &cobra.Command{
		Use:   "inbox [--listen ADDR]",
		Short: "Collect the questions of every agent in one place, and answer them there",
		Long: `Collect the questions of every agent you run in one place, and answer them
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
or q while nothing waits, quits. A line stays above the screen for each
set answered, cancelled, or withdrawn while it was shown.

Elsewhere (stdin not a terminal, --ui line, ACCESSIBLE=1, TERM=dumb), the
sets are asked as numbered prompts. Instead of an answer, type /next to
move to the next set, /cancel to cancel the set shown, or /quit to quit (as
do Ctrl+C and the end of the input).

When the inbox quits, every asker still waiting ends with exit 69. An
asker that stops waiting (killed, Ctrl+C, --timeout) withdraws its
questions. Each arrival rings the bell and runs ASKUSER_NOTIFY_COMMAND,
with ASKUSER_FROM, ASKUSER_HEADER and ASKUSER_QUESTION set.

The inbox listens on a Unix socket that only you can use: $ASKUSER_INBOX
when set, else $XDG_RUNTIME_DIR/askuser/inbox.sock, else
askuser-UID/inbox.sock in the temporary directory. Askers read the same
variable. For agents in containers, VMs and CI, --listen ADDR also accepts
askers over TCP with a token: give them the ASKUSER_INBOX it prints. Across
machines, forward the socket with ssh -R rather: that is encrypted.

Exit codes: 0 quit, 1 another inbox already runs at the address, 64 usage
error, 69 --listen cannot listen or --ui tui has no terminal, 129 hung up,
143 terminated.`,
		Example: `  askuser inbox                          # in a tmux pane; then use your agents as usual
  askuser inbox --listen 0.0.0.0:7777     # also for agents in containers
  ASKUSER_INBOX=/tmp/team.sock askuser inbox
  ssh -R /tmp/askuser.sock:$XDG_RUNTIME_DIR/askuser/inbox.sock build-host   # askers there: ASKUSER_INBOX=/tmp/askuser.sock`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var opts inboxCmdOptions
			switch ui {
			case "auto", "tui", "line":
			default:
				return usageErrorf("invalid --ui %q for the inbox: must be auto, tui or line", ui)
			}
			a, err := core.AddrFromEnv(env.Getenv)
			if err != nil {
				return &usageError{msg: err.Error()}
			}
			opts.addr = a
			if cmd.Flags().Changed("listen") {
				l, err := web.ParseAddr(listen)
				if err != nil {
					return usageErrorf("invalid --listen %q: %s", listen, err)
				}
				opts.listen = &l
			}
			if opts.terminal, err = inboxOnTerminal(env, ui); err != nil {
				return err
			}
			return inboxRun(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "", "also accept askers over TCP on `ADDR` (HOST:PORT), with a token")
	cmd.Flags().StringVar(&ui, "ui", "auto", "how to show the questions: `auto`, tui (the terminal screen) or line (numbered prompts)")
	_ = cmd.RegisterFlagCompletionFunc("listen", fixedCompletions("127.0.0.1:0", "0.0.0.0:7777"))
	_ = cmd.RegisterFlagCompletionFunc("ui", fixedCompletions("auto", "tui", "line"))
	return cmd
}

// inboxOnTerminal says whether the inbox shows its queue on the terminal
// screen rather than as line prompts, as askuser chooses its terminal UI:
// when stdin and stderr are terminals, unless the person asked for line
// prompts (--ui line, ACCESSIBLE, TERM=dumb).
func inboxOnTerminal(env *Env, ui string) (bool, error) {
	terminals := env.IO.InTTY && env.IO.ErrTTY && env.IO.InFile != nil && env.IO.ErrFile != nil
	switch ui {
	case "tui":
		if !terminals {
			return false, &prompt.UnavailableError{Err: errors.New("--ui tui needs a terminal, and stdin or stderr is not one: use --ui line")}
		}
		return true, nil
	case "auto":
		return terminals && !accessible(env.Getenv), nil
	}
	return false, nil
}

// inboxRun serves the inbox and shows its queue until the person quits, the
// input ends or a signal comes; then every asker still waiting is told.
func inboxRun(ctx context.Context, env *Env, opts inboxCmdOptions) error {
	out := &lockedWriter{w: env.IO.ErrOut}
	// What the inbox says is for the person at its terminal; a failed
	// write there has nowhere else to go.
	say := func(format string, args ...any) { _, _ = fmt.Fprintf(out, format, args...) }
	q := core.NewQueue(core.QueueOptions{OnArrive: arrival(env, out)})
	home, _ := os.UserHomeDir()
	var show interface{ Run(context.Context) error }
	if opts.terminal {
		term := screen.NewTerminal(screen.TerminalOptions{
			Queue: q, In: env.IO.InFile, Out: env.IO.ErrFile, Color: tui.ColorEnabled(env.Getenv, true),
			Where: opts.addr.String(), Home: home,
		})
		// What else is said while the screen holds the terminal (a
		// notification command that failed) goes above the screen. No
		// set can arrive yet, so nothing writes here.
		out.w = term
		show = term
	} else {
		show = &screen.Line{Queue: q, In: env.IO.In, Out: out, Terminal: env.IO.InTTY, Where: opts.addr.String(), Home: home}
	}
	srv := core.NewServer(q, env.Schema)
	quit := "the person quit the inbox"
	defer func() { srv.Close(quit) }()

	if err := listenInbox(srv, opts.addr, out); err != nil {
		return err
	}
	if opts.listen != nil {
		token := opts.addr.Token
		if token == "" {
			var err error
			if token, err = web.NewToken(); err != nil {
				return err
			}
		}
		ln, host, err := web.ListenFor(*opts.listen, "the inbox", out)
		if err != nil {
			return err
		}
		if err := srv.ServeTCP(ln, host, token); err != nil {
			_ = ln.Close()
			return err
		}
		tcp := core.Addr{Host: hostPort(host, ln.Addr().String()), Token: token}
		say("Askers elsewhere reach this inbox with ASKUSER_INBOX='%s'\n", tcp.URL())
	}
	if !opts.terminal {
		say("askuser inbox: the questions that agents ask with askuser arrive here, oldest first.\n%s\n", screen.Help)
	}

	if env.WatchSignals != nil {
		var stop func()
		ctx, stop = env.WatchSignals(ctx)
		defer stop()
	}
	failed, err := showQueue(ctx, show.Run, srv.Failed())
	if failed {
		quit = "the inbox failed"
	}
	if opts.terminal && err != nil && !failed {
		// The terminal screen's terminal ended or failed: when it hung
		// up, the end of its input or a failed write may come before the
		// signal does.
		switch {
		case hungUp(ctx, err, []*os.File{env.IO.InFile, env.IO.ErrFile}):
			err = hangupError
		case ctx.Err() != nil:
			err = context.Cause(ctx)
		case errors.Is(err, prompt.ErrNoAnswer):
			err = nil
		}
	}
	if n := q.Len(); n > 0 {
		if n == 1 {
			say("The inbox quits: the asker still waiting is told.\n")
		} else {
			say("The inbox quits: the %d askers still waiting are told.\n", n)
		}
	}
	var sig *signalError
	if errors.As(err, &sig) {
		if sig.sig != syscall.SIGTERM && sig.sig != syscall.SIGHUP {
			// Ctrl+C is how the person quits.
			return nil
		}
		quit = "the inbox was stopped by " + signalName(sig.sig)
	}
	return err
}

// showQueue runs a screen of the inbox until it returns, or the inbox
// fails (failed is then set): the screen is then stopped and waited for,
// so that the terminal is given back before the error is reported.
func showQueue(ctx context.Context, run func(context.Context) error, failures <-chan error) (failed bool, err error) {
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	var shownErr error
	shown := make(chan struct{})
	go func() {
		defer close(shown)
		shownErr = run(ctx)
	}()
	select {
	case <-shown:
		return false, shownErr
	case err = <-failures:
		// The screen stops because it is told to: the failure is what
		// to report.
		stop(err)
		<-shown
		return true, err
	}
}

// listenInbox serves the inbox at its address: the Unix socket, or the
// TCP address (with its token) that ASKUSER_INBOX names.
func listenInbox(srv *core.Server, a core.Addr, out io.Writer) error {
	if !a.IsTCP() {
		ln, err := core.ListenSocket(a.Path)
		if err != nil {
			return err
		}
		srv.ServeSocket(ln)
		return nil
	}
	l, err := web.ParseAddr(a.Host)
	if err != nil {
		return usageErrorf("%s is %s: the inbox cannot listen there: %s", core.EnvAddr, a, err)
	}
	ln, host, err := web.ListenFor(l, "the inbox", out)
	if err != nil {
		return err
	}
	return srv.ServeTCP(ln, host, a.Token)
}

// hostPort is the address to show for a listener on addr whose host is
// shown as host ("" for addr's own).
func hostPort(host, addr string) string {
	if host == "" {
		return addr
	}
	_, port, _ := net.SplitHostPort(addr)
	return net.JoinHostPort(host, port)
}

// arrival is what happens when a set arrives: the bell rings on the
// inbox's terminal, and ASKUSER_NOTIFY_COMMAND runs with the set's first
// question and where it came from.
func arrival(env *Env, out io.Writer) func(*core.Set) {
	command := env.Getenv("ASKUSER_NOTIFY_COMMAND")
	return func(s *core.Set) {
		if env.IO.ErrTTY {
			_, _ = io.WriteString(out, "\a")
		}
		if command == "" {
			return
		}
		header, question := s.First()
		run := notify.Start(command, "ASKUSER_FROM="+s.Source(), "ASKUSER_HEADER="+header, "ASKUSER_QUESTION="+question)
		go func() {
			<-run.Done()
			run.Warn(out)
		}()
	}
}

// lockedWriter lets the screen, the bell and the warnings of the
// notification command write to the inbox's stderr, each whole.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
