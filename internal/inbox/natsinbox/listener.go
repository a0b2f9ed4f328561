package natsinbox

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"filippo.io/age"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

// listener serves the inbox at an address on NATS: it
// reads every set waiting on the server and every one that arrives, shows
// each while its asker beats, and stores how each ended there. Every
// inbox on the same queue shows every set; the first end stored wins, and
// the others take the set away, saying who ended it.
type listener struct {
	addr *address
	id   *age.X25519Identity
	// path is where the identity is kept; created says it was made now.
	path    string
	created bool
	// by names this inbox to the others: "answered elsewhere (by BY)".
	by  string
	out io.Writer
}

// Listen returns the inbox's side, with its age identity, made the first
// time. A server that cannot be used makes the inbox unavailable (exit
// 69), as for its askers.
func (a *address) Listen(out io.Writer) (inbox.Listener, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, &prompt.UnavailableError{Err: fmt.Errorf("find where to keep the inbox's identity: %w", err)}
	}
	path := filepath.Join(dir, identityFile)
	id, created, err := loadIdentity(path)
	if err != nil {
		return nil, &prompt.UnavailableError{Err: &inbox.ServerError{Msg: err.Error(), Err: err}}
	}
	if r := id.Recipient().String(); a.To != "" && a.To != r {
		return nil, &prompt.UnavailableError{Err: &inbox.ServerError{Msg: fmt.Sprintf("%s has to=%s, but this inbox's recipient is %s (kept in %s): use the address this inbox prints, or copy the identity of the inbox that printed yours", inbox.EnvAddr, a.To, r, path)}}
	}
	by := DefaultName()
	if host, err := os.Hostname(); err == nil && host != "" {
		by += "@" + host
	}
	return &listener{addr: a, id: id, path: path, created: created, by: by, out: out}, nil
}

func (l *listener) say(format string, args ...any) { _, _ = fmt.Fprintf(l.out, format, args...) }

// Serve serves srv's queue to the askers of the inbox on NATS, until srv
// closes. Sets left waiting when the inbox quits stay stored, for the next
// inbox. A server that cannot be used makes the inbox unavailable (exit
// 69), as for its askers.
func (l *listener) Serve(ctx context.Context, srv *inbox.Server) error {
	c, err := dial(l.addr, roleInbox, "askuser inbox")
	if err != nil {
		return &prompt.UnavailableError{Err: err}
	}
	sets, beats, err := l.openStreams(ctx, c)
	f := newFeed(l, srv, c, sets, beats)
	if err == nil {
		err = f.consume(ctx, sets, beats, false)
	}
	if err != nil {
		c.nc.Close()
		return &prompt.UnavailableError{Err: err}
	}
	f.caughtUp = sets.CachedInfo().State.Msgs == 0
	if l.created {
		l.say("Made this inbox's age identity in %s: askers seal their questions to it.\n", l.path)
	}
	withTo := *l.addr
	withTo.To = l.id.Recipient().String()
	l.say("Askers anywhere reach this inbox with %s='%s'\n", inbox.EnvAddr, withTo.URL())
	c.nc.SetDisconnectErrHandler(func(_ *nats.Conn, err error) {
		// A nil error is the connection closed on purpose.
		if err != nil && f.ctx.Err() == nil {
			l.say("Lost the NATS server at %s (%v): reconnecting; the questions wait there.\n", l.addr.serverURL(), err)
		}
	})
	f.start()
	srv.OnClose(f.stop)
	return nil
}

// openStreams opens the inbox's two streams (see openStream), the sets'
// naming its recipient, and stores a message on its key's subject, for
// askers whose address has no to= to find it there.
func (l *listener) openStreams(ctx context.Context, c *conn) (sets, beats jetstream.Stream, err error) {
	mine := l.id.Recipient().String()
	sets, err = l.openStream(ctx, c, l.addr.setsConfig(mine))
	if err == nil {
		beats, err = l.openStream(ctx, c, l.addr.beatsConfig())
	}
	if err != nil {
		return nil, nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, inbox.ProbeTimeout)
	defer cancel()
	key := &nats.Msg{Subject: l.addr.keySubject(mine), Header: nats.Header{jetstream.MsgTTLHeader: {"never"}}}
	// Whatever is stored there already says the same.
	if _, err := c.js.PublishMsg(pctx, key); err != nil && !isTaken(err) {
		return nil, nil, c.streamError(l.addr.setsStream(), err)
	}
	return sets, beats, nil
}

// unheardProof is the Proof of the inbox's withdrawal of the set whose end
// is end, for want of beats: a MAC of end under a key drawn from the
// queue's identity, which every inbox of the queue holds and no asker.
func (l *listener) unheardProof(end string) string {
	key := sha256.Sum256([]byte("askuser unheard\x00" + l.id.String()))
	m := hmac.New(sha256.New, key[:])
	m.Write([]byte(end))
	return hex.EncodeToString(m.Sum(nil))
}
