package natsinbox

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/askuser/askuser/internal/inbox"
)

// wireSet is a set as its asker stores it, before it is sealed.
type wireSet struct {
	Request inbox.Request `json:"request"`
	// Reply is the asker's fresh age recipient: the end is sealed to it.
	Reply string `json:"reply"`
	// Secret names the set's subjects (setID, endID, copyID): the inbox
	// checks it against the subject the set came on.
	Secret string `json:"secret"`
	// Root, in a set asked again, is the secret of the set first asked,
	// which only its asker knows: its anchor says since when the asker
	// waits, when an inbox withdrew it for want of beats (see
	// feed.rootOf).
	Root string `json:"root,omitempty"`
}

// The ends a wireEnd carries, beside inbox.EventAnswered and
// inbox.EventCancelled.
const (
	endWithdrawn = "withdrawn" // the asker stopped waiting, or is gone
	endRefused   = "refused"   // the inbox refused the set
)

// wireEnd is how a set ended. An inbox's end is sealed to the asker and
// to the inbox (so that every inbox on the queue can say who answered);
// an asker's withdrawal, to the inbox alone (unsealed under
// insecure=plaintext). Its subject, which
// only who knows the set's secret can name, is what makes it the set's.
type wireEnd struct {
	End string `json:"end"`
	// Answer is the final event of the protocol, for EventAnswered.
	Answer *inbox.Event `json:"answer,omitempty"`
	// By names the inbox that answered or cancelled.
	By     string `json:"by,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Withdraw, in an asker's withdrawal, is the code of an
	// inbox.Withdrawal that says why, which the inbox turns into its own
	// words; Reason is then for an inbox that knows no codes.
	Withdraw string `json:"withdraw,omitempty"`
	// Unheard is a withdrawal by an inbox that heard no beat of the
	// asker's for deadAfter: an asker that still waits asks again.
	Unheard bool `json:"unheard,omitempty"`
	// Refused is why the inbox refused the set, for endRefused.
	Refused *inbox.ErrorBody `json:"refused,omitempty"`
	// Proof, in an inbox's withdrawal for want of beats, is a MAC of the
	// end's id that only an inbox with the queue's identity can make (see
	// listener.unheardProof): an asker, which may store its own set's end
	// too, cannot say so of a set no inbox withdrew.
	Proof string `json:"proof,omitempty"`
}

// client is the Transport of an inbox on NATS: each Probe and Ask connects
// to the server on its own.
type client struct{ addr *address }

// dial connects to the server. An asker whose server is slow to take its
// connection (a fleet of askers started at once) tries again for a while,
// saying so, unless patient is false (a probe); a server that refuses it,
// or that nothing answers for connectPatience, is unreachable.
func (c *client) dial(ctx context.Context, patient bool) (*conn, error) {
	if why := c.addr.sealRequired(); why != "" {
		return nil, &inbox.ServerError{Msg: why}
	}
	said := notes{}
	deadline := time.Now().Add(connectPatience)
	for {
		conn, err := dial(c.addr, roleAgent, "askuser")
		if err == nil || !patient || !slow(err) || time.Now().After(deadline) {
			return conn, err
		}
		said.once(ctx, noteSlow, c.addr.serverURL())
		if err := sleep(ctx, 250*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

// connectPatience is how long an asker tries to connect to a server that
// is slow to take connections.
const connectPatience = 30 * time.Second

// Probe connects to the server: then the set can wait there, whether an
// inbox is connected yet or not.
func (c *client) Probe(ctx context.Context) (inbox.Status, error) {
	conn, err := c.dial(ctx, false)
	if err != nil {
		return inbox.Status{}, err
	}
	conn.nc.Close()
	return inbox.Status{Inbox: inbox.Name, Version: inbox.Version}, nil
}

// Ask stores the set, sealed, in the inbox's stream, beats while it waits,
// and returns its end, always the one the stream stored. A set that an
// inbox withdrew because it heard no beat (the asker, or the inbox, was
// away a while: asleep, cut off) is asked again, under a new id, naming
// the first (its root), which keeps its waiting time. When ctx ends, the
// set is withdrawn.
func (c *client) Ask(ctx context.Context, req *inbox.Request, queued func(ahead int)) (inbox.Event, error) {
	conn, err := c.dial(ctx, true)
	if err != nil {
		return inbox.Event{}, err
	}
	defer conn.nc.Close()
	// Questions too large for the server are refused now, rather than
	// after a wait for an inbox to seal them to.
	if n := len(req.Questions) + sealOverhead; int64(n) > conn.nc.MaxPayload() {
		return inbox.Event{}, tooLarge(c.addr, conn, n)
	}
	to, keyKnown, err := c.recipient(ctx, conn)
	if err != nil {
		return inbox.Event{}, err
	}
	root := ""
	for {
		a := &ask{addr: c.addr, conn: conn, to: to, keyKnown: keyKnown, req: req, root: root}
		e, err := a.run(ctx, queued)
		if !errors.Is(err, errUnheard) {
			return e, err
		}
		root, queued = cmp.Or(root, a.secret), nil
	}
}

// recipient is the recipient the set is sealed to: to=, which must be the
// inbox's; else the one the first inbox stored on the server, waited for
// while no inbox has run; none with insecure=plaintext and no inbox yet.
func (c *client) recipient(ctx context.Context, conn *conn) (to string, keyKnown bool, err error) {
	for {
		key, err := conn.key(ctx)
		if errors.Is(err, nats.ErrNoResponders) {
			// No stream: no inbox has run here, or JetStream is off; or,
			// on a cluster, its servers have no quorum.
			err = conn.makeStreams(ctx)
		}
		switch {
		case ctx.Err() != nil:
			return "", false, context.Cause(ctx)
		case errors.Is(err, errNoQuorum):
			conn.said.once(ctx, noteNoQuorum, c.addr.serverURL())
		case slow(err) && conn.refusedSubject(c.addr.setsStream()) == nil:
			conn.said.once(ctx, noteSlow, c.addr.serverURL())
		case err != nil:
			if _, ok := errors.AsType[*inbox.ServerError](err); ok {
				return "", false, err
			}
			return "", false, conn.streamError(c.addr.setsStream(), err)
		case c.addr.To != "":
			return c.addr.To, key != "", keyMismatch(c.addr, key)
		case key != "" || c.addr.Plaintext:
			return key, key != "", nil
		default:
			// The asker's first words on stderr come from inbox.Asker;
			// this one says why they are late.
			conn.said.once(ctx, "No inbox has run at %s yet: waiting for the first, to seal the questions to it.", c.addr)
		}
		if err := sleep(ctx, pollEvery); err != nil {
			return "", false, err
		}
	}
}

// slow reports whether err is a connection or a request of the server's
// that timed out, not one refused: a busy server, which the asker waits
// out, as it waits out a restart. A context's deadline is a net.Error
// that timed out.
func slow(err error) bool {
	netErr, ok := errors.AsType[net.Error](err)
	return ok && netErr.Timeout() || errors.Is(err, nats.ErrTimeout)
}

// notes tells the person each note once, by its format.
type notes map[string]bool

func (n notes) once(ctx context.Context, format string, args ...any) {
	if !n[format] {
		n[format] = true
		inbox.Notef(ctx, format, args...)
	}
}

// The notes of a server that is slow to answer, and of a cluster whose
// servers that keep the queue do not answer.
const (
	noteSlow     = "The NATS server at %s is slow to answer: still trying."
	noteNoQuorum = "The inbox's queue on the NATS cluster at %s does not answer: the servers that keep it have no quorum (down, or electing its leader), unless no inbox has run there yet; waiting until it does."
)

// errNoQuorum is a queue on a cluster that does not answer, and that the
// asker cannot make: its servers may be down or electing a leader, which
// is waited out, as a restart of one server is.
var errNoQuorum = errors.New("the queue's servers on the cluster do not answer")

// keyMismatch refuses a to= that is not the recipient of the inbox, as
// the first inbox stored it on the server: the inbox could not open the
// set.
func keyMismatch(a *address, key string) error {
	if key == "" || key == a.To {
		return nil
	}
	return &inbox.ServerError{Msg: fmt.Sprintf("%s has to=%s, but the inbox at %s seals to %s: give the to= of the address that askuser inbox printed", inbox.EnvAddr, a.To, a, key)}
}

// sealOverhead is about what a set's envelope and age add to its
// questions.
const sealOverhead = 1024

func tooLarge(a *address, c *conn, n int) error {
	return &inbox.ServerError{Err: nats.ErrMaxPayload, Msg: fmt.Sprintf("the questions, sealed, are about %d bytes, more than the NATS server at %s takes in a message (%d): raise its max_payload (max_payload: 4MB in nats-server.conf)", n, a.serverURL(), c.nc.MaxPayload())}
}

// errUnheard is a set withdrawn by an inbox that heard no beat of its
// asker's, while the asker still waits.
var errUnheard = errors.New("the set was withdrawn for want of beats while its asker still waits")
