package natsinbox

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/inbox"
)

// The timing of an inbox on NATS. They are variables so that the tests
// of this package can run them faster; nothing else changes them.
var (
	// beatEvery is how often an asker stores its beat, and the inbox its
	// tick.
	beatEvery = time.Second
	// deadAfter is how long, in the server's time, an asker may go without
	// a beat stored before the inbox withdraws its set: it is gone.
	deadAfter = 3 * time.Second
	// setTTL is how long one copy of a set stays stored: its asker stores
	// a new copy every setTTL/2, so that the set of an asker that stops
	// waiting leaves the server within setTTL, whether an inbox runs or
	// not.
	setTTL = 2 * time.Minute
	// pollEvery is how often an asker looks for the inbox's key while
	// there is none (it checks it against to=), and how often the inbox
	// looks at its streams.
	pollEvery = 3 * time.Second
	// endPoll is how often an asker reads its end from the stream, in case
	// it went by unheard; one that was cut off reads it when it is back.
	endPoll = 30 * time.Second
)

const (
	// endTTL is how long an end stays stored: long enough for an asker
	// cut off from the server, or asleep, to read it when it is back.
	endTTL = 24 * time.Hour
	// storeAge is the stream's own limit on a message's age: what has no
	// TTL of its own (nothing askuser stores) and no inbox deleted.
	storeAge = endTTL + time.Hour
	// maxMessage bounds a message of the stream, and what is read from
	// one: a set of the largest questions, sealed.
	maxMessage = 2 * inbox.MaxRequestBytes
	// maxStored and maxStoredBytes bound the sets' stream: room for 10,000
	// waiting sets and a day of their ends, while one credential cannot
	// fill the server. maxBeats and maxBeatBytes bound the beats'.
	maxStored      = 100_000
	maxStoredBytes = 256 << 20
	maxBeats       = 100_000
	maxBeatBytes   = 16 << 20
	// maxBeat bounds a beat: it carries nothing.
	maxBeat = 256
	// headerWaited is the header of a copy of a set that says how long its
	// asker had waited when it stored that copy, in milliseconds: a set
	// asked again keeps its waiting time.
	headerWaited = "Askuser-Waited"
	// maxWaited bounds the waiting time a copy says: what the agents'
	// credentials write there cannot overflow a time, nor claim a set
	// waited longer than a week.
	maxWaited = 7 * 24 * time.Hour
)

// role is which side of the inbox a connection is.
type role string

const (
	roleInbox role = "inbox"
	roleAgent role = "agent"
)

func (a *address) subject(kind, id string) string {
	return "askuser." + a.Name + "." + kind + "." + id
}

func (a *address) keySubject() string { return "askuser." + a.Name + ".key" }

func (a *address) setsStream() string { return "ASKUSER_" + a.Name }

// beatsStream is a name no queue's sets stream can have: '-' after
// ASKUSER.
func (a *address) beatsStream() string { return "ASKUSER-BEATS_" + a.Name }

// replyPrefix is where the replies to a side's requests go: the inbox's
// and the agents' apart, and apart from every other user of the server.
func (a *address) replyPrefix(r role) string { return "_askuser." + a.Name + "." + string(r) }

func (a *address) setsConfig() jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        a.setsStream(),
		Description: "askuser inbox " + a.Name + ": the sets of questions waiting, sealed, and how each ended",
		Subjects:    []string{a.subject("set", "*.*"), a.subject("end", "*"), a.keySubject()},
		Storage:     jetstream.FileStorage,
		Retention:   jetstream.LimitsPolicy,
		// Once stored, a message is never replaced: a second one on its
		// subject is refused, and the stream's limits refuse what does
		// not fit rather than drop what waits.
		MaxMsgsPerSubject:    1,
		Discard:              jetstream.DiscardNew,
		DiscardNewPerSubject: true,
		MaxMsgs:              maxStored,
		MaxBytes:             maxStoredBytes,
		MaxMsgSize:           int32(maxMessage),
		MaxAge:               storeAge,
		AllowMsgTTL:          true,
		AllowDirect:          true,
		DenyPurge:            true,
		Duplicates:           2 * time.Minute,
	}
}

func (a *address) beatsConfig() jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:              a.beatsStream(),
		Description:       "askuser inbox " + a.Name + ": the beats of the askers that wait, and the inbox's ticks",
		Subjects:          []string{a.subject("beat", "*")},
		Storage:           jetstream.FileStorage,
		Retention:         jetstream.LimitsPolicy,
		MaxMsgsPerSubject: 1,
		Discard:           jetstream.DiscardOld,
		MaxMsgs:           maxBeats,
		MaxBytes:          maxBeatBytes,
		MaxMsgSize:        maxBeat,
		MaxAge:            setTTL,
		DenyPurge:         true,
		Duplicates:        time.Second,
	}
}

// conn is a connection to the server of an inbox on NATS.
type conn struct {
	addr *address
	nc   *nats.Conn
	js   jetstream.JetStream
	// reconnected receives a value at each reconnection.
	reconnected chan struct{}

	mu sync.Mutex
	// refused is what the server last refused this connection.
	refused error
}

// pingEvery is how often a side's connection makes sure the server is
// there: the inbox often, to tell the person soon; an asker, which may be
// one of ten thousand, seldom, its beats being written every second
// anyway.
var pingEvery = map[role]time.Duration{roleInbox: 5 * time.Second, roleAgent: 20 * time.Second}

// dial connects to a's server as the side r. Once connected, the client
// reconnects for ever: a restart of the server is waited out.
func dial(a *address, r role, name string) (*conn, error) {
	c := &conn{addr: a, reconnected: make(chan struct{}, 1)}
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
				c.mu.Lock()
				c.refused = err
				c.mu.Unlock()
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
	if err != nil {
		return nil, connectError(a, err)
	}
	c.nc = nc
	if c.js, err = jetstream.New(nc); err != nil {
		nc.Close()
		return nil, c.streamError(a.setsStream(), err)
	}
	return c, nil
}

func (c *conn) close() { c.nc.Close() }

// poke wakes who waits on ch, unless it is to wake already.
func poke(ch chan<- struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// refusedSubject returns what the server last refused this connection, if
// it mentions subject, else nil.
func (c *conn) refusedSubject(subject string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.refused != nil && strings.Contains(c.refused.Error(), subject) {
		return c.refused
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
	case errors.As(err, new(x509.UnknownAuthorityError)), errors.As(err, new(*tls.CertificateVerificationError)), errors.As(err, new(x509.HostnameError)):
		msg = fmt.Sprintf("the NATS server at %s has a certificate this machine does not trust (%v): give its CA with ca=FILE in %s", a.serverURL(), err, inbox.EnvAddr)
	case errors.Is(err, nats.ErrSecureConnRequired):
		msg = fmt.Sprintf("the NATS server at %s requires TLS: use tls:// in %s", a.serverURL(), inbox.EnvAddr)
	case errors.As(err, new(tls.RecordHeaderError)), errors.Is(err, nats.ErrSecureConnWanted):
		msg = fmt.Sprintf("the NATS server at %s does not speak TLS: use nats:// in %s", a.serverURL(), inbox.EnvAddr)
	case errors.Is(err, nats.ErrNoServers), errors.As(err, new(*net.OpError)), errors.Is(err, nats.ErrTimeout):
		msg = fmt.Sprintf("no NATS server answers at %s: start one (nats-server -js), or check the host and port in %s", a.serverURL(), inbox.EnvAddr)
	default:
		msg = fmt.Sprintf("cannot connect to the NATS server at %s (%v): check %s", a.serverURL(), err, inbox.EnvAddr)
	}
	return &inbox.ServerError{Msg: msg, Err: err}
}

// streamError says why the server would not do what was asked of the
// stream name, and what to do.
func (c *conn) streamError(name string, err error) error {
	a := c.addr
	if refused := c.refusedSubject(name); refused != nil {
		// The server refused a subject and said so apart: the request
		// only timed out.
		err = refused
	}
	msg := ""
	switch {
	case errors.Is(err, nats.ErrPermissionViolation):
		msg = fmt.Sprintf("the NATS server at %s does not allow these credentials what the inbox needs (%v): grant them the subjects that docs/across-machines.md lists", a.serverURL(), err)
	case errors.Is(err, jetstream.ErrJetStreamNotEnabled), errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount), errors.Is(err, nats.ErrNoResponders):
		msg = fmt.Sprintf("the NATS server at %s has no JetStream for this account, where the questions wait: start it with nats-server -js (or enable JetStream for the account)", a.serverURL())
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrTimeout):
		msg = fmt.Sprintf("the NATS server at %s did not answer for the stream %s: check that JetStream is on (nats-server -js) and that these credentials may use %s and askuser.%s.>", a.serverURL(), name, name, a.Name)
	default:
		msg = fmt.Sprintf("the NATS server at %s refused the inbox's stream %s (%v): check that JetStream is on (nats-server -js, version 2.11 or later)", a.serverURL(), name, err)
	}
	return &inbox.ServerError{Msg: msg, Err: err}
}

// openStreams finds the inbox's two streams, makes those missing, and
// corrects those whose configuration is not askuser's (an agent, or an
// older askuser, may have made them), saying so with say.
func (c *conn) openStreams(ctx context.Context, say func(string, ...any)) (sets, beats jetstream.Stream, err error) {
	if sets, err = c.openStream(ctx, c.addr.setsConfig(), say); err != nil {
		return nil, nil, err
	}
	if beats, err = c.openStream(ctx, c.addr.beatsConfig(), say); err != nil {
		return nil, nil, err
	}
	return sets, beats, nil
}

func (c *conn) openStream(ctx context.Context, want jetstream.StreamConfig, say func(string, ...any)) (jetstream.Stream, error) {
	ctx, cancel := context.WithTimeout(ctx, inbox.ProbeTimeout)
	defer cancel()
	s, err := c.js.Stream(ctx, want.Name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		s, err = c.js.CreateStream(ctx, want)
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			s, err = c.js.Stream(ctx, want.Name)
		}
	}
	if err != nil {
		return nil, c.streamError(want.Name, err)
	}
	diffs := configDiff(s.CachedInfo().Config, want)
	if len(diffs) == 0 {
		return s, nil
	}
	if s, err = c.js.UpdateStream(ctx, want); err != nil {
		return nil, &inbox.ServerError{Err: err, Msg: fmt.Sprintf("the stream %s on the NATS server at %s has %s, which is not askuser's, and the inbox could not change it (%v): remove it (nats stream rm %s; what waits there is lost) and start the inbox again", want.Name, c.addr.serverURL(), strings.Join(diffs, ", "), err, want.Name)}
	}
	say("The stream %s on the NATS server had %s: the inbox changed it to askuser's.\n", want.Name, strings.Join(diffs, ", "))
	return s, nil
}

// configDiff names what in have is not as in want, in the words of the
// nats command's stream configuration.
func configDiff(have, want jetstream.StreamConfig) []string {
	var out []string
	add := func(name string, h, w any) {
		if fmt.Sprint(h) != fmt.Sprint(w) {
			out = append(out, fmt.Sprintf("%s %v (askuser's: %v)", name, h, w))
		}
	}
	add("subjects", have.Subjects, want.Subjects)
	add("storage", have.Storage, want.Storage)
	add("retention", have.Retention, want.Retention)
	add("max_msgs_per_subject", have.MaxMsgsPerSubject, want.MaxMsgsPerSubject)
	add("discard", have.Discard, want.Discard)
	add("discard_new_per_subject", have.DiscardNewPerSubject, want.DiscardNewPerSubject)
	add("max_msgs", have.MaxMsgs, want.MaxMsgs)
	add("max_bytes", have.MaxBytes, want.MaxBytes)
	add("max_msg_size", have.MaxMsgSize, want.MaxMsgSize)
	add("max_age", have.MaxAge, want.MaxAge)
	add("allow_msg_ttl", have.AllowMsgTTL, want.AllowMsgTTL)
	add("allow_direct", have.AllowDirect, want.AllowDirect)
	add("deny_purge", have.DenyPurge, want.DenyPurge)
	add("deny_delete", have.DenyDelete, want.DenyDelete)
	add("allow_rollup_hdrs", have.AllowRollup, want.AllowRollup)
	add("sealed", have.Sealed, want.Sealed)
	return out
}

// makeStreams makes the inbox's streams for an asker that found none:
// where its credentials may, it queues its set before any inbox ran, as
// the inbox would have made them. What is there already is left as it is
// (the inbox corrects it).
func (c *conn) makeStreams(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, inbox.ProbeTimeout)
	defer cancel()
	for _, cfg := range []jetstream.StreamConfig{c.addr.setsConfig(), c.addr.beatsConfig()} {
		_, err := c.js.CreateStream(ctx, cfg)
		if err == nil || errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			continue
		}
		if c.refusedSubject(cfg.Name) != nil {
			return &inbox.ServerError{Err: err, Msg: fmt.Sprintf("no inbox has run at %s yet, to make its queue (the stream %s), and these credentials may not make it: start askuser inbox with the inbox's credentials once, then ask again", c.addr, cfg.Name)}
		}
		return c.streamError(cfg.Name, err)
	}
	return nil
}

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
