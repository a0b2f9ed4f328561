package natsinbox

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/inbox"
)

// The timing of an inbox on NATS.
const (
	// beatEvery is how often an asker stores its beat, and the inbox its
	// tick.
	beatEvery = time.Second
	// deadAfter is how long, in the server's time, an asker may go without
	// a beat stored before the inbox withdraws its set: it is gone.
	deadAfter = 3 * time.Second
	// pollEvery is how often an asker looks for the inbox's key while
	// there is none (it checks it against to=), and how often the inbox
	// looks at its streams.
	pollEvery = 3 * time.Second
	// endPoll is how often an asker reads its end from the stream, in case
	// it went by unheard; one that was cut off reads it when it is back.
	endPoll = 30 * time.Second
)

// setTTL is how long one copy of a set stays stored: its asker stores a
// new copy every setTTL/2, so that the set of an asker that stops waiting
// leaves the server within setTTL, whether an inbox runs or not. It is a
// variable so that the tests of this package can shorten it; nothing else
// changes it.
var setTTL = 2 * time.Minute

// role is which side of the inbox a connection is.
type role string

const (
	roleInbox role = "inbox"
	roleAgent role = "agent"
)

// replyPrefix is where the replies to a side's requests go: the inbox's
// and the agents' apart, and apart from every other user of the server.
func (a *address) replyPrefix(r role) string { return "_askuser." + a.Name + "." + string(r) }

// conn is a connection to the server of an inbox on NATS.
type conn struct {
	addr *address
	nc   *nats.Conn
	js   jetstream.JetStream
	// reconnected receives a value at each reconnection.
	reconnected chan struct{}
	// said is what an asker told of a slow server, or of a cluster
	// without quorum: once each, wherever it waits.
	said notes

	// refused is what the server last refused this connection.
	refused atomic.Pointer[error]
}

// pingEvery is how often a side's connection makes sure the server is
// there: the inbox often, to tell the person soon; an asker, which may be
// one of ten thousand, seldom, its beats being written every second
// anyway.
var pingEvery = map[role]time.Duration{roleInbox: 5 * time.Second, roleAgent: 20 * time.Second}

// dial connects to a's server as the side r. Once connected, the client
// reconnects for ever: a restart of the server is waited out.
func dial(a *address, r role, name string) (*conn, error) {
	c := &conn{addr: a, reconnected: make(chan struct{}, 1), said: notes{}}
	opts := []nats.Option{
		nats.Name(name),
		nats.Timeout(inbox.ProbeTimeout),
		nats.CustomInboxPrefix(a.replyPrefix(r)),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.ReconnectJitter(100*time.Millisecond, 100*time.Millisecond),
		nats.PingInterval(pingEvery[r]),
		nats.ReconnectHandler(func(*nats.Conn) { poke(c.reconnected) }),
		// What the server refuses after the connection is made comes
		// apart from the request that was refused, which only times out:
		// the subject is kept, for that request's error to name.
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			if errors.Is(err, nats.ErrPermissionViolation) {
				c.refused.Store(&err)
			}
		}),
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
			return nil, &inbox.ServerError{Err: err, Msg: fmt.Sprintf("the NKey seed of nkey=%s cannot be read (%v): give the path of a seed file (SU...)", a.NKey, err)}
		}
		opts = append(opts, o)
	}
	if a.CA != "" {
		opts = append(opts, nats.RootCAs(a.CA))
	}
	nc, err := nats.Connect(a.serverURL(), opts...)
	// A server that did not finish the login in time is there and busy,
	// as when a fleet of askers starts at once: it is tried again before
	// giving up.
	for try := 1; isLoginLate(err) && try < loginTries; try++ {
		time.Sleep(time.Duration(try) * 250 * time.Millisecond)
		nc, err = nats.Connect(a.serverURL(), opts...)
	}
	if err != nil {
		return nil, connectError(a, err)
	}
	c.nc = nc
	// With no option, it cannot fail.
	c.js, _ = jetstream.New(nc)
	return c, nil
}

// poke wakes who waits on ch, unless it is to wake already.
func poke(ch chan<- struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// sleep waits d, unless ctx ends first: then it says why.
func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-time.After(d):
		return nil
	}
}

// refusedSubject returns what the server last refused this connection, if
// it mentions subject, else nil.
func (c *conn) refusedSubject(subject string) error {
	if refused := c.refused.Load(); refused != nil && strings.Contains((*refused).Error(), subject) {
		return *refused
	}
	return nil
}

// connectError says why the server could not be reached, and what to do.
func connectError(a *address, err error) error {
	msg := ""
	switch {
	case errors.Is(err, nats.ErrAuthorization), errors.Is(err, nats.ErrAuthExpired), errors.Is(err, nats.ErrAuthRevoked),
		strings.Contains(strings.ToLower(err.Error()), "authorization violation"):
		msg = fmt.Sprintf("the NATS server at %s refused the credentials: check the token, user:password, creds= or nkey= in %s", a.serverURL(), inbox.EnvAddr)
	case isA[x509.UnknownAuthorityError](err), isA[*tls.CertificateVerificationError](err), isA[x509.HostnameError](err):
		msg = fmt.Sprintf("the NATS server at %s has a certificate this machine does not trust (%v): give its CA with ca=FILE in %s", a.serverURL(), err, inbox.EnvAddr)
	case errors.Is(err, nats.ErrSecureConnRequired):
		msg = fmt.Sprintf("the NATS server at %s requires TLS: use tls:// in %s", a.serverURL(), inbox.EnvAddr)
	case isA[tls.RecordHeaderError](err), errors.Is(err, nats.ErrSecureConnWanted):
		msg = fmt.Sprintf("the NATS server at %s does not speak TLS: use nats:// in %s", a.serverURL(), inbox.EnvAddr)
	case isLoginLate(err):
		msg = fmt.Sprintf("the NATS server at %s did not finish this connection's login in time, %d times (%v): the server, or this machine, is too busy; try again when it is not", a.serverURL(), loginTries, err)
	case strings.Contains(err.Error(), "connections exceeded"):
		msg = fmt.Sprintf("the NATS server at %s holds as many connections as it allows (%v): end some, or ask its operator for more", a.serverURL(), err)
	case errors.Is(err, nats.ErrNoServers), isA[*net.OpError](err), errors.Is(err, nats.ErrTimeout):
		msg = fmt.Sprintf("no NATS server answers at %s: start one (nats-server -js), or check the host and port in %s", a.serverURL(), inbox.EnvAddr)
	default:
		msg = fmt.Sprintf("cannot connect to the NATS server at %s (%v): check %s", a.serverURL(), err, inbox.EnvAddr)
	}
	return &inbox.ServerError{Msg: msg, Err: err}
}

// loginTries is how many times a login that was late is made.
const loginTries = 4

// isLoginLate reports whether err says that the server had the connection
// but the login was late: the server's "Authentication Timeout", or its
// first ping come before its answer to the client's (nats.go's "expected
// 'PONG', got 'PING'").
func isLoginLate(err error) bool {
	e := strings.ToLower(fmt.Sprint(err))
	return strings.Contains(e, "authentication timeout") || strings.Contains(e, "expected 'pong', got 'ping'")
}

// isA reports whether err is, or wraps, an error of type E.
func isA[E error](err error) bool {
	_, ok := errors.AsType[E](err)
	return ok
}
