package serve

import (
	"io"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/internal/notify"
)

// notifier tells the person of each set: when it arrives, the bell rings
// on the inbox's terminal; once it has waited Options.NotifyAfter
// unanswered (at once for 0), the person is taken to be away from the
// desk, and the notification command (Options.Notify) runs, with every
// hook given to onAway; again when the set still waits Options.Remind
// after that; when it ends, the end command (Options.NotifyEnd) runs, so
// that a recipe can take the notification back.
type notifier struct {
	o       Options
	out     io.Writer
	page    *page    // the inbox's web page, nil for none
	replies *replies // the reply topic, nil for none
	links   *view.Links
	// after is the work that follows the ends of sets, which runs apart
	// from the goroutine that ended each, so that the views record the
	// end first.
	after *sync.WaitGroup

	mu   sync.Mutex
	sets map[*inbox.Set]*told // the sets that still wait, told of or to be
	away []func(*inbox.Set)   // see onAway
}

// told is what was done to tell of one set.
type told struct {
	runs  []*notify.Run // the commands run for it
	timer *time.Timer   // until it is told of away (NotifyAfter, at once for 0), then until the reminder (Remind)
	away  bool          // the person was told of it away from the desk
}

func newNotifier(o Options, out io.Writer, p *page, links *view.Links, after *sync.WaitGroup) *notifier {
	return &notifier{o: o, out: out, page: p, links: links, after: after, sets: map[*inbox.Set]*told{}}
}

// onAway has f called with each set that still waits Options.NotifyAfter
// after it arrived (at once for 0), once, when the notification command
// runs for it: for a view that reaches the person away from the desk (a
// chat) to show it only then. A set that ends first is never given to f.
// f is called with the notifier's lock held, so that the set's end is not
// told (Queue.OnEnd, in the goroutine that ended it) before f returns: f
// must return at once, doing its work apart. It is to be called before
// the queue takes sets.
func (n *notifier) onAway(f func(*inbox.Set)) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.away = append(n.away, f)
}

// arrived tells of s, which has just been queued; the queue calls it
// (OnArrive). It is told apart: whoever queued the set (the one loop that
// reads a queue on NATS) does not wait for a process to start, a thousand
// times a second when a fleet starts at once.
func (n *notifier) arrived(s *inbox.Set) { go n.arrive(s) }

// arrive tells of s, unless it has already ended: then it is not told of
// (n.mu orders the two, see ended). The bell is the desk's, and rings at
// once; the rest waits for NotifyAfter.
func (n *notifier) arrive(s *inbox.Set) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if s.End().State != inbox.Waiting {
		return
	}
	t := &told{}
	n.sets[s] = t
	n.ring()
	t.timer = time.AfterFunc(n.o.NotifyAfter, func() { n.due(s) })
}

// due tells of s when its timer fires, if it still waits: away from the
// desk the first time, with the notification command and the away hooks,
// and once more as a reminder Remind after that (never for 0).
func (n *notifier) due(s *inbox.Set) {
	n.mu.Lock()
	defer n.mu.Unlock()
	t := n.sets[s]
	switch {
	case t == nil:
		return
	case !t.away:
		t.away = true
		n.tell(s, t, notify.Asked)
		for _, f := range n.away {
			f(s)
		}
	default:
		n.ring()
		n.tell(s, t, notify.Reminded)
		return
	}
	if n.o.Remind > 0 {
		t.timer = time.AfterFunc(n.o.Remind, func() { n.due(s) })
	}
}

// ring rings the bell on the inbox's terminal.
func (n *notifier) ring() {
	if n.o.IO.ErrTTY {
		_, _ = io.WriteString(n.out, "\a")
	}
}

// tell runs the notification command for s, as event says. n.mu is held.
func (n *notifier) tell(s *inbox.Set, t *told, event notify.Event) {
	// A queued set has a question at least (the schema's minItems), and
	// the one question of askuser confirm or input has the header
	// "Confirm" or "Input".
	first := s.Questions[0]
	notice := notify.Notice{Event: event, Set: n.links.SetName(s), From: s.Source(), Header: first.Header, Question: first.Question, URL: n.page.setURL(s)}
	switch {
	case n.o.Notify.Private:
	case n.replies != nil:
		// The buttons post to the reply topic, which reaches the inbox
		// wherever the phone is.
		notice.Actions = n.replies.actions(s)
	default:
		notice.Actions = n.page.actions(s)
	}
	if run := n.o.Notify.Start(notice); run != nil {
		t.runs = append(t.runs, run)
		n.warn(run)
	}
}

// ended runs the end command for s, which has ended, once the commands
// that told of it have finished, so that what takes the notification back
// does not come before it; the queue calls it (OnEnd).
func (n *notifier) ended(s *inbox.Set) {
	n.mu.Lock()
	t := n.sets[s]
	delete(n.sets, s)
	if t != nil {
		t.timer.Stop()
	}
	n.mu.Unlock()
	// A set that ended before the person was told of it away has no
	// notification to take back.
	if t == nil || !t.away || n.o.NotifyEnd.Line == "" {
		return
	}
	e := s.End()
	notice := notify.Notice{Event: notify.Ended, Set: n.links.SetName(s), From: s.Source(), Outcome: e.State.String(), Via: e.Via.String()}
	n.after.Go(func() {
		for _, run := range t.runs {
			<-run.Done()
		}
		if run := n.o.NotifyEnd.Start(notice); run != nil {
			n.warn(run)
		}
	})
}

// warn says on the inbox's terminal when run fails.
func (n *notifier) warn(run *notify.Run) {
	go func() {
		<-run.Done()
		run.Warn(n.out)
	}()
}

// lockedWriter lets the view, the bell and the warnings of the
// notification command write to the inbox's stderr, each whole.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
