package view

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/tui"
)

// Terminal shows the queue on a terminal, with the screens and keys of
// askuser's own terminal UI (prompt/tui): the oldest set at once, ready
// for keys, under a banner that says where it came from, how long it has
// waited and how many more wait. Tab moves on to the next waiting set, Esc
// cancels the set shown (its asker exits 130), Ctrl+C quits, and so does
// q while nothing waits. What became of every set stays in a line above
// the screen (see Record), whichever view ended it: its answers ("✔
// ~/src/api · Database: SQLite"), or that it was cancelled, or withdrawn.
//
// The terminal is held in raw mode for as long as Run runs, and given
// back as it was found however Run returns.
type Terminal struct {
	o      TerminalOptions
	ui     *tui.Prompter
	redraw chan struct{}
	shown  atomic.Pointer[inbox.Set] // the set on screen, nil while idle
}

// TerminalOptions configure a Terminal.
type TerminalOptions struct {
	Queue *inbox.Queue
	// In and Out are the terminal: keys are read from In, the screen is
	// drawn on Out.
	In, Out *os.File
	// Color turns on colours (see tui.Options).
	Color bool
	// Where is the inbox's address, shown while nothing waits.
	Where string
	// Home is the person's home directory, shown as ~ in the working
	// directories that sets come from.
	Home string
	// keyGuard, when set, replaces keyPause: tests that press keys at
	// given times use a longer one, which a busy machine cannot outrun.
	keyGuard time.Duration
}

// NewTerminal returns the terminal view of o.Queue, which records each set
// that ends from now on.
func NewTerminal(o TerminalOptions) *Terminal {
	o.keyGuard = cmp.Or(o.keyGuard, keyPause)
	s := &Terminal{o: o, redraw: make(chan struct{}, 1)}
	s.ui = tui.New(tui.Options{
		In: o.In, Out: o.Out, Color: o.Color, Review: true,
		Banner: s.banner, Hints: s.hints, Take: s.take, Redraw: s.redraw,
	})
	o.Queue.OnEnd(s.record)
	return s
}

// idleText is what the screen says while nothing waits, with the address.
const idleText = "Waiting for questions at %s.\nThe questions that agents ask with askuser arrive here, oldest first."

// Run shows the queue until the person quits (it returns nil then) or
// ctx ends (it returns context.Cause(ctx)). A terminal that ends (hangs
// up) returns prompt.ErrNoAnswer. Run does not close the queue: the
// caller does, once the screen is gone.
func (s *Terminal) Run(ctx context.Context) (err error) {
	if err := s.ui.Hold(); err != nil {
		return err
	}
	// The terminal is given back whatever Run returns; its failure is
	// told when nothing else is.
	defer func() { err = cmp.Or(err, s.ui.Release()) }()
	watching, stop := context.WithCancel(ctx)
	var watched sync.WaitGroup
	watched.Go(func() { s.watch(watching) })
	defer func() {
		stop()
		watched.Wait()
	}()

	var last *inbox.Set
	why := arrived // how the next set comes on screen; "" when the person moved there
	for {
		v := s.o.Queue.Snapshot()
		if len(v.Sets) == 0 {
			s.shown.Store(nil)
			if v.Closed {
				return nil
			}
			if quit, err := s.idle(ctx, v.Changed); quit || err != nil {
				return err
			}
			why = arrived
			continue
		}
		set := v.Sets[0]
		if set != last {
			// Keys typed for what was shown before must not answer
			// this set, which the person has not seen yet; nor keys
			// typed just after it appeared, unless the person moved
			// here.
			s.ui.Forget()
			if why != "" {
				s.ui.Pause(s.o.keyGuard, why+": keys are paused for a moment.")
			}
			last = set
		}
		s.shown.Store(set)
		var quit bool
		if why, quit, err = s.present(ctx, set); quit || err != nil {
			return err
		}
	}
}

// keyPause is how long a set that comes on screen without the person
// moving to it takes no keys: long enough for a key meant for what was
// there before (pressed as it was withdrawn) to be dropped, short enough
// not to be in the way of one who has read the new set.
const keyPause = 500 * time.Millisecond

// arrived says how a set comes on screen when none was shown before.
const arrived = "New questions"

// idle shows the idle screen until the queue changes, and reports whether
// the person quit.
func (s *Terminal) idle(ctx context.Context, changed <-chan struct{}) (quit bool, err error) {
	idleCtx, stop := until(ctx, changed, errStop)
	defer stop(nil)
	err = s.ui.Idle(idleCtx, "askuser inbox", fmt.Sprintf(idleText, s.o.Where))
	_, key := errors.AsType[*tui.KeyError](err)
	switch {
	case errors.Is(err, tui.ErrQuit), key:
		return true, nil
	case ctx.Err() != nil:
		return true, context.Cause(ctx)
	case errors.Is(err, errStop):
		return false, nil
	}
	return true, err
}

// present asks the set s until it is answered, cancelled, skipped or
// ends elsewhere, and reports whether the person quit. why says how the
// next set comes on screen: "" when the person moved on (answered,
// cancelled or skipped the set), else what happened to this one.
func (s *Terminal) present(ctx context.Context, set *inbox.Set) (why string, quit bool, err error) {
	setCtx, stop := until(ctx, set.Done(), errStop)
	defer stop(nil)
	answers, asked := s.ui.Ask(setCtx, set.Questions)

	key, keyed := errors.AsType[*tui.KeyError](asked)
	// What the queue said of what was asked of it: nothing was while the
	// set ended as it was shown.
	queued := inbox.ErrEnded
	switch {
	case asked == nil:
		queued = s.o.Queue.Answer(set, inbox.ViaHere, answers)
	case keyed && key.Key == tui.KeyInterrupt:
		return "", true, nil
	case keyed:
		queued = s.o.Queue.Skip(set)
	case errors.Is(asked, prompt.ErrCancelled):
		queued = s.o.Queue.Cancel(set, inbox.ViaHere)
	case ctx.Err() != nil:
		return "", true, context.Cause(ctx)
	case !errors.Is(asked, errStop):
		// The terminal failed or ended (hung up): nothing more can be
		// asked on it.
		return "", true, asked
	}
	switch {
	case queued == nil || isNotSent(queued):
		// The answers, or what became of them, are recorded (record).
		return "", false, nil
	case !errors.Is(queued, inbox.ErrEnded):
		// The terminal UI gives only answers that fit: this is a bug.
		_ = s.ui.PrintNotice(false, fmt.Sprintf("Not sent to %s: %v.", prompt.Display(Source(set, s.o.Home)), queued))
		return "", false, nil
	}
	// The set ended while it was shown, or before the key or the answer
	// reached it: a line above the screen says how (record), and the next
	// set comes on screen saying so too.
	switch e := set.End(); e.State {
	case inbox.Withdrawn:
		return "The questions before were withdrawn", false, nil
	case inbox.Answered, inbox.Cancelled:
		return fmt.Sprintf("The questions before were %s %s", e.State, where(e)), false, nil
	}
	// The set ended (its Done is closed, or the queue said so) with the
	// inbox, which quits.
	return "", true, nil
}

// record leaves a line above the screen that says how s ended, whichever
// view ended it: what became of an answer or cancel given in this inbox
// that did not reach its asker, else its answers, when given here or on
// the web page, else its outcome. The queue calls it (OnEnd), from any goroutine. A line that
// cannot be printed is not reported here: the screen drawn next goes to
// the same terminal, and reports it.
func (s *Terminal) record(set *inbox.Set) {
	e := set.End()
	from := prompt.Display(Source(set, s.o.Home))
	switch text, unsent := outcome(e, from), notSent(set, e, from); {
	case unsent != "":
		_ = s.ui.PrintNotice(false, unsent)
	case answersShown(e):
		_ = s.ui.PrintSummary(answersPrefix(e, from), prompt.Summarize(set.Questions, e.Answers))
	case text != "":
		_ = s.ui.PrintNotice(e.State == inbox.Answered, text)
	}
}

// banner is the line above every screen of a set: where it came from, how
// long it has waited, and how many more sets wait.
func (s *Terminal) banner() []string {
	set := s.shown.Load()
	if set == nil {
		return nil
	}
	return banner(Source(set, s.o.Home), s.o.Queue.Now().Sub(set.Arrived), s.others(set))
}

// banner is what the line above a set says, in parts, as every view words
// it: where the set came from (from, as the view draws it), how long it has
// waited, and how many more sets wait.
func banner(from string, waited time.Duration, more int) []string {
	parts := []string{"From " + from, "waiting " + prompt.Waited(waited)}
	if more > 0 {
		parts = append(parts, fmt.Sprintf("%d more waiting", more))
	}
	return parts
}

// hints are the inbox's keys, listed under every screen.
func (s *Terminal) hints() []string {
	if s.take(tui.KeyTab) {
		return []string{"Tab next set", "Ctrl+C quit"}
	}
	return []string{"Ctrl+C quit"}
}

// take says which keys the inbox takes from the terminal UI: Ctrl+C
// always (it quits), and Tab while another set waits to be moved on to.
func (s *Terminal) take(k tui.Key) bool {
	set := s.shown.Load()
	return k == tui.KeyInterrupt || k == tui.KeyTab && set != nil && s.others(set) > 0
}

// others is the number of sets that wait besides set.
func (s *Terminal) others(set *inbox.Set) int {
	sets := s.o.Queue.Snapshot().Sets
	if slices.Contains(sets, set) {
		return len(sets) - 1
	}
	return len(sets)
}

// watch has the screen drawn again whenever what its banner and hints say
// changes: a set arrives or leaves, or the time a set has waited goes up.
// Keys being typed are not lost: the prompt on screen is only redrawn.
func (s *Terminal) watch(ctx context.Context) {
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	state := func() string { return strings.Join(s.banner(), "\x00") + "\x01" + strings.Join(s.hints(), "\x00") }
	last := state() // what the first frame shows
	for {
		v := s.o.Queue.Snapshot()
		if now := state(); now != last {
			last = now
			select {
			case s.redraw <- struct{}{}:
			default:
			}
		}
		next := time.Second
		if set := s.shown.Load(); set != nil {
			next = untilChange(s.o.Queue.Now().Sub(set.Arrived))
		}
		timer.Reset(next)
		select {
		case <-v.Changed:
		case <-timer.C:
		case <-ctx.Done():
			return
		}
	}
}

// untilChange is how long until what waited says of d may change: at the
// next whole second waited (one not yet begun counts as 0s). Once it says
// minutes it changes less often, but the screen is looked at again each
// second regardless, as it is while idle: what changed is drawn, nothing
// else.
func untilChange(d time.Duration) time.Duration {
	return time.Second - max(d, 0)%time.Second
}

// Write shows p, what else the inbox has to say while the screen runs (a
// notification command that failed), in lines above the screen; a bell
// goes to the terminal as it is.
func (s *Terminal) Write(p []byte) (int, error) {
	if len(bytes.Trim(p, "\a")) == 0 {
		return s.o.Out.Write(p)
	}
	lines := strings.Split(strings.TrimSuffix(string(p), "\n"), "\n")
	for i, l := range lines {
		lines[i] = prompt.Display(l)
	}
	if err := s.ui.Print(strings.Join(lines, "\n")); err != nil {
		return 0, err
	}
	return len(p), nil
}
