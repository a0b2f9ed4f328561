package view

import (
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
// service's log.
type Log struct {
	Queue *inbox.Queue
	Out   io.Writer
	// Home is the person's home directory, shown as ~ in the working
	// directories that sets come from.
	Home string
}

// Arrived logs s, which has just been queued, and then how it ends. It is
// for the queue's OnArrive, which is told of every set: a view that reads
// snapshots may miss one that comes and goes between two.
func (l *Log) Arrived(s *inbox.Set) {
	from := prompt.Display(source(s, l.Home))
	say(l.Out, fmt.Sprintf("Arrived: questions from %s · %d waiting", from, l.Queue.Len()))
	go func() {
		<-s.Done()
		switch e := s.End(); e.State {
		case inbox.Answered:
			say(l.Out, fmt.Sprintf("Answered: the questions from %s", from))
		case inbox.Cancelled:
			say(l.Out, fmt.Sprintf("Cancelled: the questions from %s (its asker exits 130)", from))
		case inbox.Withdrawn:
			say(l.Out, fmt.Sprintf("Withdrawn: the questions from %s (%s)", from, prompt.Display(e.Reason)))
		}
		// Closed: the inbox quits, and says so once for all.
	}()
}

// Run waits until ctx ends (it returns context.Cause(ctx)): the inbox
// serves until a signal stops it.
func (l *Log) Run(ctx context.Context) error {
	<-ctx.Done()
	return context.Cause(ctx)
}
