package ask

import (
	"context"
	"errors"
	"os"
	"slices"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/askuser/askuser/prompt"
)

// A terminal hangs up when its other side goes away (a window closed, an
// SSH connection dropped). The kernel then ends the reads of the terminal,
// fails its writes and sends SIGHUP, in an order and with a delay of its
// own. Whichever the prompter meets first, a run ended by a hang-up
// ends with exit 129, whatever the way of asking: the signal is not
// needed to tell, and the signal that comes later is ignored (see
// WatchSignals).

// hangupGrace is how long a run whose terminal read as ended is
// given to turn out to have hung up, where the terminal cannot say so
// itself: the kernel's SIGHUP may arrive just after the end of input it
// causes. A test makes it longer, to tell a wait for it from a busy
// machine's delay.
var hangupGrace = 250 * time.Millisecond

// hangup is the cause of a run ended by its terminal hanging
// up, seen before the signal.
var hangup = &SignalError{Sig: syscall.SIGHUP}

// Ended returns err, the error that a run held on terminals ended
// with, as the person knows it: a hang-up when one of them hung up,
// whether its signal has come yet or not (see hungUp), else the reason ctx
// ended (a signal) rather than what the prompter saw, such as the end of
// input that a hang-up also causes.
func Ended(ctx context.Context, err error, terminals []*os.File) error {
	if hungUp(ctx, err, terminals) {
		return hangup
	}
	if err != nil && ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return err
}

// hungUp reports whether a run that failed with err did so
// because a terminal it was held on hung up. terminals are the sides of
// the run that are terminals. A terminal that has hung up answers
// every request with EIO (Linux does). Where it does not say so, an end
// of input or a failed read is given hangupGrace for the signal to end
// ctx.
func hungUp(ctx context.Context, err error, terminals []*os.File) bool {
	if err == nil || len(terminals) == 0 || ctx.Err() != nil || errors.Is(err, prompt.ErrCancelled) {
		return false
	}
	if slices.ContainsFunc(terminals, terminalGone) {
		return true
	}
	if _, failed := errors.AsType[*os.PathError](err); failed || errors.Is(err, prompt.ErrNoAnswer) {
		select {
		case <-ctx.Done():
		case <-time.After(hangupGrace):
		}
	}
	return false
}

// terminalGone reports whether the terminal f answers as one that has hung
// up. It asks without changing how f is read (f.Fd would make it block).
func terminalGone(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var gone bool
	_ = rc.Control(func(fd uintptr) {
		_, err := term.GetState(int(fd))
		gone = errors.Is(err, syscall.EIO)
	})
	return gone
}
