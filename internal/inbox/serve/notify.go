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
// on the inbox's terminal and the notification command (Options.Notify)
// runs, and again when the set still waits after Options.Remind; when it
// ends, the end command (Options.NotifyEnd) runs, so that a recipe can
// take the notification back.
type notifier struct {
	o     Options
	out   io.Writer
	page  *page // the inbox's web page, nil for none
	links *view.Links
	after *sync.WaitGroup // what follows the ends of sets

	mu   sync.Mutex
	sets map[*inbox.Set]*told // the sets told of that still wait
}

// told is what was done to tell of one set.
type told struct {
	runs     []*notify.Run // the commands run for it
	reminder *time.Timer   // nil without Remind
}

func newNotifier(o Options, out io.Writer, p *page, e endings) *notifier {
	return &notifier{o: o, out: out, page: p, links: e.links, after: e.after, sets: map[*inbox.Set]*told{}}
}

// arrived tells of s, which has just been queued; the queue calls it
// (OnArrive). A set that has already ended is not told of.
func (n *notifier) arrived(s *inbox.Set) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if s.End().State != inbox.Waiting {
		return
	}
	t := &told{}
	n.sets[s] = t
	n.tell(s, t, notify.Asked)
	if n.o.Remind > 0 {
		t.reminder = time.AfterFunc(n.o.Remind, func() { n.remind(s) })
	}
}

// remind tells of s again, when it still waits.
func (n *notifier) remind(s *inbox.Set) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if t := n.sets[s]; t != nil {
		n.tell(s, t, notify.Reminded)
	}
}

// tell rings the bell and runs the notification command for s, as event
// says. n.mu is held.
func (n *notifier) tell(s *inbox.Set, t *told, event notify.Event) {
	if n.o.IO.ErrTTY {
		_, _ = io.WriteString(n.out, "\a")
	}
	// A queued set has a question at least (the schema's minItems), and
	// the one question of askuser confirm or input has the header
	// "Confirm" or "Input".
	first := s.Questions[0]
	notice := notify.Notice{Event: event, Set: n.links.SetName(s), From: s.Source(), Header: first.Header, Question: first.Question, URL: n.page.setURL(s)}
	if !n.o.Notify.Private {
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
	n.mu.Unlock()
	if t == nil {
		return
	}
	if t.reminder != nil {
		t.reminder.Stop()
	}
	if n.o.NotifyEnd.Line == "" {
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
