//go:build unix

package tui

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ttyInput reads from the terminal without ever blocking past the end of
// the context it watches: it waits in poll(2) on the terminal and on a
// pipe that is written when that context is done, the window is resized
// or a redraw is asked for, so Ask can return promptly on a timeout or a
// signal and leave no reader behind to steal the next keystroke.
type ttyInput struct {
	// ctx is the context of the call reading (see watch), set for every
	// read: the key reader reads only while Ask or Idle runs. Only the
	// goroutine that reads sets it.
	ctx   context.Context
	fd    int
	wakeR *os.File
	wakeW *os.File
	winch chan os.Signal
	buf   [256]byte // what the last read read
}

// What is written on the wake pipe says why: wakeResized for a resize
// or a redraw, wakeDone for the end of the context.
const (
	wakeDone byte = iota
	wakeResized
)

// newTTYInput reads keys from f. Each receive from redraw (nil for none)
// interrupts a read as a resize does, for the prompt to be drawn again.
func newTTYInput(f interface{ Fd() uintptr }, redraw <-chan struct{}) (*ttyInput, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	in := &ttyInput{fd: int(f.Fd()), wakeR: r, wakeW: w, winch: make(chan os.Signal, 1)}
	signal.Notify(in.winch, syscall.SIGWINCH)
	go func() {
		for {
			select {
			case _, ok := <-in.winch:
				if !ok {
					return
				}
			case <-redraw:
			}
			in.wake(wakeResized)
		}
	}()
	return in, nil
}

// watch makes reads end when ctx is done, until stop is called.
func (in *ttyInput) watch(ctx context.Context) (stop func()) {
	in.ctx = ctx
	unwake := context.AfterFunc(ctx, func() { in.wake(wakeDone) })
	return func() {
		unwake()
		in.ctx = nil
	}
}

func (in *ttyInput) wake(why byte) {
	// A failed write means the pipe is closed: the reader is gone.
	_, _ = in.wakeW.Write([]byte{why})
}

// read returns the bytes the terminal sent next, at least one, valid
// until the next read. A negative timeout waits for as long as the
// context allows; otherwise read returns nothing when nothing arrived in
// time. It returns errResized when the window size changed.
func (in *ttyInput) read(timeout time.Duration) ([]byte, error) {
	deadline := time.Now().Add(timeout)
	for {
		if in.ctx.Err() != nil {
			return nil, context.Cause(in.ctx)
		}
		fds := []unix.PollFd{
			{Fd: int32(in.fd), Events: unix.POLLIN},
			{Fd: int32(in.wakeR.Fd()), Events: unix.POLLIN},
		}
		ms := -1 // what is left of the timeout, each time round
		if timeout >= 0 {
			ms = max(0, int(time.Until(deadline)/time.Millisecond))
		}
		n, err := unix.Poll(fds, ms)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, nil
		}
		if fds[1].Revents != 0 {
			// The pipe has something to read, so this read does not
			// wait; what it leaves wakes the next poll at once.
			n, _ := in.wakeR.Read(in.buf[:])
			if bytes.IndexByte(in.buf[:n], wakeResized) >= 0 {
				return nil, errResized
			}
			continue // the check at the top of the loop says why
		}
		if fds[0].Revents&unix.POLLNVAL != 0 {
			return nil, unix.EBADF
		}
		n, err = unix.Read(in.fd, in.buf[:])
		switch {
		case errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EIO):
			// A terminal whose other side has gone away (hang-up) reads EIO.
			return nil, io.EOF
		case err != nil:
			return nil, err
		case n == 0:
			return nil, io.EOF
		}
		return in.buf[:n], nil
	}
}

func (in *ttyInput) close() {
	signal.Stop(in.winch)
	close(in.winch)
	// The pipe only ever woke the reader; nothing is lost with it.
	_ = in.wakeW.Close()
	_ = in.wakeR.Close()
}
