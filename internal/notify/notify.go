// Package notify runs ASKUSER_NOTIFY_COMMAND, the person's own way of being
// reached elsewhere (a desktop notification, a chat message) when questions
// appear: for askuser when it asks, and for the inbox when a set arrives.
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

// Run is one run of the notification command. It is never waited for: the
// questions do not depend on it, and askuser may finish first.
type Run struct {
	done chan struct{}
	err  error
}

// Start runs command through the shell with the process's environment and
// vars ("NAME=value") added, and returns at once. The command's stdout is
// not askuser's (that carries only the answers); the start of its stderr
// is kept for the error that Failed reports.
//
// Each value is passed as prompt.Display shows it: the text comes from
// the asker, and a command that echoes it (into tmux, a notification)
// must not obey its escape sequences or bidirectional controls, and a NUL
// in it would keep the command from starting at all.
func Start(command string, vars ...string) *Run {
	n := &Run{done: make(chan struct{})}
	shell, flag := "/bin/sh", "-c"
	if runtime.GOOS == "windows" {
		shell, flag = "cmd", "/C"
	}
	c := exec.Command(shell, flag, command)
	// The command runs with askuser's environment, as Environ gives it
	// (nothing of it is read here), and the variables that describe the
	// questions.
	c.Env = c.Environ()
	for _, v := range vars {
		name, value, _ := strings.Cut(v, "=")
		c.Env = append(c.Env, name+"="+prompt.Display(value))
	}
	var stderr bytes.Buffer
	c.Stderr = &limitedBuffer{buf: &stderr, max: 500}
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

// Warn writes, when the command has failed, a warning that says so on w
// (the person's terminal). The command's own stderr is in the message:
// drawn through Display, so that its escape sequences are shown, not
// obeyed, and its lines make one line. A warning that cannot be written
// has nowhere else to go.
func (n *Run) Warn(w io.Writer) {
	if err := n.Failed(); err != nil {
		_, _ = fmt.Fprintf(w, "Warning: ASKUSER_NOTIFY_COMMAND failed: %s\n", prompt.Display(err.Error()))
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
