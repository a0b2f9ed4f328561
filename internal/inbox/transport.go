package inbox

import "context"

// Transport is how an asker reaches an inbox (Addr.Dial): over HTTP on the
// Unix socket or TCP, or through the server that a NATS address names.
// Everything above it, the asker's side of askuser, is the same for each.
type Transport interface {
	// Probe says whether an inbox answers at the address. For a Durable
	// address, the server answering is enough: the set waits there for an
	// inbox.
	Probe(ctx context.Context) (Status, error)
	// Ask puts req to the inbox and waits until the set ends: it returns
	// the final event ("answered", "cancelled" or "closed"). queued, when
	// set, is called with the number of sets ahead when the inbox has
	// queued it. When ctx ends, the set is withdrawn and Ask returns
	// context.Cause(ctx). An inbox that goes before the final event is a
	// *GoneError; a request it refuses, a *RefusedError; no inbox at all,
	// an *UnreachableError.
	Ask(ctx context.Context, req *Request, queued func(ahead int)) (Event, error)
}

// Listener is how askers reach an inbox, seen from the inbox (Addr.Listen):
// the Unix socket (SocketListener), TCP (TCPListener) or the server of a
// NATS address. Serve starts serving srv's queue there and returns; it
// serves until srv is closed. The queue and the views know nothing of how
// askers come: a new transport is a new Listener.
type Listener interface {
	Serve(ctx context.Context, srv *Server) error
}
