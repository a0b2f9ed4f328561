package view

import (
	"cmp"
	"context"
	"fmt"
	"io"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

// Log is the view of an inbox that has no terminal (a service, nohup, a
// container without one) and is answered on its web page only: it takes no
// input, and writes one line for each set that arrives and for each that
// ends (answered, cancelled or withdrawn), for the person who reads the
// service's log. The answers themselves are not logged.
type Log struct {
	queue *inbox.Queue
	out   io.Writer
	home  string
}

// NewLog returns the log of q, written to out, that records each set that
// ends from now on; home is the person's home directory, shown as ~ in
// the working directories that sets come from.
func NewLog(q *inbox.Queue, out io.Writer, home string) *Log {
	l := &Log{queue: q, out: out, home: home}
	q.OnEnd(l.record)
	return l
}

// Arrived logs s, which has just been queued. It is for the queue's
// OnArrive, which is told of every set: a view that reads snapshots may
// miss one that comes and goes between two.
func (l *Log) Arrived(s *inbox.Set) {
	say(l.out, fmt.Sprintf("Arrived: questions from %s · %d waiting", prompt.Display(Source(s, l.home)), l.queue.Len()))
}

// record logs how s ended, or what became of an answer or cancel given
// in this inbox that did not reach its asker. A set closed with the inbox
// is not: the inbox says once for all that it quits.
func (l *Log) record(s *inbox.Set) {
	e, from := s.End(), prompt.Display(Source(s, l.home))
	if text := cmp.Or(notSent(s, e, from), outcome(e, from)); text != "" {
		say(l.out, text)
	}
}

// Run waits until ctx ends (it returns context.Cause(ctx)): the inbox
// serves until a signal stops it.
func (l *Log) Run(ctx context.Context) error {
	<-ctx.Done()
	return context.Cause(ctx)
}
