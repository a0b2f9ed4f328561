package natsinbox

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"filippo.io/age"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

// listener serves the inbox at an address on NATS (see address.Listen): it
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

func newListener(a *address, out io.Writer) (*listener, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("find where to keep the inbox's identity: %w", err)
	}
	path := filepath.Join(dir, identityFile)
	id, created, err := loadIdentity(path)
	if err != nil {
		return nil, &inbox.ServerError{Msg: err.Error(), Err: err}
	}
	if r := id.Recipient().String(); a.To != "" && a.To != r {
		return nil, &inbox.ServerError{Msg: fmt.Sprintf("%s has to=%s, but this inbox's recipient is %s (kept in %s): use the address this inbox prints, or copy the identity of the inbox that printed yours", inbox.EnvAddr, a.To, r, path)}
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
	if err := l.serve(ctx, srv); err != nil {
		return &prompt.UnavailableError{Err: err}
	}
	return nil
}

func (l *listener) serve(ctx context.Context, srv *inbox.Server) error {
	c, err := dial(l.addr, roleInbox, "askuser inbox")
	if err != nil {
		return err
	}
	sets, beats, err := c.openStreams(ctx, l.say)
	if err == nil {
		err = l.claimKey(ctx, c)
	}
	if err != nil {
		c.close()
		return err
	}
	f := &feed{
		l: l, srv: srv, queue: srv.Queue(), conn: c, sets: sets, beats: beats,
		events: make(chan func(), 4096), kick: make(chan struct{}, 1), toDelete: make(chan struct{}, 1),
		byID: map[string]*entry{}, byEnd: map[string]*entry{}, early: map[string]time.Time{},
		tickID: "inbox-" + newSecret()[:16], reported: map[string]int{},
	}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	if err := f.consume(ctx, sets, beats, false); err != nil {
		c.close()
		return err
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

// claimKey stores the inbox's recipient on the server, for askers whose
// address has no to=, unless the first inbox stored one: then it must be
// this inbox's, or this inbox could open none of the sets sealed to it.
func (l *listener) claimKey(ctx context.Context, c *conn) error {
	mine := l.id.Recipient().String()
	for range 2 {
		key, err := c.key(ctx)
		if err != nil {
			return c.streamError(l.addr.setsStream(), err)
		}
		switch key {
		case mine:
			return nil
		case "":
			hdr := nats.Header{}
			hdr.Set(jetstream.MsgTTLHeader, "never")
			pctx, cancel := context.WithTimeout(ctx, inbox.ProbeTimeout)
			_, err = c.js.PublishMsg(pctx, &nats.Msg{Subject: l.addr.keySubject(), Header: hdr, Data: []byte(mine)})
			cancel()
			if err == nil {
				return nil
			}
			if !isTaken(err) {
				return c.streamError(l.addr.setsStream(), err)
			}
			// Another inbox stored its key just now: read it.
		default:
			return &inbox.ServerError{Msg: fmt.Sprintf("the inbox at %s seals to %s, and this inbox's identity (%s, in %s) is another, which could open none of its questions: copy the inbox.age of the machine where this inbox first ran to %s, or give this inbox a name of its own (%s://%s/NAME); if that identity is lost, remove the queue with nats stream rm %s", l.addr, key, mine, l.path, l.path, l.addr.Scheme, l.addr.Host, l.addr.setsStream())}
		}
	}
	return &inbox.ServerError{Msg: fmt.Sprintf("the NATS server at %s keeps no recipient for %s, though it took one", l.addr.serverURL(), l.addr)}
}
