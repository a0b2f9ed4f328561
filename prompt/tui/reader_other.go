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
	ctx    context.Context
	chunks chan []byte
	errs   chan error
	want   chan int
	// pending says that the goroutine has been asked for a read that has
	// not been delivered yet.
	pending bool
	rest    []byte
}

func newTTYInput(ctx context.Context, r io.Reader) (*ttyInput, error) {
	in := &ttyInput{ctx: ctx, chunks: make(chan []byte), errs: make(chan error, 1), want: make(chan int)}
	go func() {
		for size := range in.want {
			buf := make([]byte, size)
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

func (in *ttyInput) read(p []byte, timeout time.Duration) (int, error) {
	if len(in.rest) > 0 {
		n := copy(p, in.rest)
		in.rest = in.rest[n:]
		return n, nil
	}
	var after <-chan time.Time
	if timeout >= 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		after = t.C
	}
	if !in.pending {
		in.want <- len(p)
		in.pending = true
	}
	select {
	case b := <-in.chunks:
		in.pending = false
		n := copy(p, b)
		in.rest = b[n:]
		return n, nil
	case err := <-in.errs:
		in.pending = false
		return 0, err
	case <-after:
		return 0, nil
	case <-in.ctx.Done():
		return 0, context.Cause(in.ctx)
	}
}

func (in *ttyInput) close() {}
