package natsinbox

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/inbox"
)

// feed brings the sets waiting on the server into the server's queue, and
// stores how each ended there. One goroutine, its loop, owns its state:
// the consumers of the two streams, the sets' goroutines and the watcher
// hand it what they learn as functions (do).
type feed struct {
	l           *listener
	srv         *inbox.Server
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

	// The consumers, each stream's and what they consume, with the time
	// their streams were made, and their generation: a message of an
	// earlier one, on its way while they were started again, is dropped.
	consMu     sync.Mutex
	cons       [2]jetstream.Consumer
	consumers  []jetstream.ConsumeContext
	created    [2]time.Time
	generation atomic.Int64
	deaf       atomic.Bool // none runs: they could not start, which was told
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
	anchors     map[string]anchor    // the anchors of sets, by id
	unheard     map[string]time.Time // the ends of sets that an inbox withdrew for want of beats, by end id
	ended       map[string]time.Time // the ends of sets not read, by END, in the server's time
	tickID      string
	closing     bool          // the inbox quits: no end is stored any more
	lastTick    time.Time     // the server's time of the last tick
	window      time.Time     // since when ticks came without a gap
	skew        time.Duration // the server's clock less this machine's
	caughtUp    bool          // the sets' stream was read to its end once
	ready       bool          // the sets that waited before the inbox are shown
	minute      time.Time     // the server's time of the last tick that did the minute's work
	// The junk told this minute, by kind, and the junk not told.
	told   map[string]struct{}
	untold int
}

func newFeed(l *listener, srv *inbox.Server, c *conn, sets, beats jetstream.Stream) *feed {
	f := &feed{
		l: l, srv: srv, conn: c, sets: sets, beats: beats,
		events: make(chan func(), 4096), kick: make(chan struct{}, 1), toDelete: make(chan struct{}, 1),
		byID: map[string]*entry{}, byEnd: map[string]*entry{}, early: map[string]time.Time{},
		anchors: map[string]anchor{}, unheard: map[string]time.Time{}, ended: map[string]time.Time{}, told: map[string]struct{}{},
		tickID: "inbox-" + newSecret()[:16],
	}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	return f
}

// stored is a message of the sets' stream, by its sequence number in the
// stream as it was in epoch: a number read before the stream was made
// anew names another message now.
type stored struct {
	epoch int64
	seq   uint64
}

// anchor is a set's anchor: where it is stored, and when.
type anchor struct {
	at stored
	ts time.Time
}

// entry is a set the feed knows of.
type entry struct {
	end     string
	root    string     // the id of the set first asked, whose anchor dates it
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

// start runs the feed's goroutines: its loop; its ticks, the first at
// once; the watcher, every pollEvery and when kicked; the resumer and the
// deleter.
func (f *feed) start() {
	every(f, f.events, func(fn func()) { fn() })
	f.background.Go(f.storeTick)
	every(f, time.Tick(beatEvery), func(time.Time) { f.storeTick() })
	every(f, time.Tick(pollEvery), func(time.Time) { poke(f.kick) })
	every(f, f.kick, func(struct{}) { f.check() })
	every(f, f.conn.reconnected, func(struct{}) { f.resume() })
	every(f, f.toDelete, func(struct{}) { f.deleteNow() })
}

// every runs fn on each value that ch delivers, one after the other, in a
// goroutine of the feed's, until the feed stops.
func every[T any](f *feed, ch <-chan T, fn func(T)) {
	f.background.Go(func() {
		for {
			select {
			case v := <-ch:
				fn(v)
			case <-f.ctx.Done():
				return
			}
		}
	})
}

// stop lets the ends being stored go out, for a moment, and disconnects.
func (f *feed) stop() {
	// Once the loop has run this, it starts storing no end: ending is
	// only waited on.
	f.do(func() { f.closing = true })
	time.AfterFunc(2*time.Second, f.cancel)
	f.ending.Wait()
	f.cancel()
	f.background.Wait()
	// What was answered as the loop stopped is not stored: nothing waits
	// for word of it any more.
	for _, e := range f.byID {
		f.sent(e, errors.New("the inbox quit first"))
	}
	// Closed first: a consumer starting itself again stops at once.
	f.conn.nc.Close()
	f.consMu.Lock()
	f.stopConsumers()
	f.consMu.Unlock()
}
