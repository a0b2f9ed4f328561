package inbox

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"filippo.io/age"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// On NATS, an inbox is a JetStream stream and three kinds of subject,
// under askuser.NAME (NAME is NATSAddr.Name; ID is a random id an asker
// gives its set):
//
//	askuser.NAME.set.ID   the set (a natsSet), sealed to the inbox's
//	                      recipient; stored until the set ends
//	askuser.NAME.end.ID   how it ended (a natsEnd); stored, published only
//	                      where the subject holds nothing yet, so that the
//	                      first end wins and there is only one
//	askuser.NAME.beat.ID  the asker's heartbeat, every natsBeat; not
//	                      stored: an asker that stops beating is gone
//	askuser.NAME.key      the age recipient of the inbox that started
//	                      last: askers whose address has no to= seal to
//	                      it, rather than send their questions in the clear
//
// Subjects and headers hold ids and names, never the questions.
const (
	natsBeat = time.Second
	// natsDead is how long an inbox waits without a heartbeat, while it
	// is connected, before it withdraws a set: the asker is gone.
	natsDead = 3 * time.Second
	// natsEndTTL is how long an end stays stored: long enough for an
	// asker cut off by a restart of the server to read it.
	natsEndTTL = 24 * time.Hour
	// natsPoll is how often an asker reads its end from the stream, in
	// case the end went by while it was disconnected.
	natsPoll = 3 * time.Second
	// maxNATSMessage bounds what is read from a message.
	maxNATSMessage = 2 * MaxRequestBytes
)

// natsSet is the message of a set, before it is sealed.
type natsSet struct {
	Request Request `json:"request"`
	// Reply is the asker's fresh age recipient: the end is sealed to it.
	Reply string `json:"reply"`
	// Secret comes back in the end: only who opened the set knows it, so
	// an end that carries it comes from the inbox.
	Secret string `json:"secret"`
}

// The ends a natsEnd carries, beside EventAnswered and EventCancelled.
const (
	natsWithdrawn = "withdrawn" // the asker stopped waiting, or is gone
	natsRefused   = "refused"   // the inbox refused the set
)

// natsEnd is how a set ended. An answer, a cancel or a refusal is sealed
// to the asker and to the inbox (so that every inbox can say who
// answered), and carries the set's Secret; a withdrawal says nothing of
// the questions and is not sealed.
type natsEnd struct {
	End string `json:"end"`
	// Answer is the final event of the protocol, for EventAnswered.
	Answer *Event `json:"answer,omitempty"`
	// By names the inbox that answered or cancelled.
	By     string `json:"by,omitempty"`
	Secret string `json:"secret,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Refused is why the inbox refused the set, for natsRefused.
	Refused *ErrorBody `json:"refused,omitempty"`
}

func (a *NATSAddr) subject(kind, id string) string {
	return "askuser." + a.Name + "." + kind + "." + id
}

func (a *NATSAddr) keySubject() string { return "askuser." + a.Name + ".key" }

// storedRecipient returns the recipient the inbox left on the server, or
// "" when there is none.
func (c *natsConn) storedRecipient(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	m, err := c.stream.GetLastMsgForSubject(ctx, c.addr.keySubject())
	if err != nil {
		return ""
	}
	r := string(m.Data)
	if _, err := age.ParseX25519Recipient(r); err != nil {
		return ""
	}
	return r
}

func (a *NATSAddr) stream() string { return "ASKUSER_" + a.Name }

// ServerError is an inbox on NATS that cannot be used: the server cannot be
// reached, refuses the credentials, has no JetStream. Its message names
// the cause and the fix.
type ServerError struct {
	Addr *NATSAddr
	Msg  string
	Err  error
}

func (e *ServerError) Error() string { return e.Msg }

func (e *ServerError) Unwrap() error { return e.Err }

// natsConn is a connection to the server of an inbox on NATS, with its
// stream.
type natsConn struct {
	addr   *NATSAddr
	nc     *nats.Conn
	js     jetstream.JetStream
	stream jetstream.Stream
	// reconnected receives a value at each reconnection.
	reconnected chan struct{}
}

// dialNATS connects to a's server and finds (or makes) the inbox's stream.
// Once connected, the client reconnects for ever: a restart of the server
// is waited out.
func dialNATS(ctx context.Context, a *NATSAddr, name string) (*natsConn, error) {
	c := &natsConn{addr: a, reconnected: make(chan struct{}, 1)}
	opts := []nats.Option{
		nats.Name(name),
		nats.Timeout(ProbeTimeout),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.ReconnectJitter(100*time.Millisecond, 100*time.Millisecond),
		nats.PingInterval(5 * time.Second),
		nats.ReconnectHandler(func(*nats.Conn) {
			select {
			case c.reconnected <- struct{}{}:
			default:
			}
		}),
		// Errors after the connection is made (a slow consumer, a
		// permission refused) are seen where they matter, as timeouts.
		nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}),
	}
	switch {
	case a.Token != "":
		opts = append(opts, nats.Token(a.Token))
	case a.User != "":
		opts = append(opts, nats.UserInfo(a.User, a.Password))
	}
	if a.Creds != "" {
		opts = append(opts, nats.UserCredentials(a.Creds))
	}
	if a.NKey != "" {
		o, err := nats.NkeyOptionFromSeed(a.NKey)
		if err != nil {
			return nil, &ServerError{Addr: a, Err: err, Msg: fmt.Sprintf("the NKey seed of nkey=%s cannot be read (%v): give the path of a seed file (SU...)", a.NKey, err)}
		}
		opts = append(opts, o)
	}
	if a.CA != "" {
		opts = append(opts, nats.RootCAs(a.CA))
	}
	nc, err := nats.Connect(a.ServerURL(), opts...)
	if err != nil {
		return nil, connectError(a, err)
	}
	c.nc = nc
	if err := c.openStream(ctx); err != nil {
		nc.Close()
		return nil, err
	}
	return c, nil
}

// connectError says why the server could not be reached, and what to do.
func connectError(a *NATSAddr, err error) error {
	var (
		unknownCA x509.UnknownAuthorityError
		hostname  x509.HostnameError
		record    tls.RecordHeaderError
		certErr   *tls.CertificateVerificationError
		opErr     *net.OpError
	)
	msg := ""
	switch {
	case errors.Is(err, nats.ErrAuthorization), errors.Is(err, nats.ErrAuthExpired), errors.Is(err, nats.ErrAuthRevoked),
		strings.Contains(strings.ToLower(err.Error()), "authorization violation"):
		msg = fmt.Sprintf("the NATS server at %s refused the credentials: check the token, user:password, creds= or nkey= in %s", a.ServerURL(), EnvAddr)
	case errors.As(err, &unknownCA), errors.As(err, &certErr), errors.As(err, &hostname):
		msg = fmt.Sprintf("the NATS server at %s has a certificate this machine does not trust (%v): give its CA with ca=FILE in %s", a.ServerURL(), err, EnvAddr)
	case errors.Is(err, nats.ErrSecureConnRequired):
		msg = fmt.Sprintf("the NATS server at %s requires TLS: use tls:// in %s", a.ServerURL(), EnvAddr)
	case errors.As(err, &record), errors.Is(err, nats.ErrSecureConnWanted):
		msg = fmt.Sprintf("the NATS server at %s does not speak TLS: use nats:// in %s", a.ServerURL(), EnvAddr)
	case errors.Is(err, nats.ErrNoServers), errors.As(err, &opErr), errors.Is(err, nats.ErrTimeout):
		msg = fmt.Sprintf("no NATS server answers at %s: start one (nats-server -js), or check the host and port in %s", a.ServerURL(), EnvAddr)
	default:
		msg = fmt.Sprintf("cannot connect to the NATS server at %s (%v): check %s", a.ServerURL(), err, EnvAddr)
	}
	return &ServerError{Addr: a, Msg: msg, Err: err}
}

// openStream finds the inbox's stream, and makes it when it is missing.
func (c *natsConn) openStream(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	js, err := jetstream.New(c.nc)
	if err != nil {
		return c.streamError(err)
	}
	c.js = js
	name := c.addr.stream()
	s, err := js.Stream(ctx, name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		s, err = js.CreateStream(ctx, jetstream.StreamConfig{
			Name:        name,
			Description: "askuser inbox " + c.addr.Name + ": the sets of questions waiting, sealed, and how each ended",
			Subjects:    []string{c.addr.subject("set", "*"), c.addr.subject("end", "*"), c.addr.keySubject()},
			Storage:     jetstream.FileStorage,
			AllowMsgTTL: true,
			// A set and its end are one message each.
			MaxMsgsPerSubject: 1,
			MaxMsgSize:        int32(maxNATSMessage),
			AllowDirect:       true,
		})
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			s, err = js.Stream(ctx, name)
		}
	}
	if err != nil {
		return c.streamError(err)
	}
	c.stream = s
	return nil
}

func (c *natsConn) streamError(err error) error {
	a := c.addr
	if last := c.nc.LastError(); errors.Is(last, nats.ErrPermissionViolation) {
		// The server refused a subject and said so apart: the request
		// only timed out.
		err = last
	}
	msg := ""
	switch {
	case errors.Is(err, nats.ErrPermissionViolation):
		msg = fmt.Sprintf("the NATS server at %s does not allow these credentials what the inbox needs (%v): grant them the subjects that README's \"Across machines\" lists", a.ServerURL(), err)
	case errors.Is(err, jetstream.ErrJetStreamNotEnabled), errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount), errors.Is(err, nats.ErrNoResponders):
		msg = fmt.Sprintf("the NATS server at %s has no JetStream for this account, where the questions wait: start it with nats-server -js (or enable JetStream for the account)", a.ServerURL())
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrTimeout):
		msg = fmt.Sprintf("the NATS server at %s did not answer for the stream %s: check that JetStream is on (nats-server -js) and that these credentials may use %s and askuser.%s.>", a.ServerURL(), a.stream(), a.stream(), a.Name)
	default:
		msg = fmt.Sprintf("the NATS server at %s refused the inbox's stream %s (%v): check that JetStream is on (nats-server -js)", a.ServerURL(), a.stream(), err)
	}
	return &ServerError{Addr: a, Msg: msg, Err: err}
}

// publishEnd publishes the end of set id, unless one is there already:
// then the error is errEndTaken.
func (c *natsConn) publishEnd(ctx context.Context, id string, body []byte) error {
	_, err := c.js.Publish(ctx, c.addr.subject("end", id), body,
		jetstream.WithExpectLastSequencePerSubject(0), jetstream.WithMsgTTL(natsEndTTL))
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence || apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant) {
		return errEndTaken
	}
	return err
}

// errEndTaken is an end published where another one already is: the set
// ended first elsewhere.
var errEndTaken = errors.New("the set has already ended")

// lastEnd returns the end stored for set id, or nil.
func (c *natsConn) lastEnd(ctx context.Context, id string) (*jetstream.RawStreamMsg, error) {
	m, err := c.stream.GetLastMsgForSubject(ctx, c.addr.subject("end", id))
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, nil
	}
	return m, err
}

func (c *natsConn) close() { c.nc.Close() }
