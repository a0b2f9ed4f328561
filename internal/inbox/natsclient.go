package inbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"filippo.io/age"
	"github.com/askuser/askuser/prompt/web/localhttp"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// natsClient is the Transport of an inbox on NATS: each Probe and Ask
// connects to the server on its own.
type natsClient struct{ addr Addr }

func (c *natsClient) Addr() Addr { return c.addr }

func (c *natsClient) dial(ctx context.Context) (*natsConn, error) {
	if why := c.addr.NATS.sealRequired(); why != "" {
		return nil, &ServerError{Addr: c.addr.NATS, Msg: why}
	}
	return dialNATS(ctx, c.addr.NATS, "askuser")
}

// Probe connects to the server and finds the inbox's stream: then the set
// can wait there, whether an inbox is connected yet or not.
func (c *natsClient) Probe(ctx context.Context) (Status, error) {
	conn, err := c.dial(ctx)
	if err != nil {
		return Status{}, err
	}
	conn.close()
	return Status{Inbox: Name, Version: Version}, nil
}

// natsAsk is one set put to an inbox on NATS, while its asker waits.
type natsAsk struct {
	addr   Addr
	conn   *natsConn
	id     string
	reply  *age.X25519Identity
	secret string
}

// Ask stores the set, sealed, in the inbox's stream, beats while it waits,
// and returns its end, always the one the stream stored: read from the
// stream as soon as one is published, after every reconnection and every
// natsPoll, so that an end published while the server was away is not
// missed. When ctx ends, the set is withdrawn.
// A set withdrawn because the inbox heard none of its beats, while this
// asker still waits, is stored again: the asker, or the inbox, was cut off
// from the server for a while. Only natsResends times without a
// reconnection of the asker's own, in case its beats never reach the
// inbox.
func (c *natsClient) Ask(ctx context.Context, req *Request, queued func(ahead int)) (Event, error) {
	conn, err := c.dial(ctx)
	if err != nil {
		return Event{}, err
	}
	defer conn.close()
	for resends := 0; ; {
		a := &natsAsk{addr: c.addr, conn: conn}
		e, err := a.ask(ctx, req, queued)
		var unheard *unheardError
		if !errors.As(err, &unheard) {
			return e, err
		}
		if !unheard.reconnected {
			if resends++; resends > natsResends {
				return e, &GoneError{Addr: c.addr, Err: fmt.Errorf("the inbox heard no heartbeat of this asker, %d times over: check that these credentials may publish to askuser.%s.beat.*", resends, c.addr.NATS.Name)}
			}
		}
		queued = nil
	}
}

// natsResends is how many times an asker stores its set again after the
// inbox withdrew it for want of beats, without a reconnection of its own.
const natsResends = 3

// unheardError is a set withdrawn for want of beats while its asker still
// waits; reconnected says that the asker's connection was lost and made
// again meanwhile.
type unheardError struct{ reconnected bool }

func (e *unheardError) Error() string {
	return "the set was withdrawn for want of beats while its asker still waits"
}

func (a *natsAsk) ask(ctx context.Context, req *Request, queued func(ahead int)) (Event, error) {
	// The set's id names its subjects; its secret proves its end.
	var err error
	if a.id, err = localhttp.NewToken(); err != nil {
		return Event{}, err
	}
	if a.secret, err = localhttp.NewToken(); err != nil {
		return Event{}, err
	}
	if a.reply, err = age.GenerateX25519Identity(); err != nil {
		return Event{}, err
	}
	ends := make(chan *nats.Msg, 4)
	sub, err := a.conn.nc.ChanSubscribe(a.addr.NATS.subject("end", a.id), ends)
	if err != nil {
		return Event{}, &UnreachableError{Addr: a.addr, Err: err}
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := a.post(ctx, req); err != nil {
		return Event{}, err
	}
	if queued != nil {
		queued(0)
	}
	return a.wait(ctx, ends)
}

// post seals the set and stores it.
func (a *natsAsk) post(ctx context.Context, req *Request) error {
	body, err := json.Marshal(natsSet{Request: *req, Reply: a.reply.Recipient().String(), Secret: a.secret})
	if err != nil {
		return fmt.Errorf("encode the questions: %w", err)
	}
	to := a.addr.NATS.To
	if to == "" {
		// Without to=, the server is this machine or reached over TLS
		// (see sealRequired); its store is sealed all the same when an
		// inbox has left its recipient there.
		to = a.conn.storedRecipient(ctx)
	}
	recips, err := recipients(to)
	if err != nil {
		return err
	}
	if body, err = seal(body, recips...); err != nil {
		return err
	}
	pctx, cancel := context.WithTimeout(ctx, headerTimeout)
	defer cancel()
	if _, err := a.conn.js.Publish(pctx, a.addr.NATS.subject("set", a.id), body, jetstream.WithMsgID(a.id)); err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if errors.Is(err, nats.ErrMaxPayload) {
			return &ServerError{Addr: a.addr.NATS, Err: err, Msg: fmt.Sprintf("the questions, sealed, are %d bytes, more than the NATS server at %s takes in a message (%d): raise its max_payload (max_payload: 4MB in nats-server.conf)", len(body), a.addr.NATS.ServerURL(), a.conn.nc.MaxPayload())}
		}
		return &ServerError{Addr: a.addr.NATS, Err: err, Msg: fmt.Sprintf("the NATS server at %s did not store the questions (%v): check that these credentials may publish to askuser.%s.>", a.addr.NATS.ServerURL(), err, a.addr.NATS.Name)}
	}
	return nil
}

func (a *natsAsk) wait(ctx context.Context, ends <-chan *nats.Msg) (Event, error) {
	beat := a.addr.NATS.subject("beat", a.id)
	// A beat that cannot be sent now is sent at the next tick.
	_ = a.conn.nc.Publish(beat, nil)
	beats := time.NewTicker(natsBeat)
	defer beats.Stop()
	poll := time.NewTicker(natsPoll)
	defer poll.Stop()
	// The connection counts its reconnections: one since the set was
	// stored means that the asker was cut off for a while.
	reconnects := a.conn.nc.Stats().Reconnects
	for {
		var data []byte
		select {
		case <-ctx.Done():
			a.withdraw()
			return Event{}, context.Cause(ctx)
		case <-beats.C:
			_ = a.conn.nc.Publish(beat, nil)
			continue
		case <-ends:
			data = a.settled(ctx)
		case <-poll.C:
			data = a.stored(ctx)
		case <-a.conn.reconnected:
			_ = a.conn.nc.Publish(beat, nil)
			data = a.stored(ctx)
		}
		if data == nil {
			continue
		}
		e, err := a.read(data)
		var withdrawn *withdrawnError
		if errors.As(err, &withdrawn) {
			return e, &unheardError{reconnected: a.conn.nc.Stats().Reconnects > reconnects}
		}
		return e, err
	}
}

// stored returns the end stored for the set, or nil.
func (a *natsAsk) stored(ctx context.Context) []byte {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	m, err := a.conn.lastEnd(ctx, a.id)
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
func (a *natsAsk) settled(ctx context.Context) []byte {
	for wait := 10 * time.Millisecond; ; wait *= 2 {
		if data := a.stored(ctx); data != nil || wait > natsBeat {
			return data
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

// read returns the event that an end means for the asker.
func (a *natsAsk) read(data []byte) (Event, error) {
	plain, sealed, err := open(data, a.reply, maxNATSMessage)
	var end natsEnd
	if err == nil {
		err = json.Unmarshal(plain, &end)
	}
	if err != nil {
		return Event{}, &GoneError{Addr: a.addr, Err: fmt.Errorf("the end of the questions on the NATS server cannot be read: %w", err)}
	}
	if end.End == natsWithdrawn {
		return Event{}, &GoneError{Addr: a.addr, Err: &withdrawnError{reason: end.Reason}}
	}
	if !sealed || end.Secret != a.secret {
		// Anyone may seal to the asker's recipient: only the inbox that
		// opened the set knows its secret.
		return Event{}, &GoneError{Addr: a.addr, Err: errors.New("an answer on the NATS server did not come from the inbox (it lacks the set's secret)")}
	}
	switch end.End {
	case natsRefused:
		body := ErrorBody{Error: "refused"}
		if end.Refused != nil {
			body = *end.Refused
		}
		return Event{}, &RefusedError{Addr: a.addr, Status: http.StatusBadRequest, Body: body}
	case EventCancelled:
		return Event{Event: EventCancelled}, nil
	case EventAnswered:
		if end.Answer != nil && end.Answer.Event == EventAnswered {
			return *end.Answer, nil
		}
	}
	return Event{}, &GoneError{Addr: a.addr, Err: fmt.Errorf("the inbox sent an end of an unknown kind %q", end.End)}
}

// withdrawnError is a set withdrawn by an inbox.
type withdrawnError struct{ reason string }

func (e *withdrawnError) Error() string { return "the inbox withdrew the questions: " + e.reason }

// withdraw says that the asker stopped waiting, for every inbox to take
// the set away. A set that is not withdrawn this way (the asker was
// killed) is withdrawn when its beats stop.
func (a *natsAsk) withdraw() {
	body, _ := json.Marshal(natsEnd{End: natsWithdrawn, Reason: "the asker stopped waiting"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = a.conn.publishEnd(ctx, a.id, body)
}
