package natsinbox

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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

// feed brings the sets waiting on the server into the server's queue, and
// stores how each ended there. One goroutine, its loop, owns its state:
// the consumers of the two streams, the sets' goroutines and the watcher
// hand it what they learn as functions (do).
type feed struct {
	l           *listener
	srv         *inbox.Server
	queue       *inbox.Queue
	conn        *conn
	sets, beats jetstream.Stream // by name: they stay good when the streams are made anew
	ctx         context.Context
	cancel      context.CancelFunc
	events      chan func()
	kick        chan struct{} // to the watcher: look at the streams now
	// ending counts the ends being stored, which the inbox waits for a
	// moment when it quits; background counts the goroutines that run as
	// long as the feed, its loop among them.
	ending, background sync.WaitGroup

	// The consumers, with the time their streams were made, and their
	// generation: a message of an earlier one, on its way while they were
	// started again, is dropped.
	consMu     sync.Mutex
	consumers  []jetstream.ConsumeContext
	setsCons   jetstream.Consumer
	created    [2]time.Time
	generation atomic.Int64
	// epoch counts the times the streams were made anew; last is the
	// sequence number of the last message read of each.
	epoch atomic.Int64
	last  [2]atomic.Uint64

	deleteMu sync.Mutex
	deletes  []stored
	toDelete chan struct{}

	// The loop's own.
	byID, byEnd map[string]*entry
	early       map[string]time.Time // beats of sets not read yet, in the server's time
	tickID      string
	closing     bool          // the inbox quits: no end is stored any more
	lastTick    time.Time     // the server's time of the last tick
	window      time.Time     // since when ticks came without a gap
	skew        time.Duration // the server's clock less this machine's
	caughtUp    bool          // the sets' stream was read to its end once
	ready       bool          // the sets that waited before the inbox are shown
	reported    map[string]int
}

// stored is a message of the sets' stream, by its sequence number in the
// stream as it was in epoch: a number read before the stream was made
// anew names another message now.
type stored struct {
	epoch int64
	seq   uint64
}

// entry is a set the feed knows of.
type entry struct {
	id, end string
	set     *inbox.Set // nil for what is not a set, kept so as to drop its copies
	reply   string
	sum     [32]byte  // the digest of its message: every copy is the same
	seqs    []stored  // its copies in the stream
	posted  time.Time // the server's time of its last copy
	beat    time.Time // the server's time of its asker's last beat
	asked   time.Time // the server's time when its asker first asked it
	shown   bool      // in the queue
	settled bool      // its end is stored, or being stored
	since   time.Time // when it settled, in the server's time, to forget it later
}

func (f *feed) do(fn func()) {
	select {
	case f.events <- fn:
	case <-f.ctx.Done():
	}
}

func (f *feed) start() {
	f.background.Go(f.loop)
	f.background.Go(f.ticks)
	f.background.Go(f.watch)
	f.background.Go(f.resume)
	f.background.Go(f.deleter)
}

func (f *feed) loop() {
	for {
		select {
		case fn := <-f.events:
			fn()
		case <-f.ctx.Done():
			return
		}
	}
}

// stop lets the ends being stored go out, for a moment, and disconnects.
func (f *feed) stop() {
	// Once the loop has run this, it starts storing no end: ending is
	// only waited on.
	f.do(func() { f.closing = true })
	done := make(chan struct{})
	go func() {
		f.ending.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
	f.cancel()
	<-done
	f.background.Wait()
	// Closed first: a consumer starting itself again stops at once.
	f.conn.close()
	f.consMu.Lock()
	for _, cc := range f.consumers {
		cc.Stop()
	}
	f.consMu.Unlock()
}

// consume reads both streams in new consumers: from their first message
// at the start, and again when a stream was made anew (its store lost);
// from the message after the last read when the connection comes back,
// rather than wait for the consumers to find out that it went.
func (f *feed) consume(ctx context.Context, sets, beats jetstream.Stream, resume bool) error {
	f.consMu.Lock()
	defer f.consMu.Unlock()
	for _, cc := range f.consumers {
		// Not waited for: one that is starting itself again on a
		// connection that went takes its time, and what it still reads
		// is dropped (see handle).
		go cc.Stop()
	}
	f.consumers = nil
	gen, epoch := f.generation.Add(1), f.epoch.Load()
	onErr := jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
		if errors.Is(err, jetstream.ErrConsumerDeleted) || errors.Is(err, jetstream.ErrStreamNotFound) || errors.Is(err, jetstream.ErrConsumerNotFound) {
			poke(f.kick)
		}
	})
	for i, s := range []struct {
		stream  jetstream.Stream
		filters []string
		// read reads a message of the stream, and returns what the loop
		// does with it.
		read func(m jetstream.Msg, md *jetstream.MsgMetadata, epoch int64) func()
	}{
		{sets, []string{f.l.addr.subject("set", "*.*"), f.l.addr.subject("end", "*")}, f.onStored},
		{beats, nil, f.onBeat},
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
			fn := s.read(m, md, epoch)
			f.do(func() {
				if gen == f.generation.Load() {
					fn()
				}
			})
		}
		cfg := jetstream.OrderedConsumerConfig{FilterSubjects: s.filters, DeliverPolicy: jetstream.DeliverAllPolicy}
		if last := f.last[i].Load(); resume && last > 0 {
			cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, last+1
		} else {
			f.created[i] = s.stream.CachedInfo().Created
			f.last[i].Store(0)
		}
		cons, err := s.stream.OrderedConsumer(ctx, cfg)
		var cc jetstream.ConsumeContext
		if err == nil {
			cc, err = cons.Consume(handle, onErr)
		}
		if err != nil {
			return f.conn.streamError(s.stream.CachedInfo().Config.Name, err)
		}
		if i == 0 {
			f.setsCons = cons
		}
		f.consumers = append(f.consumers, cc)
	}
	return nil
}

// tokens returns the tokens of a subject askuser.NAME.KIND.ID[.N] after
// NAME.
func tokens(subject string) []string {
	parts := strings.Split(subject, ".")
	if len(parts) < 4 {
		return nil
	}
	return parts[2:]
}

// onStored reads a message of the sets' stream, as it was in epoch: a
// copy of a set, or an end.
func (f *feed) onStored(m jetstream.Msg, md *jetstream.MsgMetadata, epoch int64) func() {
	t, data := tokens(m.Subject()), m.Data()
	at, ts, pending := stored{epoch: epoch, seq: md.Sequence.Stream}, md.Timestamp, md.NumPending
	// How long the set waited before this copy, as its asker says: not
	// less than nothing, nor more than maxWaited, however it is
	// written.
	waited, _ := strconv.ParseInt(m.Headers().Get(headerWaited), 10, 64)
	waited = min(max(waited, 0), maxWaited.Milliseconds())
	ttl := m.Headers().Get(jetstream.MsgTTLHeader)
	return func() {
		switch {
		case len(t) == 3 && t[0] == "set":
			f.onSet(t[1], m.Subject(), at, ts, time.Duration(waited)*time.Millisecond, data)
		case len(t) == 2 && t[0] == "end":
			f.onEnd(t[1], m.Subject(), at, ts, ttl, data)
		}
		if pending == 0 && !f.caughtUp {
			f.caughtUp = true
			f.showWaiting()
		}
	}
}

// onBeat reads a beat of an asker, or the inbox's tick; the beats have no
// epoch.
func (f *feed) onBeat(m jetstream.Msg, md *jetstream.MsgMetadata, _ int64) func() {
	t, ts := tokens(m.Subject()), md.Timestamp
	return func() {
		if len(t) != 2 {
			return
		}
		id := t[1]
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

// onSet reads a copy of a set. The first copy read is the set: it is
// opened, checked (its secret must name its subject, and its questions be
// valid) and shown while its asker beats; later copies, the same bytes,
// only keep it stored. What cannot be opened, or is not the set known
// under its id, is told once and deleted, and changes nothing.
func (f *feed) onSet(id, subject string, at stored, ts time.Time, waited time.Duration, data []byte) {
	sum := sha256.Sum256(data)
	if e := f.byID[id]; e != nil {
		switch {
		case e.sum != sum:
			f.junk(subject, "is not its subject's set: the set stored under that id before is another")
			f.delete(at)
		case e.settled:
			f.delete(at)
		case !slices.Contains(e.seqs, at):
			e.posted = later(e.posted, ts)
			e.seqs = append(e.seqs, at)
		}
		return
	}
	ws, problem := f.open(id, data)
	if problem != "" {
		f.junk(subject, problem)
		f.delete(at)
		if ws != nil {
			// A set that this inbox will not take, unsealed: its asker is
			// told why.
			e := &entry{id: id, end: endID(ws.Secret), reply: ws.Reply, settled: true, since: ts}
			f.publish(e, wireEnd{End: endRefused, Refused: &inbox.ErrorBody{Error: "this inbox takes only questions sealed to it: give the asker the address that askuser inbox printed, with its to="}}, "")
		}
		return
	}
	e := &entry{id: id, end: endID(ws.Secret), reply: ws.Reply, sum: sum, seqs: []stored{at}, posted: ts, asked: ts.Add(-waited), beat: f.early[id]}
	delete(f.early, id)
	f.byID[id], f.byEnd[e.end] = e, e
	set, refused := f.srv.Check(&ws.Request)
	if refused != nil {
		e.settled, e.since = true, ts
		f.publish(e, wireEnd{End: endRefused, Refused: refused}, "")
		return
	}
	e.set = set
	f.show(e)
}

// open opens a set's message on subject ID, and returns why it is not a
// set this inbox takes, or "". A set sent unsealed to an inbox that takes
// only sealed ones is returned with why, for its asker to be told.
func (f *feed) open(id string, data []byte) (*wireSet, string) {
	plain, err := open(data, f.l.id, maxMessage)
	switch {
	case errors.Is(err, errNotForUs):
		return nil, fmt.Sprintf("is sealed to another recipient than this inbox's (%s): its asker's to= is another inbox's", f.l.id.Recipient())
	case err != nil:
		return nil, fmt.Sprintf("cannot be opened (%v)", err)
	}
	var ws wireSet
	if err := json.Unmarshal(plain, &ws); err != nil || ws.Secret == "" {
		return nil, "is not a set of questions"
	}
	if setID(ws.Secret) != id {
		return nil, "is not its subject's set (its secret does not name the subject): it was not stored by that set's asker"
	}
	if _, err := age.ParseX25519Recipient(ws.Reply); err != nil {
		return nil, "carries no age recipient to seal its answer to (reply is not age1...)"
	}
	if !sealed(data) && !f.l.addr.Plaintext {
		return &ws, "is not sealed: this inbox takes only sets sealed to it, unless its address says insecure=plaintext"
	}
	return &ws, ""
}

// junk tells the person of a message that is deleted because it is not a
// set this inbox takes: the first of each kind at once, the rest counted
// at the next tick.
func (f *feed) junk(subject, problem string) {
	f.reported[problem]++
	if f.reported[problem] == 1 {
		f.l.say("Deleted a message on %s that %s.\n", prompt.Display(subject), problem)
	}
}

// sayJunk tells the person how many messages were deleted since the last
// tick, beyond the first of each kind.
func (f *feed) sayJunk() {
	n := 0
	for problem, count := range f.reported {
		if count > 1 {
			n += count - 1
			f.reported[problem] = 1
		}
	}
	switch {
	case n == 1:
		f.l.say("Deleted 1 more message that this inbox does not take.\n")
	case n > 1:
		f.l.say("Deleted %d more messages that this inbox does not take.\n", n)
	}
}

// onEnd reads the end of a set, stored here or by another inbox, or by
// its asker: a set still shown here ends as it ended there, and its copies
// are deleted. An end of no set this inbox knows may be an end of long
// ago, and is left for its asker, unless it is not even sealed.
func (f *feed) onEnd(end, subject string, at stored, ts time.Time, ttl string, data []byte) {
	e := f.byEnd[end]
	if e == nil {
		switch {
		case !sealed(data) && !f.l.addr.Plaintext:
			f.junk(subject, "is not a sealed end of a set")
			f.delete(at)
		case ttl != endTTL.String():
			// Every end askuser stores expires after endTTL: one that
			// would stay longer (Nats-TTL: never) would hold the stream's
			// room for good.
			f.junk(subject, "does not expire as an end of a set does")
			f.delete(at)
		}
		return
	}
	// The set has ended: its copies go.
	f.delete(e.seqs...)
	e.seqs = nil
	if e.settled {
		return
	}
	e.settled, e.since = true, later(f.lastTick, ts)
	if !e.shown {
		return
	}
	if !f.queue.EndElsewhere(e.set, remoteEnd(f.readEnd(data))) {
		// Answered or cancelled here a moment ago: its end is stored
		// next, to be refused, and the person told who came first.
		e.settled = false
	}
}

// readEnd opens an end stored by another inbox, or by an asker; what
// cannot be read is an end that says nothing (remoteEnd words it).
func (f *feed) readEnd(data []byte) wireEnd {
	var w wireEnd
	if plain, err := open(data, f.l.id, maxMessage); err == nil {
		_ = json.Unmarshal(plain, &w)
	}
	return w
}

// remoteEnd is how a set ended elsewhere, as the views say it.
func remoteEnd(w wireEnd) inbox.End {
	by := ""
	if w.By != "" {
		by = "by " + w.By
	}
	switch w.End {
	case inbox.EventAnswered:
		return inbox.End{State: inbox.Answered, Reason: by}
	case inbox.EventCancelled:
		return inbox.End{State: inbox.Cancelled, Reason: by}
	}
	reason := w.Reason
	if reason == "" {
		reason = "the asker stopped waiting"
	}
	return inbox.End{State: inbox.Withdrawn, Reason: reason}
}

// alive reports whether e's asker beat within deadAfter of the last tick,
// in the server's time: a set is shown once its asker beats (it beats
// before it stores the set).
func (f *feed) alive(e *entry) bool {
	return !e.beat.Before(f.lastTick.Add(-deadAfter))
}

// show queues e's set when its asker is alive, once the sets that waited
// before the inbox started are shown.
func (f *feed) show(e *entry) {
	if !f.ready || e.shown || e.settled || e.set == nil || !f.alive(e) {
		return
	}
	e.shown = true
	e.set.Arrived = e.asked.Add(-f.skew)
	if _, err := f.queue.Add(e.set); err != nil {
		return
	}
	go func() {
		select {
		case <-e.set.Done():
			f.do(func() { f.settle(e) })
		case <-f.ctx.Done():
		}
	}()
}

// showWaiting shows, once both streams are read to their end, the sets
// that waited before the inbox started and whose asker is alive, oldest
// first.
func (f *feed) showWaiting() {
	if f.ready || f.lastTick.IsZero() || !f.caughtUp {
		return
	}
	f.ready = true
	var live []*entry
	for _, e := range f.byID {
		if e.set != nil && !e.settled && f.alive(e) {
			live = append(live, e)
		}
	}
	slices.SortFunc(live, func(a, b *entry) int { return cmp.Compare(a.asked.UnixNano(), b.asked.UnixNano()) })
	for _, e := range live {
		f.show(e)
	}
}

// settle stores how e's set ended here, unless its end came from
// elsewhere. An answer given here while another inbox's end arrives is
// stored all the same: the server refuses it, and the person is told who
// came first, rather than let the answer seem sent.
func (f *feed) settle(e *entry) {
	if e.settled {
		return
	}
	e.settled, e.since = true, f.lastTick
	end := e.set.End()
	switch end.State {
	case inbox.Answered:
		ev, _ := inbox.FinalEvent(e.set)
		f.publish(e, wireEnd{End: inbox.EventAnswered, Answer: &ev, By: f.l.by}, "Your answer to")
	case inbox.Cancelled:
		f.publish(e, wireEnd{End: inbox.EventCancelled, By: f.l.by}, "Your cancel of")
	}
}

// tick reads the inbox's own tick, stored in the beats' stream: when it is
// read, every beat stored before it has been, so its time is the server's
// now. An asker whose last beat is older than deadAfter, counted within
// ticks that came without a gap, is gone: a gap means that the inbox (or
// the server) was away, asleep or cut off, and whoever missed beats then
// is not held to them.
func (f *feed) tick(ts time.Time) {
	if f.lastTick.IsZero() || ts.Sub(f.lastTick) > 2*beatEvery {
		f.window = ts
	}
	f.lastTick = ts
	f.skew = time.Until(ts)
	if !f.ready {
		f.showWaiting()
		if !f.caughtUp {
			go f.checkCaughtUp()
		}
		return
	}
	for id, e := range f.byID {
		switch {
		case e.settled:
			if ts.Sub(e.since) > setTTL {
				delete(f.byID, id)
				delete(f.byEnd, e.end)
			}
		case e.set == nil:
		case ts.Sub(later(later(e.beat, e.posted), f.window)) > deadAfter:
			f.withdraw(e)
		default:
			f.show(e)
		}
	}
	for id, t := range f.early {
		if ts.Sub(t) > setTTL {
			delete(f.early, id)
		}
	}
	f.sayJunk()
}

// checkCaughtUp asks the server whether the sets' consumer has read the
// stream to its end, for when no message said so (they were deleted
// before they were read).
func (f *feed) checkCaughtUp() {
	f.consMu.Lock()
	cons := f.setsCons
	f.consMu.Unlock()
	ctx, cancel := context.WithTimeout(f.ctx, inbox.ProbeTimeout)
	defer cancel()
	info, err := cons.Info(ctx)
	if err != nil || info.NumPending != 0 {
		return
	}
	f.do(func() {
		f.caughtUp = true
		f.showWaiting()
	})
}

// withdraw takes away a set whose asker is gone, for every inbox, and
// here; an asker that was only away asks again when it reads why.
func (f *feed) withdraw(e *entry) {
	e.settled, e.since = true, f.lastTick
	reason := fmt.Sprintf("nothing heard from the asker for %s", deadAfter)
	f.publish(e, wireEnd{End: endWithdrawn, Reason: reason, Unheard: true}, "")
	if e.shown {
		f.queue.Withdraw(e.set, reason)
	}
}

// publish stores e's end, sealed to its asker and to the inbox (for the
// other inboxes to read), trying again while the server is away (an
// answer given is not lost to a restart), until the inbox quits. Once it
// is stored, the set's copies are deleted. what, when not "", is how to
// tell the person of an end that was not stored because another came
// first.
func (f *feed) publish(e *entry, w wireEnd, what string) {
	if f.closing {
		return
	}
	body, err := sealJSON(w, e.reply, f.l.id.Recipient().String())
	source := "an asker"
	if e.set != nil {
		source = e.set.Source()
	}
	if err != nil {
		f.l.say("The end of the questions from %s could not be sealed: %v.\n", source, err)
		return
	}
	seqs := slices.Clone(e.seqs)
	f.ending.Add(1)
	go func() {
		defer f.ending.Done()
		for {
			ctx, cancel := context.WithTimeout(f.ctx, inbox.ProbeTimeout)
			err := f.conn.publishEnd(ctx, e.end, body)
			cancel()
			switch {
			case err == nil:
				f.delete(seqs...)
				return
			case errors.Is(err, errEndTaken):
				if what != "" {
					f.l.say("%s the questions from %s was not sent: they %s first.\n", what, source, f.endedElsewhere(e.end))
				}
				return
			case f.ctx.Err() != nil:
				if what != "" {
					f.l.say("%s the questions from %s was not sent: the NATS server did not take it before the inbox quit (%v).\n", what, source, err)
				}
				return
			}
			select {
			case <-f.ctx.Done():
			case <-time.After(beatEvery / 2):
			}
		}
	}()
}

// endedElsewhere says how a set ended elsewhere: "were answered elsewhere
// (by NAME)".
func (f *feed) endedElsewhere(end string) string {
	var w wireEnd
	if m, err := f.conn.lastEnd(f.ctx, end); err == nil && m != nil {
		w = f.readEnd(m.Data)
	}
	e := remoteEnd(w)
	what := map[inbox.State]string{inbox.Answered: "were answered elsewhere", inbox.Cancelled: "were cancelled elsewhere", inbox.Withdrawn: "were withdrawn"}[e.State]
	if e.Reason != "" {
		what += " (" + prompt.Display(e.Reason) + ")"
	}
	return what
}

// delete has messages deleted from the sets' stream, by the deleter: the
// loop does not wait on the server.
func (f *feed) delete(at ...stored) {
	f.deleteMu.Lock()
	f.deletes = append(f.deletes, at...)
	f.deleteMu.Unlock()
	poke(f.toDelete)
}

// deleter deletes what delete was given, until the inbox quits. Every
// inbox on the queue may try; the first does it.
func (f *feed) deleter() {
	for {
		select {
		case <-f.ctx.Done():
			return
		case <-f.toDelete:
		}
		f.deleteMu.Lock()
		seqs := f.deletes
		f.deletes = nil
		f.deleteMu.Unlock()
		if !f.sameStream() {
			// The stream was made anew, and the watcher is told: its
			// numbers are not those read.
			continue
		}
		for _, at := range seqs {
			if at.epoch != f.epoch.Load() {
				// Read before the stream was made anew.
				continue
			}
			ctx, cancel := context.WithTimeout(f.ctx, inbox.ProbeTimeout)
			_ = f.sets.DeleteMsg(ctx, at.seq)
			cancel()
		}
	}
}

// sameStream reports whether the sets' stream is the one the consumers
// read, and tells the watcher when it is not (or cannot be told).
func (f *feed) sameStream() bool {
	ctx, cancel := context.WithTimeout(f.ctx, inbox.ProbeTimeout)
	defer cancel()
	info, err := f.sets.Info(ctx)
	f.consMu.Lock()
	same := err == nil && info.Created.Equal(f.created[0])
	f.consMu.Unlock()
	if !same {
		poke(f.kick)
	}
	return same
}

// ticks stores the inbox's tick every beatEvery, until it quits.
func (f *feed) ticks() {
	subject := f.l.addr.subject("beat", f.tickID)
	t := time.NewTicker(beatEvery)
	defer t.Stop()
	for {
		ctx, cancel := context.WithTimeout(f.ctx, beatEvery)
		_, _ = f.conn.js.Publish(ctx, subject, nil)
		cancel()
		select {
		case <-f.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// watch looks at both streams every pollEvery, and when a consumer says
// its stream or itself went: a stream made anew (its store was lost) is
// read again from its start, and one that is missing is made again.
func (f *feed) watch() {
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	for {
		select {
		case <-f.ctx.Done():
			return
		case <-t.C:
		case <-f.kick:
		}
		f.check()
	}
}

// resume starts the consumers again when the connection comes back, from
// the message after the last read, at once: they would find out that it
// went only after a while (a laptop that wakes). The watcher finds out
// whether the streams were made anew meanwhile.
func (f *feed) resume() {
	for {
		select {
		case <-f.ctx.Done():
			return
		case <-f.conn.reconnected:
		}
		f.l.say("Connected to the NATS server at %s again.\n", f.l.addr.serverURL())
		// f.sets and f.beats name the streams, as made anew too.
		if err := f.consume(f.ctx, f.sets, f.beats, true); err != nil {
			f.l.say("%v.\n", err)
		}
	}
}

// check starts the consumers again from the start, when a stream was made
// anew (its store lost), or made again when it is missing.
func (f *feed) check() {
	ctx, cancel := context.WithTimeout(f.ctx, inbox.ProbeTimeout)
	defer cancel()
	f.consMu.Lock()
	was := f.created
	f.consMu.Unlock()
	renewed := false
	for i, s := range []jetstream.Stream{f.sets, f.beats} {
		info, err := s.Info(ctx)
		if errors.Is(err, jetstream.ErrStreamNotFound) || err == nil && !info.Created.Equal(was[i]) {
			renewed = true
		}
	}
	if !renewed {
		return
	}
	// What was read of the streams names other messages now.
	f.epoch.Add(1)
	sets, beats, err := f.conn.openStreams(ctx, f.l.say)
	if err == nil {
		err = f.l.claimKey(ctx, f.conn)
	}
	if err != nil {
		f.l.say("The inbox's streams on the NATS server were removed, and could not be made again: %v.\n", err)
		return
	}
	f.l.say("The inbox's streams on the NATS server were made anew (their store was lost): reading them again.\n")
	if err := f.consume(f.ctx, sets, beats, false); err != nil {
		f.l.say("%v.\n", err)
		return
	}
	f.do(func() {
		for _, e := range f.byID {
			e.seqs = nil
		}
	})
}
