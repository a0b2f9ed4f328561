package natsinbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

// wait beats, stores a new copy of the set every setTTL/2, and returns the
// set's end: as soon as one is published, and after every reconnection and
// every endPoll, read from the stream, so that an end published while the
// asker was cut off is not missed. Until an inbox's key is on the server,
// it looks for it every pollEvery, to learn that to= is not the inbox's.
// When ctx ends, the set is withdrawn.
func (a *ask) wait(ctx context.Context, ends <-chan *nats.Msg) (inbox.Event, error) {
	beats := time.Tick(beatEvery)
	copies := time.Tick(setTTL / 2)
	poll := time.Tick(endPoll)
	keyPoll := time.Tick(pollEvery)
	if a.keyKnown {
		keyPoll = nil
	}
	for {
		var data []byte
		select {
		case <-ctx.Done():
			a.withdraw(inbox.WithdrawCode(ctx))
			return inbox.Event{}, context.Cause(ctx)
		case <-beats:
			if err := a.beat(ctx, false); err != nil {
				return inbox.Event{}, err
			}
		case <-copies:
			if err := a.post(ctx); err != nil {
				return inbox.Event{}, err
			}
		case <-ends:
			// The end published may be one the stream refused, because
			// another inbox's was stored first: the stored one is the
			// answer. It is given a moment to be stored; else the next
			// poll looks again.
			data = a.stored(ctx, beatEvery)
		case <-keyPoll:
			// A set sealed to a to= that is not the inbox's ends as soon
			// as an inbox has stored its recipient.
			if key, err := a.conn.key(ctx); err == nil && key != "" {
				keyPoll = nil
				if err := keyMismatch(a.addr, key); err != nil {
					a.withdraw("")
					return inbox.Event{}, err
				}
			}
		case <-poll:
			data = a.stored(ctx, 0)
		case <-a.conn.reconnected:
			data = a.stored(ctx, 0)
		}
		if data != nil {
			return a.read(data)
		}
	}
}

// stored returns the end stored for the set, or nil, giving one published
// just now up to patience to be stored.
func (a *ask) stored(ctx context.Context, patience time.Duration) []byte {
	m, err := a.conn.lastEnd(ctx, a.end, patience)
	if err != nil || m == nil {
		return nil
	}
	return m.Data
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
		return inbox.Event{}, &inbox.GoneError{Addr: a.addr, Err: fmt.Errorf("the inbox withdrew the questions: %s", wireText(end.Reason, maxWireText))}
	case endRefused:
		body := inbox.ErrorBody{Error: "refused"}
		if end.Refused != nil {
			// Through the display rule, as every text of the wire.
			body.Error = prompt.Display(end.Refused.Error)
			for _, p := range end.Refused.Problems {
				body.Problems = append(body.Problems, prompt.Display(p))
			}
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
// the set away, with code, the code of an inbox.Withdrawal that says why
// ("" for none). A set that is not withdrawn this way (the asker was
// killed) is withdrawn when its beats stop, and leaves the server when its
// last copy's time is up.
func (a *ask) withdraw(code string) {
	// Sealed to the recipient that its set was sealed to, it cannot fail.
	body, _ := sealJSON(wireEnd{End: endWithdrawn, Reason: inbox.WithdrawReason(""), Withdraw: code}, a.to)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = a.conn.publishEnd(ctx, a.end, body)
}
