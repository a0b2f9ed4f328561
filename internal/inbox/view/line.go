package view

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/line"
)

// The commands typed on a line of their own, in place of an answer.
const (
	cmdNext   = "/next"
	cmdCancel = "/cancel"
	cmdQuit   = "/quit"
)

// Help is the line that tells the person the commands.
const Help = "Type /next to move to the next set, /cancel to cancel the set shown (its asker exits 130), /quit to quit."

// Line shows the queue one set at a time, oldest first, as prompt/line
// asks: a line saying where the set came from, how long it has waited and
// how many more wait, then its numbered prompts. Answers are read from In,
// a line each; a line that is a command (/next, /cancel, /quit) acts on the
// set shown instead. A set that ends while it is shown (its asker went) is
// left at once, and the screen says so.
type Line struct {
	Queue *inbox.Queue
	In    io.Reader
	Out   io.Writer
	// Terminal is set when In is a terminal: what is typed while no set is
	// shown, or before the set shown appeared, is then dropped (it was
	// typed for nothing the person has seen, or for a set just
	// withdrawn), and lines are not echoed. Lines from elsewhere (a
	// script's answers) are answers given ahead: they wait for the sets
	// they answer, in order; once the input has ended, the screen
	// quits when a set needs a line and none is left, or when nothing
	// waits and no line is left.
	Terminal bool
	// Where is the inbox's address, shown while nothing waits.
	Where string
	// Home is the person's home directory, shown as ~ in the working
	// directories that sets come from.
	Home string
	last *inbox.Set // the set shown last
	// keyGuard, when set, replaces keyPause: tests that type lines at
	// given times use a longer one, which a busy machine cannot outrun.
	keyGuard time.Duration
	// moved is set when the person moved on from the set shown last
	// (answered, cancelled or skipped it): the next set then takes lines
	// at once, as it does when Terminal is not set.
	moved bool
	// out is Out, which keeps the line a prompt waits on: see record.
	out *screenWriter
	// shown is the set whose prompts are on screen, nil while none is.
	shown atomic.Pointer[inbox.Set]
	// recording is the set shown last, and closed once record has run
	// for it (see awaitRecord).
	recording atomic.Pointer[recording]
}

// recording is a set shown, and whether how it ended is recorded: done
// is made for each time it is shown, and closed when it ends.
type recording struct {
	s    *inbox.Set
	done chan struct{}
}

// Run shows the queue until the input ends or /quit is typed (it returns
// nil then), or ctx ends (it returns context.Cause(ctx)), and records each
// set that ends meanwhile. It does not close the queue: the caller does,
// once the screen is gone.
func (l *Line) Run(ctx context.Context) error {
	l.out = &screenWriter{w: l.Out}
	l.Queue.OnEnd(l.record)
	in := readLines(l.In)
	idle := false
	for {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		l.awaitRecord(ctx)
		v := l.Queue.Snapshot()
		if len(v.Sets) > 0 {
			idle = false
			quit, err := l.present(ctx, v.Sets[0], len(v.Sets)-1, in)
			if quit || err != nil {
				return err
			}
			continue
		}
		if v.Closed {
			return nil
		}
		if !idle {
			say(l.out, fmt.Sprintf("Waiting for questions at %s.", l.Where))
			idle = true
			l.moved = false
		}
		got, wake := in.next(!l.Terminal)
		switch {
		case got != nil:
			switch command(got.text) {
			case cmdQuit:
				return nil
			case "":
				say(l.out, "No questions are waiting: nothing was answered.")
			default:
				say(l.out, "No questions are waiting.")
			}
			continue
		case wake == nil:
			say(l.out, "The input ended: the inbox quits.")
			return nil
		}
		select {
		case <-v.Changed:
		case <-wake:
		case <-ctx.Done():
		}
	}
}

// present asks the set s, with more sets waiting behind it, and reports
// whether the inbox is to quit.
func (l *Line) present(ctx context.Context, s *inbox.Set, more int, in *lines) (quit bool, err error) {
	l.recording.Store(&recording{s: s, done: make(chan struct{})})
	l.shown.Store(s)
	defer l.shown.Store(nil)
	guard := l.showHeader(s, more, in)
	cmd, answers, asked := l.askSet(ctx, s, in, guard)
	return l.settle(ctx, s, cmd, answers, asked)
}

// showHeader says where s came from, how long it waited and how many more
// wait, and returns until when a line typed is not taken as an answer.
func (l *Line) showHeader(s *inbox.Set, more int, in *lines) (guard time.Time) {
	// At a terminal, what was typed before these questions were on screen
	// was meant for others (a set that has just been withdrawn): it must
	// not answer these. It is dropped before they are shown, so that
	// nothing typed after is.
	dropped := 0
	if l.Terminal && s != l.last {
		dropped = in.drop()
		if !l.moved {
			// Nor what is typed just after they appear, unless the
			// person moved here.
			guard = time.Now().Add(cmp.Or(l.keyGuard, keyPause))
		}
	}
	l.last, l.moved = s, false
	say(l.out, "")
	say(l.out, strings.Join(banner(prompt.Display(Source(s, l.Home)), l.Queue.Now().Sub(s.Arrived), more), " · "))
	switch {
	case dropped == 1:
		say(l.out, "(A line typed before these questions were shown was dropped.)")
	case dropped > 1:
		say(l.out, fmt.Sprintf("(%d lines typed before these questions were shown were dropped.)", dropped))
	}
	if !guard.IsZero() {
		say(l.out, "(These questions just appeared: a line typed in the first half second is not taken.)")
	}
	return guard
}

// askSet asks s with line prompts until it is answered, a command is
// typed (cmd: the prompts then end with errStop) or the set ends.
func (l *Line) askSet(ctx context.Context, s *inbox.Set, in *lines, guard time.Time) (cmd string, _ []prompt.Answer, _ error) {
	askCtx, stop := until(ctx, s.Done(), errStop)
	// A read still waiting for a line gives up without taking one.
	defer stop(errStop)
	commands := make(chan string, 1)
	asker := line.New(&feed{in: in, done: askCtx.Done(), commands: commands, guard: guard, out: l.out}, l.out, !l.Terminal)
	answers, err := asker.Ask(askCtx, s.Questions)
	select {
	case cmd = <-commands:
	default:
	}
	return cmd, answers, err
}

// settle does what the command, or the answers the prompts gave (asked
// is their error), ask with s, and reports whether the inbox is to quit.
func (l *Line) settle(ctx context.Context, s *inbox.Set, cmd string, answers []prompt.Answer, asked error) (quit bool, err error) {
	// What the queue said of what was asked of it: nothing was while the
	// set ended as it was shown.
	queued := inbox.ErrEnded
	switch {
	case cmd == cmdQuit:
		return true, nil
	case cmd == cmdCancel:
		queued = l.Queue.Cancel(s, inbox.ViaHere)
	case cmd == cmdNext && len(l.Queue.Snapshot().Sets) < 2:
		// Sets may have come since this one was shown: they are counted
		// now.
		say(l.out, "No other set is waiting.")
		return false, nil
	case cmd == cmdNext:
		queued = l.Queue.Skip(s)
	case asked == nil:
		queued = l.Queue.Answer(s, inbox.ViaHere, answers)
	case errors.Is(asked, prompt.ErrNoAnswer):
		say(l.out, "The input ended: the inbox quits.")
		return true, nil
	case ctx.Err() != nil:
		return true, context.Cause(ctx)
	case !errors.Is(asked, errStop):
		return true, asked
	}
	switch {
	case queued == nil || isNotSent(queued):
		l.moved = true
		return false, nil
	case !errors.Is(queued, inbox.ErrEnded):
		// The line asker gives only answers that fit: this is a bug.
		say(l.out, fmt.Sprintf("Not sent: %v.", queued))
		return false, nil
	}
	// The set ended while it was shown, or before the command or the
	// answer reached it: Record said how. The inbox may be quitting.
	return s.End().State == inbox.Closed, nil
}

// awaitRecord waits, when the set shown last has ended, until how it ended
// is recorded (the queue wakes the views before it tells them), so that
// the record comes before what is said next: the next set, or that none
// waits.
func (l *Line) awaitRecord(ctx context.Context) {
	if r := l.recording.Load(); r != nil && r.s.End().State != inbox.Waiting {
		select {
		case <-r.done:
		case <-ctx.Done():
		}
	}
}

// record writes a line that says how s ended, whichever view ended it:
// what became of an answer or cancel given in this inbox that did not
// reach its asker; "✔ Sent to FROM." for the answers given here, which
// the prompts show already; the answers given on the web page; else its
// outcome. The queue calls it (OnEnd), from any goroutine: Out takes
// whole writes.
func (l *Line) record(s *inbox.Set) {
	if r := l.recording.Load(); r != nil && r.s == s {
		// The queue tells of each set's end once.
		defer close(r.done)
	}
	e := s.End()
	from := prompt.Display(Source(s, l.Home))
	var b strings.Builder
	switch text, unsent := outcome(e, from), notSent(s, e, from); {
	case unsent != "":
		b.WriteString(unsent + "\n")
	case e.State == inbox.Answered && e.Via == inbox.ViaHere:
		fmt.Fprintf(&b, "✔ Sent to %s.\n", from)
	case answersShown(e):
		WriteSummary(&b, "✔ "+answersPrefix(e, from), prompt.Summarize(s.Questions, e.Answers))
	case text != "":
		b.WriteString(text + "\n")
	default:
		return
	}
	// A prompt of another set waits: it is asked again below.
	l.out.interject(b.String(), l.shown.Load() != s)
}

// screenWriter is the Line's output: it keeps the end of the line being
// written (a prompt waiting for its answer), so that what is recorded
// meanwhile (Line.record) goes on lines of its own, with the prompt again
// below it. It takes whole writes from any goroutine.
type screenWriter struct {
	mu   sync.Mutex
	w    io.Writer
	tail []byte // the line being written, since its last newline
}

// maxTail bounds the line kept: a prompt is short.
const maxTail = 4 << 10

func (s *screenWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.w.Write(p)
	p = p[:n]
	if i := bytes.LastIndexByte(p, '\n'); i >= 0 {
		s.tail = s.tail[:0]
		p = p[i+1:]
	}
	if len(s.tail)+len(p) <= maxTail {
		s.tail = append(s.tail, p...)
	}
	return n, err
}

// interject writes lines, whole, on lines of their own: below the line
// being written, which is written again after them when again is set. A
// failed write is not reported: see say.
func (s *screenWriter) interject(lines string, again bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.tail) > 0 {
		lines = "\n" + lines
		if again {
			lines += string(s.tail)
		} else {
			s.tail = s.tail[:0]
		}
	}
	_, _ = io.WriteString(s.w, lines)
}
