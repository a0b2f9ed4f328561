package inbox

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"filippo.io/age"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// NATSOptions configure an inbox on NATS.
type NATSOptions struct {
	// Identity opens the sets sealed to the inbox, and the ends sealed to
	// it by the other inboxes on the same queue.
	Identity *age.X25519Identity
	// By names this inbox to the others: "answered elsewhere (by BY)".
	By string
	// Say tells the person of an answer that could not be sent, and of a
	// set that cannot be opened.
	Say func(format string, args ...any)
}

// natsFeed brings the sets waiting in an inbox on NATS into the server's
// queue, and publishes how each ended there. Every inbox on the same
// queue shows every set; the first end published wins (see publishEnd),
// and the others take the set away, saying who ended it.
type natsFeed struct {
	srv    *Server
	conn   *natsConn
	o      NATSOptions
	ctx    context.Context
	cancel context.CancelFunc
	// wg counts the goroutines that publish ends, and watchDone is closed
	// when watchBeats returns.
	wg        sync.WaitGroup
	watchDone chan struct{}

	mu   sync.Mutex
	sets map[string]*natsEntry
	// since is when the connection was last made: beats missed while
	// the server was away do not count against an asker.
	since time.Time
	// ready is set a beat after the start: the sets that waited before
	// are then shown at once, oldest first, those whose asker beats.
	ready bool
}

// natsEntry is a set the feed knows of: from its message, its beats, or
// both.
type natsEntry struct {
	id     string
	set    *Set // nil until its message has been read
	seq    uint64
	reply  string
	secret string
	seen   time.Time // when its message was read
	beat   time.Time // its last beat
	shown  bool      // in the queue
	remote bool      // ended here by another inbox's end, or withdrawn
}

// NATSListener serves the inbox at Addr on NATS, with Options.
type NATSListener struct {
	Addr    *NATSAddr
	Options NATSOptions
}

// Serve serves srv's queue to the askers of the inbox at l.Addr on NATS,
// until srv closes: it connects to the server, reads every set waiting in the
// stream and every one that arrives, and shows each while its asker
// beats. Sets left waiting when the inbox quits stay stored, for the next
// inbox.
func (l NATSListener) Serve(ctx context.Context, s *Server) error {
	a, o := l.Addr, l.Options
	conn, err := dialNATS(ctx, a, "askuser inbox")
	if err != nil {
		return err
	}
	f := &natsFeed{srv: s, conn: conn, o: o, sets: map[string]*natsEntry{}, since: time.Now(), watchDone: make(chan struct{})}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	if _, err := conn.nc.Subscribe(a.subject("beat", "*"), f.onBeat); err != nil {
		conn.close()
		return &ServerError{Addr: a, Err: err, Msg: fmt.Sprintf("cannot subscribe to askuser.%s.beat.* (%v): grant the inbox's credentials the subjects README lists", a.Name, err)}
	}
	cons, err := conn.stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{a.subject("set", "*"), a.subject("end", "*")},
		DeliverPolicy:  jetstream.DeliverAllPolicy,
	})
	if err == nil {
		_, err = cons.Consume(f.onStored)
	}
	if err != nil {
		conn.close()
		return conn.streamError(err)
	}
	if err := f.leaveRecipient(ctx); err != nil {
		conn.close()
		return err
	}
	conn.nc.SetDisconnectErrHandler(func(_ *nats.Conn, err error) {
		// A nil error is the connection closed on purpose.
		if err != nil && f.ctx.Err() == nil {
			f.say("Lost the NATS server at %s (%v): reconnecting; the questions wait there.\n", a.ServerURL(), err)
		}
	})
	go f.watchBeats()
	time.AfterFunc(natsBeat*5/4, f.showLive)
	s.onClose(f.stop)
	return nil
}

// leaveRecipient stores the inbox's recipient on the server, for askers
// whose address has no to= (see natsClient.post).
func (f *natsFeed) leaveRecipient(ctx context.Context) error {
	r := f.o.Identity.Recipient().String()
	if f.conn.storedRecipient(ctx) == r {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	if _, err := f.conn.js.Publish(ctx, f.conn.addr.keySubject(), []byte(r)); err != nil {
		return f.conn.streamError(err)
	}
	return nil
}

// stop lets the ends being published go out, for a moment, and
// disconnects.
func (f *natsFeed) stop() {
	done := make(chan struct{})
	go func() {
		f.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * stopGrace):
	}
	f.cancel()
	<-done
	<-f.watchDone
	f.conn.close()
}

func (f *natsFeed) say(format string, args ...any) {
	if f.o.Say != nil {
		f.o.Say(format, args...)
	}
}

// idOf returns the kind and the id of a subject askuser.NAME.KIND.ID.
func idOf(subject string) (kind, id string) {
	parts := strings.Split(subject, ".")
	if len(parts) != 4 {
		return "", ""
	}
	return parts[2], parts[3]
}

func (f *natsFeed) onStored(m jetstream.Msg) {
	kind, id := idOf(m.Subject())
	var seq uint64
	if md, err := m.Metadata(); err == nil {
		seq = md.Sequence.Stream
	}
	switch kind {
	case "set":
		f.onSet(id, seq, m.Data())
	case "end":
		f.onEnd(id, m.Data())
	}
}

// onSet reads a set's message. The set is shown once its asker beats.
func (f *natsFeed) onSet(id string, seq uint64, data []byte) {
	plain, _, err := open(data, f.o.Identity, maxNATSMessage)
	var ns natsSet
	if err == nil {
		err = json.Unmarshal(plain, &ns)
	}
	if err != nil {
		f.say("A set of questions arrived that this inbox cannot open (%v): its asker's to= is not this inbox's recipient %s.\n", err, f.o.Identity.Recipient())
		return
	}
	set, refused := f.srv.setOf(&ns.Request)
	if refused != nil {
		e := &natsEntry{id: id, seq: seq, reply: ns.Reply, secret: ns.Secret}
		f.wg.Add(1)
		go f.publish(e, natsEnd{End: natsRefused, Refused: refused})
		return
	}
	f.mu.Lock()
	e := f.entry(id)
	e.set, e.seq, e.reply, e.secret, e.seen = set, seq, ns.Reply, ns.Secret, time.Now()
	show := f.showLocked(e)
	f.mu.Unlock()
	if show {
		f.show(e)
	}
}

// entry returns the entry of id, made when there is none. f.mu is held.
func (f *natsFeed) entry(id string) *natsEntry {
	e := f.sets[id]
	if e == nil {
		e = &natsEntry{id: id}
		f.sets[id] = e
	}
	return e
}

// showLocked says whether e is to be queued now: its message is read and
// its asker beats. f.mu is held.
func (f *natsFeed) showLocked(e *natsEntry) bool {
	if !f.ready || e.set == nil || e.shown || e.beat.IsZero() || time.Since(e.beat) > natsDead {
		return false
	}
	e.shown = true
	return true
}

// showLive shows the sets that waited before the inbox started and whose
// asker beats, in the order they were stored, and from then on each set
// as soon as its asker beats.
func (f *natsFeed) showLive() {
	f.mu.Lock()
	f.ready = true
	var live []*natsEntry
	for _, e := range f.sets {
		if f.showLocked(e) {
			live = append(live, e)
		}
	}
	f.mu.Unlock()
	slices.SortFunc(live, func(a, b *natsEntry) int { return cmp.Compare(a.seq, b.seq) })
	for _, e := range live {
		f.show(e)
	}
}

func (f *natsFeed) onBeat(m *nats.Msg) {
	_, id := idOf(m.Subject)
	if id == "" {
		return
	}
	f.mu.Lock()
	e := f.entry(id)
	e.beat = time.Now()
	show := f.showLocked(e)
	f.mu.Unlock()
	if show {
		f.show(e)
	}
}

// show queues e's set, and publishes how it ends here. A set whose end
// was read meanwhile (onEnd took it from f.sets) is not queued: f.mu is
// held while it is added, as onEnd holds it while it ends the set.
func (f *natsFeed) show(e *natsEntry) {
	f.mu.Lock()
	err := ErrEnded
	if f.sets[e.id] == e {
		_, err = f.srv.queue.Add(e.set)
	}
	f.mu.Unlock()
	if err != nil {
		return
	}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		select {
		case <-e.set.Done():
		case <-f.ctx.Done():
			return
		}
		f.settle(e)
	}()
}

// settle publishes how e's set ended here, unless its end here is one read
// from elsewhere. An answer given here while another inbox's end arrives
// is published all the same: the server refuses it, and publish tells the
// person who came first, instead of letting the answer seem sent.
func (f *natsFeed) settle(e *natsEntry) {
	// onEnd and withdraw end the set with f.mu held, and set remote only
	// when their end is the one the set took.
	f.mu.Lock()
	remote := e.remote
	f.mu.Unlock()
	end := e.set.End()
	switch {
	case remote:
	case end.State == Answered:
		ev, _ := finalEvent(e.set)
		f.wg.Add(1)
		f.publish(e, natsEnd{End: EventAnswered, Answer: &ev, By: f.o.By})
	case end.State == Cancelled:
		f.wg.Add(1)
		f.publish(e, natsEnd{End: EventCancelled, By: f.o.By})
	}
}

// onEnd reads the end of a set, published here or elsewhere: a set still
// shown here ends as it ended there, and its message is deleted.
func (f *natsFeed) onEnd(id string, data []byte) {
	var end natsEnd
	plain, _, err := open(data, f.o.Identity, maxNATSMessage)
	if err == nil {
		_ = json.Unmarshal(plain, &end)
	}
	f.mu.Lock()
	e := f.sets[id]
	delete(f.sets, id)
	if e != nil && e.set != nil && e.shown {
		// A set answered or cancelled here first keeps that end, and
		// settle publishes it, to be refused.
		e.remote = f.srv.queue.end(e.set, remoteEnd(end))
	}
	f.mu.Unlock()
	if e == nil || e.set == nil {
		return
	}
	f.deleteSet(e.seq)
}

// ByWhom is " (by NAME)" for a set that another inbox on the same queue
// answered or cancelled, for the views to add to "answered elsewhere";
// else "".
func (e End) ByWhom() string {
	if (e.State == Answered || e.State == Cancelled) && strings.HasPrefix(e.Reason, "by ") {
		return " (" + e.Reason + ")"
	}
	return ""
}

// remoteEnd is how a set ended elsewhere, as the views say it.
func remoteEnd(end natsEnd) End {
	by := ""
	if end.By != "" {
		by = "by " + end.By
	}
	switch end.End {
	case EventAnswered:
		return End{State: Answered, Reason: by}
	case EventCancelled:
		return End{State: Cancelled, Reason: by}
	}
	reason := end.Reason
	if reason == "" {
		reason = "the asker stopped waiting"
	}
	return End{State: Withdrawn, Reason: reason}
}

// publish publishes e's end, trying again while the server is away (an
// answer given is not lost to a restart), until the inbox quits. The end
// is sealed to the asker, and to the inbox for the other inboxes to read.
// f.wg has been added to.
func (f *natsFeed) publish(e *natsEntry, end natsEnd) {
	defer f.wg.Done()
	end.Secret = e.secret
	body, err := json.Marshal(end)
	var to []age.Recipient
	if err == nil {
		to, err = recipients(e.reply, f.o.Identity.Recipient().String())
	}
	if err == nil {
		body, err = seal(body, to...)
	}
	if err != nil {
		f.say("The end of the questions from %s could not be sealed: %v.\n", f.source(e), err)
		return
	}
	for {
		ctx, cancel := context.WithTimeout(f.ctx, ProbeTimeout)
		err = f.conn.publishEnd(ctx, e.id, body)
		cancel()
		switch {
		case err == nil:
			f.deleteSet(e.seq)
			return
		case errors.Is(err, errEndTaken) && end.End == natsRefused:
			return
		case errors.Is(err, errEndTaken):
			f.say("Your answer to the questions from %s was not sent: they %s first.\n", f.source(e), f.endedElsewhere(e.id))
			return
		case f.ctx.Err() != nil:
			f.say("Your answer to the questions from %s was not sent: the NATS server did not take it before the inbox quit (%v).\n", f.source(e), err)
			return
		}
		select {
		case <-f.ctx.Done():
		case <-time.After(natsBeat / 2):
		}
	}
}

func (f *natsFeed) source(e *natsEntry) string {
	if e.set == nil {
		return "an asker"
	}
	return e.set.Source()
}

// endedElsewhere says how set id ended elsewhere: "were answered elsewhere
// (by NAME)".
func (f *natsFeed) endedElsewhere(id string) string {
	ctx, cancel := context.WithTimeout(f.ctx, ProbeTimeout)
	defer cancel()
	var end natsEnd
	if m, err := f.conn.lastEnd(ctx, id); err == nil && m != nil {
		if plain, _, err := open(m.Data, f.o.Identity, maxNATSMessage); err == nil {
			_ = json.Unmarshal(plain, &end)
		}
	}
	e := remoteEnd(end)
	what := map[State]string{Answered: "were answered elsewhere", Cancelled: "were cancelled elsewhere", Withdrawn: "were withdrawn"}[e.State]
	if e.Reason != "" {
		what += " (" + e.Reason + ")"
	}
	return what
}

// deleteSet deletes a set's message once it has ended: it is no longer
// waiting. Every inbox may try; the first does it.
func (f *natsFeed) deleteSet(seq uint64) {
	if seq == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(f.ctx, ProbeTimeout)
	defer cancel()
	_ = f.conn.stream.DeleteMsg(ctx, seq)
}

// watchBeats withdraws the sets whose asker stopped beating, while the
// inbox is connected: it was killed, or lost its way to the server.
func (f *natsFeed) watchBeats() {
	defer close(f.watchDone)
	t := time.NewTicker(natsBeat / 4)
	defer t.Stop()
	down := false
	for {
		select {
		case <-f.ctx.Done():
			return
		case <-f.conn.reconnected:
			f.mu.Lock()
			f.since = time.Now()
			f.mu.Unlock()
			f.say("Connected to the NATS server at %s again.\n", f.conn.addr.ServerURL())
		case <-t.C:
		}
		if !f.conn.nc.IsConnected() {
			down = true
			continue
		}
		for _, e := range f.dead(down) {
			f.withdraw(e)
		}
		down = false
	}
}

// dead takes away the entries whose asker has not beaten for natsDead,
// counting from the last connection at most, and returns those with a
// set. After a time down, the count starts again.
func (f *natsFeed) dead(wasDown bool) []*natsEntry {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	if wasDown {
		f.since = now
	}
	var out []*natsEntry
	for id, e := range f.sets {
		last := e.beat
		for _, t := range []time.Time{e.seen, f.since} {
			if t.After(last) {
				last = t
			}
		}
		if now.Sub(last) <= natsDead {
			continue
		}
		delete(f.sets, id)
		if e.set != nil {
			out = append(out, e)
		}
	}
	return out
}

// withdraw takes away a set whose asker is gone, for every inbox and then
// here. When the server does not take the withdrawal, the connection is
// what failed (a laptop waking, before its client notices): the set is
// kept, and looked at again.
func (f *natsFeed) withdraw(e *natsEntry) {
	reason := fmt.Sprintf("nothing heard from the asker for %s", natsDead)
	body, _ := json.Marshal(natsEnd{End: natsWithdrawn, Reason: reason})
	ctx, cancel := context.WithTimeout(f.ctx, ProbeTimeout)
	err := f.conn.publishEnd(ctx, e.id, body)
	cancel()
	if err != nil && !errors.Is(err, errEndTaken) {
		f.mu.Lock()
		if cur := f.sets[e.id]; cur != nil && cur.beat.After(e.beat) {
			e.beat = cur.beat
		}
		f.sets[e.id] = e
		f.since = time.Now()
		f.mu.Unlock()
		return
	}
	if e.shown {
		f.mu.Lock()
		e.remote = f.srv.queue.Withdraw(e.set, reason)
		f.mu.Unlock()
	}
	f.deleteSet(e.seq)
}
