package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// askFlags are the flags of every command that asks: how, where, for how
// long, and how to get the person's attention.
type askFlags struct {
	ui       string
	tty      bool
	timeout  time.Duration
	bell     bool
	noReview bool
	// listen and open serve --ui web.
	listen string
	open   bool
}

func (f *askFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.ui, "ui", "auto", "how to ask: `auto`, tui (terminal UI), line (numbered prompts) or web (a local web page)")
	fs.BoolVar(&f.tty, "tty", false, "ask on the controlling terminal even when stdin is a pipe")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up after `DURATION` (e.g. 5m) without an answer: exit 124 (default $ASKUSER_TIMEOUT, else none)")
	fs.BoolVar(&f.bell, "bell", false, "ring the terminal bell when the first question appears")
	fs.StringVar(&f.listen, "listen", "", "with --ui web, serve the page on `ADDR` (HOST:PORT; default 127.0.0.1 on a random port)")
	fs.BoolVar(&f.open, "open", false, "with --ui web, open the page in the default browser ($BROWSER, else the system's)")
	cmd.RegisterFlagCompletionFunc("ui", fixedCompletions("auto", "tui", "line", "web"))
	cmd.RegisterFlagCompletionFunc("listen", fixedCompletions("127.0.0.1:0", "localhost:8080"))
}

// checkUI reads --ui and checks the flags that go with it, before anything
// is read.
func (f *askFlags) checkUI(cmd *cobra.Command) (uiMode, error) {
	mode, err := parseUI(f.ui)
	if err != nil {
		return "", err
	}
	return mode, checkWebFlags(mode, f, cmd.Flags().Changed("listen"))
}

// session is one run of asking: the asker, and the context that ends it.
type session struct {
	*asker
	ctx    context.Context
	cancel context.CancelFunc
	notify *notification
}

// start checks the flags, opens the asker and arms the timeout. first is
// the first question that will be asked, for the notification command.
func (f *askFlags) start(ctx context.Context, cmd *cobra.Command, env *Env, src *source, first schema.Question) (*session, error) {
	mode, err := f.checkUI(cmd)
	if err != nil {
		return nil, err
	}
	timeout, err := f.effectiveTimeout(cmd, env)
	if err != nil {
		return nil, err
	}
	// Signals are watched from here on, before the terminal is touched, and
	// only in runs that ask: see Env.WatchSignals.
	stop := func() {}
	if env.WatchSignals != nil {
		ctx, stop = env.WatchSignals(ctx)
	}
	var a *asker
	if mode == uiWeb {
		a, err = newWebAsker(env, f, cmd.Flags().Changed("listen"))
	} else {
		a, err = newAsker(env, mode, f.tty, !f.noReview, src)
	}
	if err != nil {
		stop()
		return nil, err
	}
	s := &session{asker: a, ctx: ctx, cancel: stop}
	if timeout > 0 {
		var cancel context.CancelFunc
		s.ctx, cancel = context.WithTimeoutCause(ctx, timeout, &timeoutError{after: timeout})
		s.cancel = func() { cancel(); stop() }
	}
	if f.bell {
		io.WriteString(a.out, "\a")
	}
	if c := env.Getenv("ASKUSER_NOTIFY_COMMAND"); c != "" {
		s.notify = startNotification(c, first)
	}
	return s, nil
}

// end releases what the session opened and reports a failed notification
// command, now that the prompts are off the screen.
func (s *session) end(errOut io.Writer) {
	s.cancel()
	s.close()
	if s.notify != nil {
		if err := s.notify.failed(); err != nil {
			fmt.Fprintf(errOut, "Warning: ASKUSER_NOTIFY_COMMAND failed: %v\n", err)
		}
	}
}

// hangupGrace is how long a terminal that read as ended is given to turn
// out to have hung up: the kernel's SIGHUP may arrive just after the end of
// input it causes.
const hangupGrace = 250 * time.Millisecond

// settle prefers the reason the session's context ended over the error the
// asker saw: a timeout or a signal, rather than the end of input that a
// hang-up also causes.
func (s *session) settle(err error) error {
	if err == nil {
		return nil
	}
	if s.tui && errors.Is(err, prompt.ErrNoAnswer) {
		select {
		case <-s.ctx.Done():
		case <-time.After(hangupGrace):
		}
	}
	if s.ctx.Err() != nil {
		return context.Cause(s.ctx)
	}
	return err
}

// effectiveTimeout is --timeout, else $ASKUSER_TIMEOUT, else none.
func (f *askFlags) effectiveTimeout(cmd *cobra.Command, env *Env) (time.Duration, error) {
	if cmd.Flags().Changed("timeout") {
		if f.timeout < 0 {
			return 0, usageErrorf("invalid --timeout %s: must not be negative", f.timeout)
		}
		return f.timeout, nil
	}
	v := strings.TrimSpace(env.Getenv("ASKUSER_TIMEOUT"))
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, usageErrorf("invalid ASKUSER_TIMEOUT %q: must be a duration such as 30s or 5m", v)
	}
	return d, nil
}

// notification is a run of ASKUSER_NOTIFY_COMMAND. It is never waited for:
// the prompt does not depend on it, and askuser may finish first.
type notification struct {
	done chan struct{}
	err  error
}

func startNotification(command string, q schema.Question) *notification {
	n := &notification{done: make(chan struct{})}
	shell, flag := "/bin/sh", "-c"
	if runtime.GOOS == "windows" {
		shell, flag = "cmd", "/C"
	}
	c := exec.Command(shell, flag, command)
	c.Env = append(os.Environ(), "ASKUSER_HEADER="+q.Header, "ASKUSER_QUESTION="+q.Question)
	var stderr bytes.Buffer
	c.Stderr = &limitedBuffer{buf: &stderr, max: 500}
	// Not our stdout: that carries only the answers.
	c.Stdout = nil
	if err := c.Start(); err != nil {
		n.err = err
		close(n.done)
		return n
	}
	go func() {
		defer close(n.done)
		if err := c.Wait(); err != nil {
			if msg := strings.TrimSpace(stderr.String()); msg != "" {
				err = fmt.Errorf("%w: %s", err, msg)
			}
			n.err = err
		}
	}()
	return n
}

// failed returns the command's error if it has already failed.
func (n *notification) failed() error {
	select {
	case <-n.done:
		return n.err
	default:
		return nil
	}
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
