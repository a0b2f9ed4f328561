package natsinbox

import (
	"context"
	"maps"
	"time"

	"github.com/askuser/askuser/internal/inbox"
)

// alive reports whether e's asker beat within deadAfter of the last tick,
// in the server's time: a set is shown once its asker beats (it beats
// before it stores the set).
func (f *feed) alive(e *entry) bool {
	return !e.beat.Before(f.lastTick.Add(-deadAfter))
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
	maps.DeleteFunc(f.early, func(_ string, t time.Time) bool { return ts.Sub(t) > setTTL })
	switch {
	case f.minute.IsZero():
		f.minute = ts
	case ts.Sub(f.minute) >= time.Minute:
		f.minute = ts
		f.sayJunk()
		maps.DeleteFunc(f.anchors, func(_ string, a anchor) bool { return ts.Sub(a.ts) > endTTL })
		maps.DeleteFunc(f.ended, func(_ string, t time.Time) bool { return ts.Sub(t) > endTTL })
		maps.DeleteFunc(f.unheard, func(_ string, t time.Time) bool { return ts.Sub(t) > endTTL })
	}
}

// checkCaughtUp asks the server whether the sets' consumer has read the
// stream to its end, for when no message said so (they were deleted
// before they were read).
func (f *feed) checkCaughtUp() {
	f.consMu.Lock()
	cons := f.cons[0]
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

// storeTick stores the inbox's tick, which it does every beatEvery.
func (f *feed) storeTick() {
	ctx, cancel := context.WithTimeout(f.ctx, beatEvery)
	defer cancel()
	_, _ = f.conn.js.Publish(ctx, f.l.addr.subject("beat", f.tickID), nil)
}
