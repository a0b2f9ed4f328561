//go:build !unix

package tui

import (
	"context"
	"io"
	"time"
)

// ttyInput reads from the terminal in a goroutine, so that Ask can return
// when its context is done. Without poll(2) the goroutine stays blocked in
// Read until the next keystroke, which the process is about to stop caring
// about: Ask is only ever abandoned on the way out.
type ttyInput struct {
	// ctx is the context of the call reading (see watch), set for every
	// read: the key reader reads only while Ask or Idle runs.
	ctx    context.Context
	redraw <-chan struct{}
	chunks chan []byte
	errs   chan error
	want   chan struct{}
	// pending says that the goroutine has been asked for a read that has
	// not been delivered yet.
	pending bool
}

// newTTYInput reads keys from r. Each receive from redraw (nil for none)
// interrupts a read as a resize does, for the prompt to be drawn again.
func newTTYInput(r io.Reader, redraw <-chan struct{}) (*ttyInput, error) {
	in := &ttyInput{redraw: redraw, chunks: make(chan []byte), errs: make(chan error, 1), want: make(chan struct{})}
	go func() {
		for range in.want {
			buf := make([]byte, 256)
			n, err := r.Read(buf)
			if n > 0 {
				in.chunks <- buf[:n]
			}
			if err != nil {
				in.errs <- err
				return
			}
		}
	}()
	return in, nil
}

// watch makes reads end when ctx is done, until stop is called.
func (in *ttyInput) watch(ctx context.Context) (stop func()) {
	in.ctx = ctx
	return func() { in.ctx = nil }
}

// read returns the bytes the terminal sent next, at least one. A negative
// timeout waits for as long as the context allows; otherwise read returns
// nothing when nothing arrived in time. It returns errResized when a
// redraw is asked for.
func (in *ttyInput) read(timeout time.Duration) ([]byte, error) {
	var after <-chan time.Time
	if timeout >= 0 {
		after = time.After(timeout)
	}
	if !in.pending {
		in.want <- struct{}{}
		in.pending = true
	}
	select {
	case b := <-in.chunks:
		in.pending = false
		return b, nil
	case err := <-in.errs:
		in.pending = false
		return nil, err
	case <-after:
		return nil, nil
	case <-in.redraw:
		return nil, errResized
	case <-in.ctx.Done():
		return nil, context.Cause(in.ctx)
	}
}

func (in *ttyInput) close() {}
