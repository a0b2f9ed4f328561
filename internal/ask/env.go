package ask

import (
	"context"

	"github.com/askuser/askuser/internal/iostreams"
)

// Env is what a session needs from outside: the streams, and the signals
// to watch while it asks. It reads no environment variable: its Options
// are resolved from them.
type Env struct {
	IO *iostreams.Streams
	// WatchSignals, when set, returns a ctx that ends with a *SignalError
	// on SIGINT, SIGTERM or SIGHUP, until stop is called.
	WatchSignals func(ctx context.Context) (_ context.Context, stop func())
}
