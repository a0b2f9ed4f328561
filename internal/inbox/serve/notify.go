package serve

import (
	"io"
	"sync"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/notify"
)

// arrival is what happens when a set arrives: the bell rings on the
// inbox's terminal, and ASKUSER_NOTIFY_COMMAND runs with the set's first
// question, where it came from, and the address of its page on p, the
// inbox's web page ("" without one), for a notification to open. The
// command is started apart: whoever queued the set (the one loop that
// reads a queue on NATS) does not wait for a process to start, a
// thousand times a second when a fleet starts at once.
func arrival(o Options, out io.Writer, p *page) func(*inbox.Set) {
	return func(s *inbox.Set) {
		if o.IO.ErrTTY {
			_, _ = io.WriteString(out, "\a")
		}
		if o.NotifyCommand == "" {
			return
		}
		// A queued set has a question at least (the schema's minItems), and
		// the one question of askuser confirm or input has the header
		// "Confirm" or "Input".
		first := s.Questions[0]
		vars := []string{"ASKUSER_FROM=" + s.Source(), "ASKUSER_HEADER=" + first.Header, "ASKUSER_QUESTION=" + first.Question, "ASKUSER_URL=" + p.setURL(s)}
		go func() {
			run := notify.Start(o.NotifyCommand, vars...)
			<-run.Done()
			run.Warn(out)
		}()
	}
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
