package natsinbox

import (
	"context"
	"errors"
	"fmt"
	"time"

	"filippo.io/age"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/inbox"
)

// ask is one set put to an inbox on NATS, while its asker waits.
type ask struct {
	addr *address
	conn *conn
	to   string
	req  *inbox.Request
	root string // the secret of the set first asked, when this one asks it again

	secret, id, end string
	keyKnown        bool // the inbox's key was on the server, and to= is it
	reply           *age.X25519Identity
	body            []byte // the set, sealed
	copies          int
	// first is its first copy's sequence in the stream, which its anchor
	// names: 0, and no anchor, when a lost acknowledgement left it unknown.
	first uint64
}

func (a *ask) run(ctx context.Context, queued func(ahead int)) (inbox.Event, error) {
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
		// Stopped while its set was being stored: the set may be, and
		// is withdrawn, for the inbox to say why rather than wait out
		// its beats.
		if ctx.Err() != nil && a.copies > 0 {
			a.withdraw(inbox.WithdrawCode(ctx))
		}
		return inbox.Event{}, err
	}
	if queued != nil {
		queued(0)
	}
	return a.wait(ctx, ends)
}

// open stores its asker's first beat, the set's first copy and its
// anchor. The anchor (copy 0) says when the set was first asked, as the
// server saw it, for as long as an end stays, where a copy stays setTTL:
// the waiting time that the inbox shows goes no further back; a set asked
// again has its root's. It comes after the copy and names it, and the
// server stores it only while that copy is stored: an anchor stored ahead
// of its set dates nothing (see feed.onAnchor). The beat goes before the
// set: a set stored is always one whose asker beat. The beat and the
// anchor are sent without waiting, and their acknowledgements awaited
// after the copy's, so that the three take little more than the time of
// one; one that fails is stored again as the copy was.
func (a *ask) open(ctx context.Context) error {
	// A future is nil when the message could not be sent.
	beat, _ := a.conn.js.PublishAsync(a.addr.subject("beat", a.id), nil)
	if err := a.post(ctx); err != nil {
		return err
	}
	anchored := a.root == "" && a.first != 0
	anchor := a.addr.subject("set", a.id+".0")
	named := jetstream.WithExpectLastSequenceForSubject(a.first, a.copySubject(1))
	var ack jetstream.PubAckFuture
	if anchored {
		ack, _ = a.conn.js.PublishAsync(anchor, nil, jetstream.WithMsgTTL(endTTL), named)
	}
	if err := a.confirm(ctx, beat, func() error { return a.beat(ctx, true) }); err != nil || !anchored {
		return err
	}
	return a.confirm(ctx, ack, func() error {
		// Refused, its copy is gone already (the set refused at once):
		// it would date nothing.
		_, _ = a.store(ctx, anchor, nil, endTTL, named)
		return context.Cause(ctx)
	})
}

// confirm waits for the acknowledgement of a message sent without waiting
// (ack, nil when it could not be sent), and has it stored again (again)
// when none came, or the stream did not store it.
func (a *ask) confirm(ctx context.Context, ack jetstream.PubAckFuture, again func() error) error {
	if ack != nil {
		select {
		case <-ack.Ok():
			return nil
		case err := <-ack.Err():
			if isTaken(err) {
				return nil
			}
		case <-time.After(inbox.ProbeTimeout):
			// No answer: a cluster without quorum keeps none, and the
			// message is stored again, as the copy was.
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
	return again()
}

// seal makes the set: a new secret, and the ids it names, a reply
// identity, and its message, sealed to a.to (as it is, with none: see
// client.recipient).
func (a *ask) seal() (err error) {
	a.secret = newSecret()
	a.id, a.end = setID(a.secret), endID(a.secret)
	// It cannot fail: crypto/rand.Read does not.
	a.reply, _ = age.GenerateX25519Identity()
	a.body, err = sealJSON(wireSet{Request: *a.req, Reply: a.reply.Recipient().String(), Secret: a.secret, Root: a.root}, a.to)
	return err
}

// ensure stores data on subject, waiting up to wait for the stream's
// acknowledgement, again after making the inbox's streams when the server
// has none yet (no inbox has ever run there).
func (a *ask) ensure(ctx context.Context, wait time.Duration, subject string, data []byte, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	do := func() (*jetstream.PubAck, error) {
		ctx, cancel := context.WithTimeout(ctx, wait)
		defer cancel()
		return a.conn.js.Publish(ctx, subject, data, opts...)
	}
	ack, err := do()
	if !errors.Is(err, jetstream.ErrNoStreamResponse) && !errors.Is(err, nats.ErrNoResponders) {
		return ack, err
	}
	if err := a.conn.makeStreams(ctx); err != nil {
		return nil, err
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
		_, err = a.ensure(ctx, beatEvery, subject, nil)
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
	seq, err := a.store(ctx, a.copySubject(a.copies), a.body, setTTL)
	if a.copies == 1 {
		a.first = seq
	}
	if a.copies > 1 && ctx.Err() == nil {
		return nil
	}
	return err
}

func (a *ask) copySubject(n int) string {
	return a.addr.subject("set", a.id+"."+copyID(a.secret, n))
}

// store stores data on subject, for ttl, trying again while the server
// is slow to answer or the stream full: the inbox makes room as sets end.
// A subject that holds a message already holds this one: nobody else can
// name it. It returns the message's sequence in the stream, 0 when the
// subject held it already.
func (a *ask) store(ctx context.Context, subject string, data []byte, ttl time.Duration, opts ...jetstream.PublishOpt) (uint64, error) {
	full := notes{}
	for {
		ack, err := a.ensure(ctx, inbox.ProbeTimeout, subject, data, append(opts, jetstream.WithMsgTTL(ttl))...)
		switch {
		case err == nil:
			// Stored: the next outage, however late, is told again.
			delete(a.conn.said, noteNoQuorum)
			delete(a.conn.said, noteSlow)
			return ack.Sequence, nil
		case isTaken(err):
			return 0, nil
		case ctx.Err() != nil:
			return 0, context.Cause(ctx)
		case errors.Is(err, errNoQuorum):
			a.conn.said.once(ctx, noteNoQuorum, a.addr.serverURL())
		case slow(err) && a.conn.refusedSubject(subject) == nil:
			a.conn.said.once(ctx, noteSlow, a.addr.serverURL())
		case errors.Is(err, nats.ErrMaxPayload), errors.Is(err, jetstream.ErrStreamMessageExceedsMaximum):
			// Before isFull: the stream's refusal of a message too large
			// also speaks of a maximum, and no room made will take it.
			return 0, tooLarge(a.addr, a.conn, len(data))
		case isFull(err):
			full.once(ctx, "The inbox's queue on the NATS server at %s is full: waiting for room.", a.addr.serverURL())
		default:
			if _, ok := errors.AsType[*inbox.ServerError](err); ok {
				return 0, err
			}
			if refused := a.conn.refusedSubject(subject); refused != nil {
				err = refused
			}
			return 0, &inbox.ServerError{Err: err, Msg: fmt.Sprintf("the NATS server at %s did not store the questions (%v): check that these credentials may publish to askuser.%s.set.*.*", a.addr.serverURL(), err, a.addr.Name)}
		}
		if a.copies > 1 {
			return 0, err
		}
		if err := sleep(ctx, 250*time.Millisecond); err != nil {
			return 0, err
		}
	}
}
