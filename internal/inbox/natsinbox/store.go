package natsinbox

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/inbox"
)

// isFull reports whether err is the stream refusing a message for want of
// room (its limits on messages or bytes): the inbox makes room as it
// deletes what ended.
func isFull(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && strings.Contains(apiErr.Description, "maximum") && !strings.Contains(apiErr.Description, "per subject") && !strings.Contains(apiErr.Description, "payload")
}

// isTaken reports whether err is the stream refusing a message because
// its subject holds one already.
func isTaken(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && strings.Contains(apiErr.Description, "per subject")
}

// errEndTaken is an end published where another one already is: the set
// ended first elsewhere.
var errEndTaken = errors.New("the set has already ended")

// publishEnd stores the end of a set, unless one is stored already: then
// the error is errEndTaken, but when the one stored is body itself (stored
// before, its reply lost to a server restarting).
func (c *conn) publishEnd(ctx context.Context, end string, body []byte) error {
	_, err := c.js.Publish(ctx, c.addr.subject("end", end), body, jetstream.WithMsgTTL(endTTL))
	if !isTaken(err) {
		return err
	}
	if m, _ := c.lastEnd(ctx, end); m != nil && string(m.Data) == string(body) {
		return nil
	}
	return errEndTaken
}

// lastEnd returns the end stored under end, or nil.
func (c *conn) lastEnd(ctx context.Context, end string) (*jetstream.RawStreamMsg, error) {
	return c.directGet(ctx, c.addr.subject("end", end))
}

// directGet returns the message stored on subject in the sets' stream,
// or nil, by a direct get: the agents' credentials need no more than that
// subject (not the stream's information, which lists every subject).
func (c *conn) directGet(ctx context.Context, subject string) (*jetstream.RawStreamMsg, error) {
	ctx, cancel := context.WithTimeout(ctx, inbox.ProbeTimeout)
	defer cancel()
	resp, err := c.nc.RequestWithContext(ctx, "$JS.API.DIRECT.GET."+c.addr.setsStream()+"."+subject, nil)
	if err != nil {
		return nil, err
	}
	if status := resp.Header.Get("Status"); status != "" {
		if status == "404" {
			return nil, nil
		}
		return nil, fmt.Errorf("direct get of %s: status %s %s", subject, status, resp.Header.Get("Description"))
	}
	return &jetstream.RawStreamMsg{Subject: subject, Header: resp.Header, Data: resp.Data}, nil
}

// key returns the recipient of the inbox, as the first inbox stored it,
// or "" when no inbox has yet.
func (c *conn) key(ctx context.Context) (string, error) {
	m, err := c.directGet(ctx, c.addr.keySubject())
	if err != nil || m == nil {
		return "", err
	}
	return string(m.Data), nil
}
