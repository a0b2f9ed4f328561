package ask

import (
	"context"
	"io"
	"os"
)

// Streams are the process's standard streams, injected so that every
// command runs in tests without a real terminal.
type Streams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// InFile and ErrFile are In and ErrOut when they are files; the terminal
	// UI needs their descriptors.
	InFile, ErrFile *os.File
	InTTY, ErrTTY   bool
}

// Env is what a session needs from outside: the streams, and the signals
// to watch while it asks. It reads no environment variable: its Options
// are resolved from them.
type Env struct {
	IO *Streams
	// WatchSignals, when set, returns a ctx that ends with a *SignalError
	// on SIGINT, SIGTERM or SIGHUP, until stop is called.
	WatchSignals func(ctx context.Context) (_ context.Context, stop func())
}
