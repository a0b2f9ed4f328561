package natsinbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
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
	// Secret names the set's subjects (setID, endID): the inbox checks it
	// against the subject the set came on.
	Secret string `json:"secret"`
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

func (c *client) dial() (*conn, error) {
	if why := c.addr.sealRequired(); why != "" {
		return nil, &inbox.ServerError{Msg: why}
	}
	return dial(c.addr, roleAgent, "askuser")
}

// Probe connects to the server: then the set can wait there, whether an
// inbox is connected yet or not.
func (c *client) Probe(context.Context) (inbox.Status, error) {
	conn, err := c.dial()
	if err != nil {
		return inbox.Status{}, err
	}
	conn.close()
	return inbox.Status{Inbox: inbox.Name, Version: inbox.Version}, nil
}

// Ask stores the set, sealed, in the inbox's stream, beats while it waits,
// and returns its end, always the one the stream stored. A set that an
// inbox withdrew because it heard no beat (the asker, or the inbox, was
// away a while: asleep, cut off) is asked again, under a new id, with the
// time it has waited. When ctx ends, the set is withdrawn.
func (c *client) Ask(ctx context.Context, req *inbox.Request, queued func(ahead int)) (inbox.Event, error) {
	conn, err := c.dial()
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
	first := time.Now()
	for {
		a := &ask{addr: c.addr, conn: conn, to: to, keyKnown: keyKnown, req: req, waited: time.Since(first)}
		e, err := a.run(ctx, queued)
		if !errors.Is(err, errUnheard) {
			return e, err
		}
		queued = nil
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
	addr   *address
	conn   *conn
	to     string
	req    *inbox.Request
	waited time.Duration // before this ask: the set was asked before

	secret, id, end string
	keyKnown        bool // the inbox's key was on the server, and to= is it
	reply           *age.X25519Identity
	body            []byte // the set, sealed
	copies          int
	start           time.Time
}

func (a *ask) run(ctx context.Context, queued func(ahead int)) (inbox.Event, error) {
	a.secret = newSecret()
	a.id, a.end, a.start = setID(a.secret), endID(a.secret), time.Now()
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
	// The beat goes first: a set stored is always one whose asker beat.
	if err := a.beat(ctx, true); err != nil {
		return inbox.Event{}, err
	}
	if err := a.post(ctx); err != nil {
		return inbox.Event{}, err
	}
	if queued != nil {
		queued(0)
	}
	return a.wait(ctx, ends)
}

// seal makes the set's message, sealed to a.to (as it is, with none: see
// client.recipient).
func (a *ask) seal() (err error) {
	a.body, err = sealJSON(wireSet{Request: *a.req, Reply: a.reply.Recipient().String(), Secret: a.secret}, a.to)
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
// setTTL/2 while the asker waits. A stream that is full is waited on: the
// inbox makes room as sets end.
func (a *ask) post(ctx context.Context) error {
	a.copies++
	n := strconv.Itoa(a.copies)
	msg := &nats.Msg{Subject: a.addr.subject("set", a.id+"."+n), Data: a.body, Header: nats.Header{}}
	msg.Header.Set(headerWaited, strconv.FormatInt((a.waited+time.Since(a.start)).Milliseconds(), 10))
	said := false
	var slowly slowNote
	for {
		err := a.ensure(ctx, func() error {
			pctx, cancel := context.WithTimeout(ctx, inbox.ProbeTimeout)
			defer cancel()
			_, err := a.conn.js.PublishMsg(pctx, msg, jetstream.WithMsgID(a.id+"."+n), jetstream.WithMsgTTL(setTTL))
			return err
		})
		switch {
		case err == nil:
			return nil
		case ctx.Err() != nil:
			return context.Cause(ctx)
		case a.copies > 1:
			// A later copy is only a copy: the next will come, and the
			// beats go on meanwhile.
			return nil
		case slow(err) && a.conn.refusedSubject(msg.Subject) == nil:
			// Stored again, it is stored once: its id says so.
			slowly.note(ctx, a.addr)
		case errors.Is(err, nats.ErrMaxPayload), errors.Is(err, jetstream.ErrStreamMessageExceedsMaximum):
			// Before isFull: the stream's refusal of a message too large
			// also speaks of a maximum, and no room made will take it.
			return tooLarge(a.addr, a.conn, len(a.body))
		case isFull(err):
			if !said {
				said = true
				inbox.Notef(ctx, "The inbox's queue on the NATS server at %s is full: waiting for room.", a.addr.serverURL())
			}
		default:
			if _, ok := errors.AsType[*inbox.ServerError](err); ok {
				return err
			}
			if refused := a.conn.refusedSubject(msg.Subject); refused != nil {
				err = refused
			}
			return &inbox.ServerError{Err: err, Msg: fmt.Sprintf("the NATS server at %s did not store the questions (%v): check that these credentials may publish to askuser.%s.set.*.*", a.addr.serverURL(), err, a.addr.Name)}
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// wait beats, stores a new copy of the set every setTTL/2, and returns the
// set's end: as soon as one is published, and after every reconnection and
// every endPoll, read from the stream, so that an end published while the
// asker was cut off is not missed. Until an inbox's key is on the server,
// it looks for it every pollEvery, to learn that to= is not the inbox's.
// When ctx ends, the set is withdrawn.
func (a *ask) wait(ctx context.Context, ends <-chan *nats.Msg) (inbox.Event, error) {
	beats := time.NewTicker(beatEvery)
	defer beats.Stop()
	copies := time.NewTicker(setTTL / 2)
	defer copies.Stop()
	poll := time.NewTicker(endPoll)
	defer poll.Stop()
	var keyPoll <-chan time.Time
	if !a.keyKnown {
		t := time.NewTicker(pollEvery)
		defer t.Stop()
		keyPoll = t.C
	}
	for {
		var data []byte
		select {
		case <-ctx.Done():
			a.withdraw()
			return inbox.Event{}, context.Cause(ctx)
		case <-beats.C:
			if err := a.beat(ctx, false); err != nil {
				return inbox.Event{}, err
			}
			continue
		case <-copies.C:
			if err := a.post(ctx); err != nil {
				return inbox.Event{}, err
			}
			continue
		case <-ends:
			data = a.settled(ctx)
		case <-keyPoll:
			known, err := a.checkKey(ctx)
			if err != nil {
				a.withdraw()
				return inbox.Event{}, err
			}
			if known {
				keyPoll = nil
			}
			continue
		case <-poll.C:
			data = a.stored(ctx)
		case <-a.conn.reconnected:
			data = a.stored(ctx)
		}
		if data != nil {
			return a.read(data)
		}
	}
}

// checkKey ends the wait of a set sealed to a to= that is not the inbox's,
// as soon as an inbox has stored its recipient; known says that one has.
func (a *ask) checkKey(ctx context.Context) (known bool, err error) {
	key, err := a.conn.key(ctx)
	if err != nil || key == "" {
		return false, nil
	}
	return true, keyMismatch(a.addr, key)
}

// stored returns the end stored for the set, or nil.
func (a *ask) stored(ctx context.Context) []byte {
	m, err := a.conn.lastEnd(ctx, a.end)
	if err != nil || m == nil {
		return nil
	}
	return m.Data
}

// settled returns the end stored for the set, once an end was published
// on its subject: that end itself may be one the stream refused, because
// another inbox's end was stored first, and the stored one is the answer.
// A moment is given for an end published just now to be stored; else nil,
// and the next poll looks again.
func (a *ask) settled(ctx context.Context) []byte {
	for wait := 10 * time.Millisecond; ; wait *= 2 {
		if data := a.stored(ctx); data != nil || wait > beatEvery {
			return data
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

// read returns the event that the set's end means for the asker. Only
// who knows the set's secret can store its end (its subject says so); an
// end that is not sealed to the asker, or that it cannot read, is said to
// be so, not taken for an inbox gone.
func (a *ask) read(data []byte) (inbox.Event, error) {
	unreadable := func(why string) error {
		return &inbox.ServerError{Msg: fmt.Sprintf("the end of the questions stored at %s %s: the inbox there is not this version of askuser", a.addr, why)}
	}
	if !sealed(data) {
		return inbox.Event{}, unreadable("is not sealed to this asker")
	}
	plain, err := open(data, a.reply, maxMessage)
	var end wireEnd
	if err == nil {
		err = json.Unmarshal(plain, &end)
	}
	if err != nil {
		return inbox.Event{}, unreadable(fmt.Sprintf("cannot be read (%v)", err))
	}
	switch end.End {
	case endWithdrawn:
		if end.Unheard {
			return inbox.Event{}, errUnheard
		}
		return inbox.Event{}, &inbox.GoneError{Addr: a.addr, Err: fmt.Errorf("the inbox withdrew the questions: %s", end.Reason)}
	case endRefused:
		body := inbox.ErrorBody{Error: "refused"}
		if end.Refused != nil {
			body = *end.Refused
		}
		return inbox.Event{}, &inbox.RefusedError{Addr: a.addr, Status: http.StatusBadRequest, Body: body}
	case inbox.EventCancelled:
		return inbox.Event{Event: inbox.EventCancelled}, nil
	case inbox.EventAnswered:
		if end.Answer != nil && end.Answer.Event == inbox.EventAnswered {
			return *end.Answer, nil
		}
	}
	return inbox.Event{}, unreadable(fmt.Sprintf("is of a kind this asker does not know (%q)", end.End))
}

// withdraw says that the asker stopped waiting, for every inbox to take
// the set away. A set that is not withdrawn this way (the asker was
// killed) is withdrawn when its beats stop, and leaves the server when its
// last copy's time is up.
func (a *ask) withdraw() {
	body, err := sealJSON(wireEnd{End: endWithdrawn, Reason: "the asker stopped waiting"}, a.to)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = a.conn.publishEnd(ctx, a.end, body)
}
