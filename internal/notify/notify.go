// Package notify runs ASKUSER_NOTIFY_COMMAND, the person's own way of being
// reached elsewhere (a desktop notification, a chat message, a push to the
// phone) when questions appear: for askuser when it asks, and for the
// inbox when a set arrives, and again when it still waits; and the inbox's
// ASKUSER_NOTIFY_END_COMMAND, which takes the notification back when the
// set ends. What each run is told of the set is a Notice. It also reads
// the push service's reply topic, where the notification's buttons post
// (Subscribe).
package notify

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"

	"github.com/askuser/askuser/prompt"
)

// Command is the person's notification command: ASKUSER_NOTIFY_COMMAND,
// or the inbox's ASKUSER_NOTIFY_END_COMMAND.
type Command struct {
	// Name is the variable that gives it, for its warning.
	Name string
	// Line is the command, run through the shell; "" for none.
	Line string
	// Private keeps the questions' text out of the notices
	// (ASKUSER_NOTIFY_PRIVATE): they say who asks, and the set's page.
	Private bool
}

// Run is one run of the notification command. It is never waited for: the
// questions do not depend on it, and askuser may finish first.
type Run struct {
	name string
	done chan struct{}
	err  error
}

// Start runs the command through the shell, with the process's
// environment and the variables that tell n (see Notice), and returns at
// once; it returns nil when there is no command. The command's stdout is
// not askuser's (that carries only the answers); the start of its stderr
// is kept for the error that Failed reports.
func (c Command) Start(n Notice) *Run {
	if c.Line == "" {
		return nil
	}
	r := &Run{name: c.Name, done: make(chan struct{})}
	shell, flag := "/bin/sh", "-c"
	if runtime.GOOS == "windows" {
		shell, flag = "cmd", "/C"
	}
	cmd := exec.Command(shell, flag, c.Line)
	// The command runs with askuser's environment, as Environ gives it
	// (nothing of it is read here), and the variables of the notice.
	cmd.Env = append(environ(cmd.Environ()), n.vars(c.Private)...)
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{buf: &stderr, max: 500}
	go func() {
		defer close(r.done)
		// Stdout is left nil: the null device.
		if err := cmd.Run(); err != nil {
			if msg := strings.TrimSpace(stderr.String()); msg != "" {
				err = fmt.Errorf("%w: %s", err, msg)
			}
			r.err = err
		}
	}()
	return r
}

// Done returns a channel closed when the command has ended.
func (n *Run) Done() <-chan struct{} { return n.done }

// Failed returns the command's error if it has already failed, and nil
// while it runs or when it succeeded.
func (n *Run) Failed() error {
	select {
	case <-n.done:
		return n.err
	default:
		return nil
	}
}

// Warn writes, when the command has failed, a warning that names it and
// says so on w (the person's terminal). The
// command's own stderr is in the message: drawn through Display, so that
// its escape sequences are shown, not obeyed, and its lines make one
// line. A warning that cannot be written has nowhere else to go.
func (n *Run) Warn(w io.Writer) {
	if err := n.Failed(); err != nil {
		_, _ = fmt.Fprintf(w, "Warning: %s failed: %s\n", n.name, prompt.Display(err.Error()))
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
