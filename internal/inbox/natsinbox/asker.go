package natsinbox

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"filippo.io/age"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

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
	// Root, in a set asked again, is the id of the set first asked: its
	// anchor says since when the asker waits (see ask.run).
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
	// Unheard is a withdrawal by an inbox that heard no beat of the
	// asker's for deadAfter: an asker that still waits asks again.
	Unheard bool `json:"unheard,omitempty"`
	// Refused is why the inbox refused the set, for endRefused.
	Refused *inbox.ErrorBody `json:"refused,omitempty"`
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
	var slowly slowNote
	deadline := time.Now().Add(connectPatience)
	for {
		conn, err := dial(c.addr, roleAgent, "askuser")
		if err == nil || !patient || !slowConnect(err) || time.Now().After(deadline) {
			return conn, err
		}
		slowly.note(ctx, c.addr)
		select {
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// connectPatience is how long an asker tries to connect to a server that
// is slow to take connections.
const connectPatience = 30 * time.Second

// slowConnect reports whether err is a connection that timed out, not one
// refused: the server may be only busy.
func slowConnect(err error) bool {
	netErr, ok := errors.AsType[net.Error](err)
	return ok && netErr.Timeout() || errors.Is(err, nats.ErrTimeout)
}

// Probe connects to the server: then the set can wait there, whether an
// inbox is connected yet or not.
func (c *client) Probe(ctx context.Context) (inbox.Status, error) {
	conn, err := c.dial(ctx, false)
	if err != nil {
		return inbox.Status{}, err
	}
	conn.close()
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
	defer conn.close()
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
		root, queued = cmp.Or(root, a.id), nil
	}
}

// recipient is the recipient the set is sealed to: to=, which must be the
// inbox's; else the one the first inbox stored on the server, waited for
// while no inbox has run; none with insecure=plaintext and no inbox yet.
func (c *client) recipient(ctx context.Context, conn *conn) (to string, keyKnown bool, err error) {
	said := false
	var slowly slowNote
	for {
		key, err := conn.key(ctx)
		if errors.Is(err, nats.ErrNoResponders) {
			// No stream: no inbox has run here, or JetStream is off.
			err = conn.makeStreams(ctx)
		}
		switch {
		case ctx.Err() != nil:
			return "", false, context.Cause(ctx)
		case slow(err) && conn.refusedSubject(c.addr.setsStream()) == nil:
			slowly.note(ctx, c.addr)
		case err != nil:
			if _, ok := errors.AsType[*inbox.ServerError](err); ok {
				return "", false, err
			}
			return "", false, conn.streamError(c.addr.setsStream(), err)
		case c.addr.To != "":
			return c.addr.To, key != "", keyMismatch(c.addr, key)
		case key != "" || c.addr.Plaintext:
			return key, key != "", nil
		case !said:
			// The asker's first words on stderr come from inbox.Asker;
			// this one says why they are late.
			said = true
			inbox.Notef(ctx, "No inbox has run at %s yet: waiting for the first, to seal the questions to it.", c.addr)
		}
		select {
		case <-ctx.Done():
			return "", false, context.Cause(ctx)
		case <-time.After(pollEvery):
		}
	}
}

// slow reports whether err is a request of the server's that timed out:
// a busy server, which the asker waits out, as it waits out a restart.
func slow(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout)
}

// slowNote tells the person, once, that the server is slow to answer.
type slowNote bool

func (s *slowNote) note(ctx context.Context, a *address) {
	if !*s {
		*s = true
		inbox.Notef(ctx, "The NATS server at %s is slow to answer: still trying.", a.serverURL())
	}
}

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

// ask is one set put to an inbox on NATS, while its asker waits.
type ask struct {
	addr *address
	conn *conn
	to   string
	req  *inbox.Request
	root string // the id of the set first asked, when this one asks it again

	secret, id, end string
	keyKnown        bool // the inbox's key was on the server, and to= is it
	reply           *age.X25519Identity
	body            []byte // the set, sealed
	copies          int
}

func (a *ask) run(ctx context.Context, queued func(ahead int)) (inbox.Event, error) {
	a.secret = newSecret()
	a.id, a.end = setID(a.secret), endID(a.secret)
	var err error
	if a.reply, err = age.GenerateX25519Identity(); err != nil {
		return inbox.Event{}, err
	}
	if err := a.seal(); err != nil {
		return inbox.Event{}, err
	}
	ends := make(chan *nats.Msg, 4)
	sub, err := a.conn.nc.ChanSubscribe(a.addr.subject("end", a.end), ends)
	if err != nil {
		return inbox.Event{}, &inbox.UnreachableError{Addr: a.addr, Err: err}
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := a.open(ctx); err != nil {
		return inbox.Event{}, err
	}
	if queued != nil {
		queued(0)
	}
	return a.wait(ctx, ends)
}

// open stores the set's anchor, its asker's first beat and its first
// copy. The anchor (copy 0) says when the set was first asked, as the
// server saw it: the waiting time that the inbox shows goes no further
// back; a set asked again has its root's. The beat goes before the set: a
// set stored is always one whose asker beat. The two are sent ahead of the
// copy and their acknowledgements awaited after it, so that the three
// take the time of one; one that fails is stored again as the copy was.
func (a *ask) open(ctx context.Context) error {
	type ahead struct {
		ack   jetstream.PubAckFuture
		again func() error
	}
	var sent []ahead
	send := func(subject string, again func() error, opts ...jetstream.PublishOpt) {
		ack, err := a.conn.js.PublishAsync(subject, nil, opts...)
		if err != nil {
			ack = nil
		}
		sent = append(sent, ahead{ack, again})
	}
	if a.root == "" {
		anchor := a.addr.subject("set", a.id+".0")
		send(anchor, func() error { return a.store(ctx, anchor, nil, endTTL) }, jetstream.WithMsgTTL(endTTL))
	}
	send(a.addr.subject("beat", a.id), func() error { return a.beat(ctx, true) })
	if err := a.post(ctx); err != nil {
		return err
	}
	for _, s := range sent {
		if s.ack != nil {
			select {
			case <-s.ack.Ok():
				continue
			case err := <-s.ack.Err():
				if isTaken(err) {
					continue
				}
			case <-ctx.Done():
				return context.Cause(ctx)
			}
		}
		if err := s.again(); err != nil {
			return err
		}
	}
	return nil
}

// seal makes the set's message, sealed to a.to (as it is, with none: see
// client.recipient).
func (a *ask) seal() (err error) {
	a.body, err = sealJSON(wireSet{Request: *a.req, Reply: a.reply.Recipient().String(), Secret: a.secret, Root: a.root}, a.to)
	return err
}

// ensure runs do, making the inbox's streams first when the server has
// none yet (no inbox has ever run there).
func (a *ask) ensure(ctx context.Context, do func() error) error {
	err := do()
	if !errors.Is(err, jetstream.ErrNoStreamResponse) && !errors.Is(err, nats.ErrNoResponders) {
		return err
	}
	if err := a.conn.makeStreams(ctx); err != nil {
		return err
	}
	return do()
}

// beat stores the asker's beat. A beat the server refuses for want of
// permission ends the asker: the inbox would never hear it. One that is
// not stored otherwise (the server away, the streams being made again) is
// only late, but the first: without it, the set is not stored, and it is
// stored with the stream's reply, which says that the streams are there.
// The others are only sent: the stream stores what comes on its subjects,
// and ten thousand askers waiting need not be answered every second.
func (a *ask) beat(ctx context.Context, first bool) error {
	subject := a.addr.subject("beat", a.id)
	var err error
	if first {
		err = a.ensure(ctx, func() error {
			bctx, cancel := context.WithTimeout(ctx, beatEvery)
			defer cancel()
			_, err := a.conn.js.Publish(bctx, subject, nil)
			return err
		})
	} else {
		err = a.conn.nc.Publish(subject, nil)
	}
	if refused := a.conn.refusedSubject(subject); refused != nil {
		return &inbox.ServerError{Err: refused, Msg: fmt.Sprintf("the NATS server at %s does not let these credentials beat (%v): grant them askuser.%s.beat.* as docs/across-machines.md lists", a.addr.serverURL(), refused, a.addr.Name)}
	}
	if _, ok := errors.AsType[*inbox.ServerError](err); first && ok {
		return err
	}
	return nil
}

// post stores a copy of the set, for setTTL: copy 1, then another every
// setTTL/2 while the asker waits, each on a subject that only who knows
// the set's secret can name (copyID): nobody else can take it first. A
// later copy that is not stored is only late: the next will come, and the
// beats go on meanwhile.
func (a *ask) post(ctx context.Context) error {
	a.copies++
	err := a.store(ctx, a.addr.subject("set", a.id+"."+copyID(a.secret, a.copies)), a.body, setTTL)
	if a.copies > 1 && ctx.Err() == nil {
		return nil
	}
	return err
}

// store stores data on subject, for ttl, trying again while the server
// is slow to answer or the stream full: the inbox makes room as sets end.
// A subject that holds a message already holds this one: nobody else can
// name it.
func (a *ask) store(ctx context.Context, subject string, data []byte, ttl time.Duration) error {
	said := false
	var slowly slowNote
	for {
		err := a.ensure(ctx, func() error {
			pctx, cancel := context.WithTimeout(ctx, inbox.ProbeTimeout)
			defer cancel()
			_, err := a.conn.js.Publish(pctx, subject, data, jetstream.WithMsgTTL(ttl))
			return err
		})
		switch {
		case err == nil, isTaken(err):
			return nil
		case ctx.Err() != nil:
			return context.Cause(ctx)
		case slow(err) && a.conn.refusedSubject(subject) == nil:
			slowly.note(ctx, a.addr)
		case errors.Is(err, nats.ErrMaxPayload), errors.Is(err, jetstream.ErrStreamMessageExceedsMaximum):
			// Before isFull: the stream's refusal of a message too large
			// also speaks of a maximum, and no room made will take it.
			return tooLarge(a.addr, a.conn, len(data))
		case isFull(err):
			if !said {
				said = true
				inbox.Notef(ctx, "The inbox's queue on the NATS server at %s is full: waiting for room.", a.addr.serverURL())
			}
		default:
			if _, ok := errors.AsType[*inbox.ServerError](err); ok {
				return err
			}
			if refused := a.conn.refusedSubject(subject); refused != nil {
				err = refused
			}
			return &inbox.ServerError{Err: err, Msg: fmt.Sprintf("the NATS server at %s did not store the questions (%v): check that these credentials may publish to askuser.%s.set.*.*", a.addr.serverURL(), err, a.addr.Name)}
		}
		if a.copies > 1 {
			return err
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-time.After(250 * time.Millisecond):
		}
	}
}
