package natsinbox

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/inbox"
)

// consume reads both streams in new consumers: from their first message
// at the start, and again when a stream was made anew (its store lost);
// from the message after the last read when the connection comes back,
// rather than wait for the consumers to find out that it went. When one
// cannot start (the stream's leader not elected yet), none runs: the
// watcher tries again (see check).
func (f *feed) consume(ctx context.Context, sets, beats jetstream.Stream, resume bool) error {
	f.consMu.Lock()
	defer f.consMu.Unlock()
	f.stopConsumers()
	gen, epoch := f.generation.Add(1), f.epoch.Load()
	onErr := jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
		if errors.Is(err, jetstream.ErrConsumerDeleted) || errors.Is(err, jetstream.ErrStreamNotFound) || errors.Is(err, jetstream.ErrConsumerNotFound) {
			poke(f.kick)
		}
	})
	for i, r := range []struct {
		stream  jetstream.Stream
		filters []string
		// read reads a message of the stream, and returns what the loop
		// does with it.
		read func(m jetstream.Msg, md *jetstream.MsgMetadata, epoch int64) func()
		// pull bounds what the client holds of the stream, read but not
		// yet handled: the sets' messages may be a megabyte each.
		pull jetstream.PullConsumeOpt
	}{
		{sets, []string{f.l.addr.subject("set", "*.*"), f.l.addr.subject("end", "*")}, f.onStored, jetstream.PullMaxBytes(8 * maxMessage)},
		{beats, []string{f.l.addr.subject("beat", "*")}, f.onBeat, jetstream.PullMaxMessages(1000)},
	} {
		// handle keeps the sequence number of the message, and has the
		// loop do what it means, unless the consumers were started again
		// meanwhile (gen is no longer theirs).
		handle := func(m jetstream.Msg) {
			md, err := m.Metadata()
			if err != nil {
				return
			}
			f.last[i].Store(md.Sequence.Stream)
			fn := r.read(m, md, epoch)
			f.do(func() {
				if gen == f.generation.Load() {
					fn()
				}
			})
		}
		cfg := jetstream.OrderedConsumerConfig{FilterSubjects: r.filters, DeliverPolicy: jetstream.DeliverAllPolicy}
		if last := f.last[i].Load(); resume && last > 0 {
			cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, last+1
		} else {
			f.created[i] = r.stream.CachedInfo().Created
			f.last[i].Store(0)
		}
		cons, err := r.stream.OrderedConsumer(ctx, cfg)
		var cc jetstream.ConsumeContext
		if err == nil {
			cc, err = cons.Consume(handle, onErr, r.pull)
		}
		if err != nil {
			f.stopConsumers()
			return f.conn.streamError(r.stream.CachedInfo().Config.Name, err)
		}
		f.cons[i] = cons
		f.consumers = append(f.consumers, cc)
	}
	return nil
}

// stopConsumers stops the consumers, with consMu held. They are not
// waited for: one that is starting itself again on a connection that went
// takes its time, and what it still reads is dropped (see read's handle).
func (f *feed) stopConsumers() {
	for _, cc := range f.consumers {
		go cc.Stop()
	}
	f.consumers = nil
}

// report tells the person that the consumers could not start, or that
// their streams cannot be served (err), once until they read again, and
// then that they do.
func (f *feed) report(err error) {
	switch {
	case err != nil && !f.deaf.Swap(true):
		f.l.say("%v. The inbox waits until it can read them again.\n", err)
	case err == nil && f.deaf.Swap(false):
		f.l.say("Reading the inbox's streams on the NATS server at %s again.\n", f.l.addr.serverURL())
	}
}

// onStored reads a message of the sets' stream, as it was in epoch: a
// set's anchor, a copy of a set, or an end. What it costs to open is paid
// here, not in the loop. Each must expire as what askuser stores there
// does: nothing an agent stores outlives the stream's max age.
func (f *feed) onStored(m jetstream.Msg, md *jetstream.MsgMetadata, epoch int64) func() {
	// The consumer's filters give askuser.NAME.set.ID.COPY and
	// askuser.NAME.end.END: t is what follows NAME.
	t, subject := strings.Split(m.Subject(), ".")[2:], m.Subject()
	at, ts, pending := stored{epoch: epoch, seq: md.Sequence.Stream}, md.Timestamp, md.NumPending
	what, ttl := "an end of a set", endTTL
	switch {
	case t[0] == "set" && t[2] == "0":
		what = "a set's anchor"
	case t[0] == "set":
		what, ttl = "a copy of a set", setTTL
	}
	var do func()
	switch {
	case m.Headers().Get(jetstream.MsgTTLHeader) != ttl.String():
		do = func() { f.junk(subject, junkLasting(what), at) }
	case t[0] == "end":
		sealed, w := sealed(m.Data()), f.readEnd(m.Data())
		do = func() { f.onEnd(t[1], subject, at, ts, sealed, w) }
	case t[2] == "0":
		h := m.Headers()
		do = func() { f.onAnchor(t[1], h, at, ts) }
	default:
		o := f.open(t[1], m.Data())
		do = func() { f.onSet(t[1], subject, at, ts, o) }
	}
	return func() {
		do()
		if pending == 0 && !f.caughtUp {
			f.caughtUp = true
			f.showWaiting()
		}
	}
}

// onBeat reads a beat of an asker, or the inbox's tick; the beats have no
// epoch.
func (f *feed) onBeat(m jetstream.Msg, md *jetstream.MsgMetadata, _ int64) func() {
	// The consumer's filter gives askuser.NAME.beat.ID.
	id, ts := strings.Split(m.Subject(), ".")[3], md.Timestamp
	return func() {
		if id == f.tickID {
			f.tick(ts)
			return
		}
		e := f.byID[id]
		if e == nil {
			// Kept for a set not read yet, if a set could have that id,
			// and within the beats' own bound: the agents' credentials
			// may beat for anything.
			if isDigest(id) && (len(f.early) < maxBeats || !f.early[id].IsZero()) {
				f.early[id] = later(f.early[id], ts)
			}
			return
		}
		e.beat = later(e.beat, ts)
		f.show(e)
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// resume starts the consumers again when the connection comes back, from
// the message after the last read, at once: they would find out that it
// went only after a while (a laptop that wakes). The watcher finds out
// whether the streams were made anew meanwhile.
func (f *feed) resume() {
	f.l.say("Connected to the NATS server at %s again.\n", f.l.addr.serverURL())
	// f.sets and f.beats name the streams, as made anew too.
	f.report(f.consume(f.ctx, f.sets, f.beats, true))
}

// check is the watcher's look at both streams, every pollEvery and when a
// consumer says its stream or itself went (see start). It starts the
// consumers again from the start, when a stream was made anew (its store
// lost), or made again when it is missing (see renew);
// and from the message after the last read when none runs, because they
// could not start when last asked to (a cluster electing the stream's
// leader as the connection came back).
func (f *feed) check() {
	ctx, cancel := context.WithTimeout(f.ctx, inbox.ProbeTimeout)
	defer cancel()
	f.consMu.Lock()
	was, stopped := f.created, f.consumers == nil
	f.consMu.Unlock()
	var down error
	onCluster := f.conn.nc.IsConnected() && f.conn.nc.ConnectedClusterName() != ""
	for i, s := range []jetstream.Stream{f.sets, f.beats} {
		info, err := s.Info(ctx)
		if err == nil && onCluster && info.Cluster != nil && info.Cluster.Leader == "" {
			// A server of the stream's that has seen no leader for a
			// while answers for it.
			err = errNoLeader
		}
		switch {
		case errors.Is(err, jetstream.ErrStreamNotFound) || err == nil && !info.Created.Equal(was[i]):
			f.renew(ctx)
			return
		case err != nil && down == nil && onCluster:
			// The consumers may not find out for a while that nothing
			// comes (a cluster without quorum): the person is told now.
			down = f.conn.streamError(s.CachedInfo().Config.Name, err)
		}
	}
	if down == nil && stopped {
		// From the message after the last read.
		down = f.consume(f.ctx, f.sets, f.beats, true)
	}
	f.report(down)
}

// renew reads the streams again from their start, a stream having been
// made anew, or makes them again, one having been removed.
func (f *feed) renew(ctx context.Context) {
	// What was read of the streams names other messages now.
	f.epoch.Add(1)
	sets, beats, err := f.l.openStreams(ctx, f.conn)
	if err != nil {
		f.l.say("The inbox's streams on the NATS server were removed, and could not be made again: %v.\n", err)
		return
	}
	f.l.say("The inbox's streams on the NATS server were made anew (their store was lost): reading them again.\n")
	f.do(func() {
		for _, e := range f.byID {
			e.seqs = nil
		}
	})
	f.report(f.consume(f.ctx, sets, beats, false))
}
