package ask

import (
	"context"

	"github.com/askuser/askuser/internal/iostreams"
)

// Streams are the standard streams that asking is given, and the signals
// it watches meanwhile: all it takes from outside. It reads no environment
// variable: the command line resolves its Options from them.
type Streams struct {
	IO *iostreams.Streams
	// WatchSignals, when set, returns a ctx that ends with a *SignalError
	// on SIGINT, SIGTERM or SIGHUP, until stop is called.
	WatchSignals func(ctx context.Context) (_ context.Context, stop func())
}
