package inbox

import "context"

// Transport is how an asker reaches an inbox: over HTTP on the Unix socket
// or TCP (Client), or through a NATS server (see NATSAddr). Everything
// above it, the asker's side of askuser, is the same for each.
type Transport interface {
	// Addr is the address reached.
	Addr() Addr
	// Probe says whether an inbox answers at the address. On NATS, the
	// server answering is enough: the set waits there for an inbox.
	Probe(ctx context.Context) (Status, error)
	// Ask puts req to the inbox and waits until the set ends, as
	// Client.Ask does.
	Ask(ctx context.Context, req *Request, queued func(ahead int)) (Event, error)
}

// Dial returns the transport that reaches the inbox at a.
func Dial(a Addr) Transport {
	if a.NATS != nil {
		return &natsClient{addr: a}
	}
	return NewClient(a)
}
