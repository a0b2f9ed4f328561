package inbox

import "context"

// Transport is how an asker reaches an inbox: over HTTP on the Unix socket
// or TCP (Client), or through the server of a Remote address. Everything
// above it, the asker's side of askuser, is the same for each.
type Transport interface {
	// Addr is the address reached.
	Addr() Addr
	// Probe says whether an inbox answers at the address. For a Remote
	// address, the server answering is enough: the set waits there for an
	// inbox.
	Probe(ctx context.Context) (Status, error)
	// Ask puts req to the inbox and waits until the set ends, as
	// Client.Ask does.
	Ask(ctx context.Context, req *Request, queued func(ahead int)) (Event, error)
}

// Dial returns the transport that reaches the inbox at a.
func Dial(a Addr) Transport {
	if a.Remote != nil {
		return a.Remote.Dial()
	}
	return NewClient(a)
}

// Listener is how askers reach an inbox, seen from the inbox: the Unix
// socket (SocketListener), TCP (TCPListener) or the server of a Remote
// address (Remote.Listen). Serve starts serving srv's queue there and returns; it
// serves until srv is closed. The queue and the views know nothing of how
// askers come: a new transport is a new Listener.
type Listener interface {
	Serve(ctx context.Context, srv *Server) error
}
