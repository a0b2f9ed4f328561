package natsinbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/inbox"
)

const (
	// endTTL is how long an end stays stored: long enough for an asker
	// cut off from the server, or asleep, to read it when it is back. A
	// set's anchor stays as long, for a set asked again to keep its
	// waiting time.
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
)

func (a *address) subject(kind, id string) string {
	return "askuser." + a.Name + "." + kind + "." + id
}

// keySubject is the subject that names the inbox's recipient: the sets'
// stream takes messages on it for that recipient alone, so that whatever
// is stored there (a reply that an agent aimed at it included) says the
// same.
func (a *address) keySubject(recipient string) string { return a.subject("key", recipient) }

func (a *address) setsStream() string { return "ASKUSER_" + a.Name }

// beatsStream is a name no queue's sets stream can have: '-' after
// ASKUSER.
func (a *address) beatsStream() string { return "ASKUSER-BEATS_" + a.Name }

// setsConfig is the sets' stream, naming the inbox's recipient key
// (none when an asker makes it: see makeStreams).
func (a *address) setsConfig(key string) jetstream.StreamConfig {
	subjects := []string{a.subject("set", "*.*"), a.subject("end", "*")}
	if key != "" {
		subjects = append(subjects, a.keySubject(key))
	}
	return jetstream.StreamConfig{
		Name:        a.setsStream(),
		Description: "askuser inbox " + a.Name + ": the sets of questions waiting, sealed, and how each ended",
		Subjects:    subjects,
		Storage:     jetstream.FileStorage,
		Replicas:    a.Replicas,
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
	}
}

// beatsConfig is the beats' stream: in memory, each beat being worth a
// second, and written ten thousand times a second when as many wait; on
// disk when several servers of a cluster keep it: NATS elects no leader
// on the votes of servers that came back empty, so that in memory, two of
// its three servers restarted, it would have none until the third is back.
func (a *address) beatsConfig() jetstream.StreamConfig {
	storage := jetstream.MemoryStorage
	if a.Replicas > 1 {
		storage = jetstream.FileStorage
	}
	return jetstream.StreamConfig{
		Name:              a.beatsStream(),
		Description:       "askuser inbox " + a.Name + ": the beats of the askers that wait, and the inbox's ticks",
		Subjects:          []string{a.subject("beat", "*")},
		Storage:           storage,
		Replicas:          a.Replicas,
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

// streamError says why the server would not do what was asked of the
// stream name, and what to do.
func (c *conn) streamError(name string, err error) error {
	a := c.addr
	if refused := c.refusedSubject(name); refused != nil {
		// The server refused a subject and said so apart: the request
		// only timed out.
		err = refused
	}
	apiErr, _ := errors.AsType[*jetstream.APIError](err)
	timedOut := errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout)
	msg := ""
	switch {
	case errors.Is(err, nats.ErrPermissionViolation):
		msg = fmt.Sprintf("the NATS server at %s does not allow these credentials what the inbox needs (%v): grant them the subjects that docs/across-machines.md lists", a.serverURL(), err)
	case errors.Is(err, jetstream.ErrJetStreamNotEnabled), errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount), errors.Is(err, nats.ErrNoResponders):
		msg = fmt.Sprintf("the NATS server at %s has no JetStream for this account, where the questions wait: start it with nats-server -js (or enable JetStream for the account)", a.serverURL())
	case apiErr != nil && (apiErr.ErrorCode == errStorageExceeded || apiErr.ErrorCode == errMemoryExceeded):
		msg = fmt.Sprintf("the NATS server at %s has insufficient storage for the stream %s (%v): raise this account's JetStream limits (max_file, max_mem), each replica counted (three times what the streams take with replicas=%d), or the server's, as docs/across-machines.md's configuration gives them", a.serverURL(), name, err, max(a.Replicas, 1))
	case c.nc.ConnectedClusterName() != "" && (timedOut || errors.Is(err, errNoLeader) || apiErr != nil && slices.Contains(unavailable, apiErr.ErrorCode)):
		msg = fmt.Sprintf("the stream %s is unavailable on the NATS cluster at %s (%v): the servers that keep it have no quorum (too many of them are down) or are electing its leader; it is back when they do (replicas=3 in %s keeps it while one server is down)", name, a.serverURL(), err, inbox.EnvAddr)
	case apiErr != nil && apiErr.ErrorCode == errInsufficientResources:
		msg = fmt.Sprintf("the NATS server at %s has no room for the stream %s (%v): raise the JetStream limits of the server or of this account (max_file, max_mem, max_streams)", a.serverURL(), name, err)
	case timedOut:
		msg = fmt.Sprintf("the NATS server at %s did not answer for the stream %s: check that JetStream is on (nats-server -js) and that these credentials may use %s and askuser.%s.>", a.serverURL(), name, name, a.Name)
	default:
		msg = fmt.Sprintf("the NATS server at %s refused the inbox's stream %s (%v): check that JetStream is on (nats-server -js, version 2.11 or later)", a.serverURL(), name, err)
	}
	return &inbox.ServerError{Msg: msg, Err: err}
}

// The server's errors of a stream that cannot be served now: no servers
// of the cluster to place it on, the cluster's JetStream away, the stream
// offline, or (on one server) no room.
const (
	errNoPeers               jetstream.ErrorCode = 10005
	errClusterNotAvailable   jetstream.ErrorCode = 10008
	errInsufficientResources jetstream.ErrorCode = 10023
	errStreamOffline         jetstream.ErrorCode = 10118
	// errStorageExceeded is "insufficient storage resources available",
	// and errMemoryExceeded the same in memory: the account's (or the
	// server's) JetStream limits have no room for the stream, each replica
	// counted.
	errStorageExceeded jetstream.ErrorCode = 10047
	errMemoryExceeded  jetstream.ErrorCode = 10028
)

// errNoLeader is a stream on a cluster that no server leads.
var errNoLeader = errors.New("no server of the cluster leads it")

// unavailable are the errors of a cluster that cannot serve a stream now.
var unavailable = []jetstream.ErrorCode{errNoPeers, errClusterNotAvailable, errInsufficientResources, errStreamOffline}

// keyOf returns the recipient that the subjects of a sets' stream name,
// or "".
func (a *address) keyOf(subjects []string) string {
	for _, s := range subjects {
		if r, ok := strings.CutPrefix(s, a.subject("key", "")); ok {
			return r
		}
	}
	return ""
}

// openStream finds a stream of the inbox on c, makes it when it is
// missing, and corrects it when its configuration is not askuser's (an
// agent, or an older askuser, may have made it), saying so. A sets'
// stream that names another inbox's recipient (see keySubject) is
// refused: this inbox could open none of the sets sealed to it.
func (l *listener) openStream(ctx context.Context, c *conn, want jetstream.StreamConfig) (jetstream.Stream, error) {
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
	have := s.CachedInfo().Config
	if k := l.addr.keyOf(have.Subjects); k != "" && k != l.addr.keyOf(want.Subjects) {
		return nil, &inbox.ServerError{Msg: fmt.Sprintf("the inbox at %s seals to %s, and this inbox's identity (%s, in %s) is another, which could open none of its questions: copy the inbox.age of the machine where this inbox first ran to %s, or give this inbox a name of its own (%s/NAME); if that identity is lost, remove the queue with nats stream rm %s", l.addr, k, l.id.Recipient(), l.path, l.path, l.addr.serverURL(), l.addr.setsStream())}
	}
	diffs := configDiff(have, want)
	if len(diffs) == 0 {
		return s, nil
	}
	if s, err = c.js.UpdateStream(ctx, want); err != nil {
		return nil, &inbox.ServerError{Err: err, Msg: fmt.Sprintf("the stream %s on the NATS server at %s has %s, which is not askuser's, and these credentials could not change it (%v): have it removed with credentials that may (nats stream rm %s; what waits there is lost), and start the inbox again, which makes it as askuser's", want.Name, c.addr.serverURL(), strings.Join(diffs, ", "), err, want.Name)}
	}
	if l.addr.keyOf(have.Subjects) != "" || len(diffs) > 1 || !strings.HasPrefix(diffs[0], "subjects") {
		// A stream that an asker made lacks only the inbox's key: that
		// is not news.
		l.say("The stream %s on the NATS server had %s: the inbox changed it to askuser's.\n", want.Name, strings.Join(diffs, ", "))
	}
	return s, nil
}

// configFields are the fields of a stream's configuration that must be
// askuser's, in the order they are named; the last four would bring into
// the stream what was not published on its subjects, or send its messages
// elsewhere.
var configFields = []string{
	"Subjects", "Storage", "Replicas", "Retention", "MaxMsgsPerSubject", "Discard", "DiscardNewPerSubject",
	"MaxMsgs", "MaxBytes", "MaxMsgSize", "MaxAge", "AllowMsgTTL", "AllowDirect", "DenyPurge", "DenyDelete",
	"AllowRollup", "AllowMsgSchedules", "Sealed", "Sources", "Mirror", "SubjectTransform", "RePublish",
}

// configDiff names what in have is not as in want, in the words of the
// nats command's stream configuration: the fields' JSON names, but
// num_replicas, which it calls replicas.
func configDiff(have, want jetstream.StreamConfig) []string {
	var out []string
	for _, field := range configFields {
		f, _ := reflect.TypeFor[jetstream.StreamConfig]().FieldByName(field)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		name = strings.TrimPrefix(name, "num_")
		show := func(c jetstream.StreamConfig) string {
			v := reflect.ValueOf(c).FieldByName(field)
			if v.Kind() == reflect.Pointer || v.Kind() == reflect.Slice && field != "Subjects" {
				b, _ := json.Marshal(v.Interface())
				return string(b)
			}
			return fmt.Sprint(v.Interface())
		}
		if h, w := show(have), show(want); h != w {
			out = append(out, fmt.Sprintf("%s %s (askuser's: %s)", name, h, w))
		}
	}
	return out
}

// makeStreams makes the inbox's streams for an asker that found none:
// where its credentials may, it queues its set before any inbox ran, as
// the inbox would have made them, but for the inbox's key, which the
// inbox adds. What is there already is left as it is (the inbox corrects
// it). On a cluster, a queue it cannot make is errNoQuorum, unless
// JetStream is off; off a cluster, a server with no queue answers at once
// that it has none.
func (c *conn) makeStreams(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, inbox.ProbeTimeout)
	defer cancel()
	for _, cfg := range []jetstream.StreamConfig{c.addr.setsConfig(""), c.addr.beatsConfig()} {
		_, err := c.js.CreateStream(ctx, cfg)
		switch {
		case err == nil, errors.Is(err, jetstream.ErrStreamNameAlreadyInUse):
		case c.nc.ConnectedClusterName() != "" && !errors.Is(err, jetstream.ErrJetStreamNotEnabled) && !errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount):
			return errNoQuorum
		case c.refusedSubject(cfg.Name) != nil:
			return &inbox.ServerError{Err: err, Msg: fmt.Sprintf("no inbox has run at %s yet, to make its queue (the stream %s), and these credentials may not make it: start askuser inbox with the inbox's credentials once, then ask again", c.addr, cfg.Name)}
		default:
			return c.streamError(cfg.Name, err)
		}
	}
	return nil
}

// isFull reports whether err is the stream refusing a message for want of
// room (its limits on messages or bytes): the inbox makes room as it
// deletes what ended.
func isFull(err error) bool {
	apiErr, ok := errors.AsType[*jetstream.APIError](err)
	return ok && strings.Contains(apiErr.Description, "maximum") && !strings.Contains(apiErr.Description, "per subject") && !strings.Contains(apiErr.Description, "payload")
}

// isTaken reports whether err is the stream refusing a message because
// its subject holds one already.
func isTaken(err error) bool {
	apiErr, ok := errors.AsType[*jetstream.APIError](err)
	return ok && strings.Contains(apiErr.Description, "per subject")
}

// errEndTaken is an end published where another one already is: the set
// ended first elsewhere.
var errEndTaken = errors.New("the set has already ended")

// errNotStored is an acknowledgement of an end that the sets' stream did
// not give: another stream's, or one that whoever reads the ends' subjects
// sent to the reply subject it saw.
var errNotStored = errors.New("what acknowledged it was not the sets' stream storing it")

// publishEnd stores the end of a set, unless one is stored already: then
// the error is errEndTaken, but when the one stored is body itself (stored
// before, its reply lost to a server restarting). An end counts as stored
// only on the sets' stream's own word: its acknowledgement names the
// stream and a sequence, and the stream holds body at that sequence on
// the end's subject; anything else on the reply subject is errNotStored.
func (c *conn) publishEnd(ctx context.Context, end string, body []byte) error {
	ack, err := c.js.Publish(ctx, c.addr.subject("end", end), body, jetstream.WithMsgTTL(endTTL))
	taken := isTaken(err)
	if err != nil && !taken {
		return err
	}
	if !taken && (ack.Stream != c.addr.setsStream() || ack.Sequence == 0) {
		return errNotStored
	}
	patience := 2 * time.Second
	if taken {
		patience = 0
	}
	m, err := c.lastEnd(ctx, end, patience)
	switch {
	case err != nil:
		return err
	case m == nil:
		return errNotStored
	case string(m.Data) == string(body):
		if seqs := m.Header.Values(jetstream.SequenceHeader); !taken && (len(seqs) == 0 || seqs[len(seqs)-1] != strconv.FormatUint(ack.Sequence, 10)) {
			return errNotStored
		}
		return nil
	}
	return errEndTaken
}

// lastEnd returns the end stored under end, or nil. A direct get may be
// answered by a replica that has not stored an end published just now,
// on a cluster, or fail for a moment: it is given up to patience to, and
// the last error is returned when that ends.
func (c *conn) lastEnd(ctx context.Context, end string, patience time.Duration) (*jetstream.RawStreamMsg, error) {
	for wait := 10 * time.Millisecond; ; wait *= 2 {
		m, err := c.directGet(ctx, c.addr.subject("end", end))
		if m != nil || wait > patience {
			return m, err
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// directGet returns the last message stored on subject (which may end in
// a wildcard) in the sets' stream, or nil, by a direct get: the agents'
// credentials need no more than that subject (not the stream's
// information, which lists every subject).
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
	// The server adds its headers after those stored with the message,
	// which an agent may have written (by aiming at the stream a reply
	// that carries them): its subject is the last.
	subjects := resp.Header.Values(jetstream.SubjectHeader)
	if len(subjects) == 0 {
		return nil, fmt.Errorf("direct get of %s: no subject", subject)
	}
	return &jetstream.RawStreamMsg{Subject: subjects[len(subjects)-1], Header: resp.Header, Data: resp.Data}, nil
}

// key returns the recipient of the inbox, as the sets' stream names it,
// or "" when no inbox has stored it yet (see listener.storeKey).
func (c *conn) key(ctx context.Context) (string, error) {
	m, err := c.directGet(ctx, c.addr.subject("key", "*"))
	if err != nil || m == nil {
		return "", err
	}
	return c.addr.keyOf([]string{m.Subject}), nil
}
