package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
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
	// web serves the queue on a web page too: on listen when it is set,
	// else on this machine only, on a port the system picks. open opens
	// the page in a browser.
	web, open bool
	// headless is set for --web with stdin /dev/null (a service, nohup, a
	// container without a terminal): the page is the only view, and the
	// inbox serves until a signal, logging each set that comes and goes.
	headless bool
}

func newInboxCmd(env *Env) *cobra.Command {
	var listen, ui string
	var webPage, open bool
	cmd := &cobra.Command{
		Use:   "inbox [--web [--open]] [--listen ADDR]",
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

Elsewhere (stdin not a terminal, --ui line or ASKUSER_UI=line,
ACCESSIBLE=1, TERM=dumb), the sets are asked as numbered prompts. Instead
of an answer, type /next to move to the next set, /cancel to cancel the
set shown, or /quit to quit (as do Ctrl+C and the end of the input).

When the inbox quits, every asker still waiting ends with exit 69. An
asker that stops waiting (killed, Ctrl+C, --timeout) withdraws its
questions. Each arrival rings the bell and runs ASKUSER_NOTIFY_COMMAND,
with ASKUSER_FROM, ASKUSER_HEADER and ASKUSER_QUESTION set.

The inbox listens on a Unix socket that only you can use: $ASKUSER_INBOX
when set, else $XDG_RUNTIME_DIR/askuser/inbox.sock; without
XDG_RUNTIME_DIR, /run/user/UID/askuser/inbox.sock when that directory is
yours, else askuser-UID/inbox.sock in the temporary directory (askers take
the first of the two that has a socket). Askers read the same variables. For agents in containers, VMs and CI, --listen ADDR also accepts
askers over TCP with a token: give them the ASKUSER_INBOX it prints. Across
machines, forward the socket with ssh -R rather: that is encrypted.

Across machines without a tunnel, the inbox and its askers meet on a NATS
server with JetStream: ASKUSER_INBOX=nats://[USER:PASSWORD@]HOST:PORT/NAME
(or tls://; creds=FILE, nkey=FILE, ca=FILE as parameters). The inbox keeps
an age identity in $XDG_CONFIG_HOME/askuser/inbox.age and prints the
address to give askers, with to= its recipient: they seal their questions
to it, and the answers come back sealed to them. Sets wait on the server
until answered, whether an inbox runs or not; several inboxes with the same
address and identity share the queue, and the first answer wins.

--web also shows the queue on a web page, at an address with a token of its
own that the inbox prints (--open opens it in $BROWSER, else the system's
browser): on 127.0.0.1, or with --listen on its address, beside the askers.
The page asks as --ui web does, and works on a phone, with the keyboard, a
screen reader, and without JavaScript. It shows the oldest set waiting,
with a Next button to move to the next one and Cancel to cancel it; either
view, the page or the terminal, can answer, and the other moves on.
With stdin from /dev/null (a service, nohup), --web serves the page until
a signal, and logs on stderr each set that arrives and how it ends;
without --web, nothing could answer there, and the inbox quits at once.

Exit codes: 0 quit, 1 another inbox already runs at the address, 64 usage
error, 69 the address of --listen or --web cannot be listened on, --ui tui
has no terminal, or the NATS server cannot be used, 129 hung up, 143
terminated.`,
		Example: `  askuser inbox                          # in a tmux pane; then use your agents as usual
  askuser inbox --web --open              # answer on a web page too
  askuser inbox --listen 0.0.0.0:7777     # also for agents in containers
  askuser inbox --web --listen 0.0.0.0:7777   # and the page for your phone
  ASKUSER_INBOX=/tmp/team.sock askuser inbox
  ASKUSER_INBOX=nats://nats.example.com:4222/alice askuser inbox   # askers anywhere: the address it prints
  ssh -R /tmp/askuser.sock:$XDG_RUNTIME_DIR/askuser/inbox.sock build-host   # askers there: ASKUSER_INBOX=/tmp/askuser.sock`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var opts inboxCmdOptions
			mode, err := inboxUI(ui, cmd.Flags().Changed("ui"), env)
			if err != nil {
				return err
			}
			a, err := core.AddrFromEnv(env.Getenv)
			if err != nil {
				return inboxAddrError(err)
			}
			opts.addr = a
			if open && !webPage {
				return ask.UsageErrorf("--open opens the inbox's web page: add --web, or drop --open")
			}
			opts.web, opts.open = webPage, open
			if cmd.Flags().Changed("listen") {
				l, err := web.ParseAddr(listen)
				if err != nil {
					return ask.UsageErrorf("invalid --listen %q: %s", listen, err)
				}
				opts.listen = &l
			}
			from := "--ui " + string(mode)
			if !cmd.Flags().Changed("ui") {
				from = "ASKUSER_UI=" + string(mode)
			}
			if opts.terminal, err = inboxOnTerminal(env, mode, from); err != nil {
				return err
			}
			opts.headless = opts.web && !opts.terminal && ask.StdinKind(env.IO.InFile, env.IO.InTTY) == "/dev/null"
			return inboxRun(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "", "also accept askers over TCP on `ADDR` (HOST:PORT), with a token; with --web, serve the page there too")
	cmd.Flags().BoolVar(&webPage, "web", false, "also show the queue on a web page, at an address with a token (on 127.0.0.1 unless --listen)")
	cmd.Flags().BoolVar(&open, "open", false, "with --web, open the page in the default browser ($BROWSER, else the system's)")
	cmd.Flags().StringVar(&ui, "ui", "", "how to show the questions: `auto`, tui (the terminal screen) or line (numbered prompts) (default $ASKUSER_UI when tui or line, else auto)")
	_ = cmd.RegisterFlagCompletionFunc("listen", fixedCompletions("127.0.0.1:0", "0.0.0.0:7777"))
	_ = cmd.RegisterFlagCompletionFunc("ui", fixedCompletions("auto", "tui", "line"))
	return cmd
}

// inboxUI is how the inbox shows its queue: --ui when it was given, else
// ASKUSER_UI when it says tui or line, else auto. ASKUSER_UI is the
// default of --ui for every command, so that one setting serves them all;
// its other values (web, inbox) say where askers ask, which is this
// inbox, and count as auto here, as tui and line do for askuser mcp.
func inboxUI(flag string, given bool, env *Env) (ask.UI, error) {
	if given {
		switch m := ask.UI(flag); m {
		case ask.UIAuto, ask.UITUI, ask.UILine:
			return m, nil
		}
		return "", ask.UsageErrorf("invalid --ui %q for the inbox: must be auto, tui or line", flag)
	}
	m, err := envUI(env)
	if err != nil {
		return "", err
	}
	if m != ask.UITUI && m != ask.UILine {
		return ask.UIAuto, nil
	}
	return m, nil
}

// inboxOnTerminal says whether the inbox shows its queue on the terminal
// screen rather than as line prompts, as askuser chooses its terminal UI:
// when stdin and stderr are terminals, unless the person asked for line
// prompts (--ui line, ACCESSIBLE, TERM=dumb). from names where ui came
// from, for the error.
func inboxOnTerminal(env *Env, ui ask.UI, from string) (bool, error) {
	terminals := env.IO.InTTY && env.IO.ErrTTY && env.IO.InFile != nil && env.IO.ErrFile != nil
	switch ui {
	case ask.UITUI:
		if !terminals {
			return false, &prompt.UnavailableError{Err: fmt.Errorf("%s needs a terminal, and stdin or stderr is not one: use --ui line", from)}
		}
		return true, nil
	case ask.UIAuto:
		plain, err := accessible(env.Getenv)
		return terminals && !plain, err
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
	home, _ := os.UserHomeDir()
	var log *screen.Log
	notify := arrival(env, out)
	q := core.NewQueue(core.QueueOptions{OnArrive: func(s *core.Set) {
		notify(s)
		if log != nil {
			log.Arrived(s)
		}
	}})
	var show interface{ Run(context.Context) error }
	switch {
	case opts.headless:
		log = &screen.Log{Queue: q, Out: out, Home: home}
		show = log
	case opts.terminal:
		term := screen.NewTerminal(screen.TerminalOptions{
			Queue: q, In: env.IO.InFile, Out: env.IO.ErrFile, Color: tui.ColorEnabled(env.Getenv, true),
			Where: opts.addr.String(), Home: home,
		})
		// What else is said while the screen holds the terminal (a
		// notification command that failed) goes above the screen; what
		// is said before it runs (the addresses) goes to the terminal as
		// it is.
		out.w = term
		show = term
	default:
		show = &screen.Line{Queue: q, In: env.IO.In, Out: out, Terminal: env.IO.InTTY, Where: opts.addr.String(), Home: home}
	}
	srv := core.NewServer(q, env.Schema)
	quit := "the person quit the inbox"
	defer func() { srv.Close(quit) }()

	if opts.addr.NATS != nil {
		if err := serveNATS(ctx, srv, opts.addr.NATS, say); err != nil {
			return err
		}
	} else if err := listenInbox(srv, opts.addr, out); err != nil {
		return err
	}
	if err := serveInboxExtras(env, opts, srv, q, home, out); err != nil {
		return err
	}
	switch {
	case opts.headless:
		say("askuser inbox: stdin is /dev/null, so the questions are answered on the web page only. The inbox serves until it is stopped (SIGTERM or SIGINT), and logs here each set that arrives or ends.\nWaiting for questions at %s.\n", opts.addr)
	case !opts.terminal:
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
	err = inboxEnded(ctx, env, opts, err, failed)
	sayLeft(say, q.Len(), opts.addr.NATS != nil)
	var sig *ask.SignalError
	if errors.As(err, &sig) {
		if sig.Sig != syscall.SIGTERM && sig.Sig != syscall.SIGHUP {
			// Ctrl+C is how the person quits.
			return nil
		}
		quit = "the inbox was stopped by " + sig.Name()
	}
	return err
}

// sayLeft tells the person, when the inbox quits, what becomes of the n
// sets still waiting: their askers are told, or, on NATS, they wait on
// the server for the next inbox.
func sayLeft(say func(string, ...any), n int, stored bool) {
	switch {
	case n == 0:
	case stored && n == 1:
		say("The inbox quits: the set still waiting stays on the NATS server, for the next inbox.\n")
	case stored:
		say("The inbox quits: the %d sets still waiting stay on the NATS server, for the next inbox.\n", n)
	case n == 1:
		say("The inbox quits: the asker still waiting is told.\n")
	default:
		say("The inbox quits: the %d askers still waiting are told.\n", n)
	}
}

// inboxEnded makes err, the error its view returned, the inbox's. The
// terminal screen's terminal ended or failed: when it hung up, the end of
// its input or a failed write may come before the signal does. Line
// prompts whose stdin was /dev/null quit at once: the person is told how
// to serve without a terminal.
func inboxEnded(ctx context.Context, env *Env, opts inboxCmdOptions, err error, failed bool) error {
	switch {
	case failed:
		return err
	case !opts.terminal:
		if err == nil && !opts.headless && ask.StdinKind(env.IO.InFile, env.IO.InTTY) == "/dev/null" {
			_, _ = fmt.Fprintln(env.IO.ErrOut, "Nothing can answer here without a terminal: run askuser inbox in a terminal, or add --web to answer on its web page.")
		}
		return err
	case err == nil:
		return nil
	case ask.HungUp(ctx, err, []*os.File{env.IO.InFile, env.IO.ErrFile}):
		return ask.Hangup
	case ctx.Err() != nil:
		return context.Cause(ctx)
	case errors.Is(err, prompt.ErrNoAnswer):
		return nil
	}
	return err
}

// serveInboxExtras serves what the inbox's flags add: askers over TCP
// (--listen) and the web page (--web).
func serveInboxExtras(env *Env, opts inboxCmdOptions, srv *core.Server, q *core.Queue, home string, out io.Writer) error {
	say := func(format string, args ...any) { _, _ = fmt.Fprintf(out, format, args...) }
	var page *inboxPage
	if opts.web {
		var err error
		if page, err = newInboxPage(q, home); err != nil {
			return err
		}
	}
	if opts.listen != nil {
		if err := serveInboxTCP(opts, srv, page, out); err != nil {
			return err
		}
	} else if page != nil {
		local, _ := web.ParseAddr(web.DefaultAddr)
		ln, host, err := web.ListenFor(local, "the inbox's page", out)
		if err != nil {
			return err
		}
		h, err := page.on(ln, host)
		if err != nil {
			_ = ln.Close()
			return err
		}
		srv.ServePage(ln, h)
	}
	switch {
	case opts.headless:
		say("Answer in your browser: %s\n", page.url)
	case page != nil:
		say("Answer in your browser too: %s\n", page.url)
	}
	if page != nil && opts.open {
		browser := env.Getenv("BROWSER")
		go func() {
			if err := web.OpenBrowser(browser, page.url); err != nil {
				say("Could not open a browser (%v); open the address above.\n", err)
			}
		}()
	}
	return nil
}

// serveInboxTCP accepts askers over TCP on --listen, with a token, and
// serves page there too when it is set.
func serveInboxTCP(opts inboxCmdOptions, srv *core.Server, page *inboxPage, out io.Writer) error {
	token := opts.addr.Token
	if token == "" {
		var err error
		if token, err = web.NewToken(); err != nil {
			return err
		}
	}
	what := "the inbox"
	if page != nil {
		what = "the inbox, with its page,"
	}
	ln, host, err := web.ListenFor(*opts.listen, what, out)
	if err != nil {
		return err
	}
	var h http.Handler
	if page != nil {
		if h, err = page.on(ln, host); err != nil {
			_ = ln.Close()
			return err
		}
	}
	if err := srv.ServeTCPWithPage(ln, host, token, h); err != nil {
		_ = ln.Close()
		return err
	}
	tcp := core.Addr{Host: hostPort(host, ln.Addr().String()), Token: token}
	_, _ = fmt.Fprintf(out, "Askers elsewhere reach this inbox with ASKUSER_INBOX='%s'\n", tcp.URL())
	return nil
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
		return ask.UsageErrorf("%s is %s: the inbox cannot listen there: %s", core.EnvAddr, a, err)
	}
	ln, host, err := web.ListenFor(l, "the inbox", out)
	if err != nil {
		return err
	}
	return srv.ServeTCP(ln, host, a.Token)
}

// serveNATS serves the inbox on the NATS server of a, with the inbox's age
// identity (made the first time), and prints the address askers use.
func serveNATS(ctx context.Context, srv *core.Server, a *core.NATSAddr, say func(string, ...any)) error {
	dir, err := os.UserConfigDir()
	if err != nil {
		return fmt.Errorf("find where to keep the inbox's identity: %w", err)
	}
	path := filepath.Join(dir, core.IdentityFile)
	id, created, err := core.LoadIdentity(path)
	if err != nil {
		return err
	}
	recipient := id.Recipient().String()
	if a.To != "" && a.To != recipient {
		return &prompt.UnavailableError{Err: fmt.Errorf("%s has to=%s, but this inbox's recipient is %s (kept in %s): use the address this inbox prints, or copy the identity of the inbox that printed yours", core.EnvAddr, a.To, recipient, path)}
	}
	if err := srv.ServeNATS(ctx, a, core.NATSOptions{Identity: id, By: inboxBy(), Say: say}); err != nil {
		return &prompt.UnavailableError{Err: err}
	}
	if created {
		say("Made this inbox's age identity in %s: askers seal their questions to it.\n", path)
	}
	withTo := *a
	withTo.To = recipient
	say("Askers anywhere reach this inbox with ASKUSER_INBOX='%s'\n", withTo.URL())
	return nil
}

// inboxBy names this inbox to the others on the same queue: USER@HOST.
func inboxBy() string {
	name := core.DefaultNATSName()
	if host, err := os.Hostname(); err == nil && host != "" {
		name += "@" + host
	}
	return name
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

// inboxPage is the inbox's web page (--web), before it is served.
type inboxPage struct {
	queue       *core.Queue
	home, token string
	url         string // its address, with its token, once served
}

// newInboxPage makes the page of q, with a token of its own.
func newInboxPage(q *core.Queue, home string) (*inboxPage, error) {
	token, err := web.NewToken()
	if err != nil {
		return nil, err
	}
	return &inboxPage{queue: q, home: home, token: token}, nil
}

// on returns the page's handler on ln, whose address is shown with host.
func (p *inboxPage) on(ln net.Listener, host string) (http.Handler, error) {
	h, err := screen.NewWeb(screen.WebOptions{Queue: p.queue, Addr: ln.Addr(), Host: host, Token: p.token, Home: p.home})
	if err != nil {
		return nil, err
	}
	p.url = "http://" + hostPort(host, ln.Addr().String()) + "/?token=" + p.token
	return h, nil
}
