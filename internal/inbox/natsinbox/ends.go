package natsinbox

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

// settle stores how e's set ended here, unless its end came from
// elsewhere. An answer given here while another inbox's end arrives is
// stored all the same: the server refuses it, and the person is told who
// came first, rather than let the answer seem sent.
func (f *feed) settle(e *entry) {
	if e.settled {
		return
	}
	e.settled, e.since = true, f.lastTick
	switch e.set.End().State {
	case inbox.Answered:
		ev, _ := inbox.FinalEvent(e.set)
		f.publish(e, wireEnd{End: inbox.EventAnswered, Answer: &ev, By: f.l.by}, "Your answer to")
	case inbox.Cancelled:
		f.publish(e, wireEnd{End: inbox.EventCancelled, By: f.l.by}, "Your cancel of")
	}
}

// withdraw takes away a set whose asker is gone, for every inbox, and
// here; an asker that was only away asks again when it reads why.
func (f *feed) withdraw(e *entry) {
	e.settled, e.since = true, f.lastTick
	reason := fmt.Sprintf("nothing heard from the asker for %s", deadAfter)
	f.publish(e, wireEnd{End: endWithdrawn, Reason: reason, Unheard: true, Proof: f.l.unheardProof(e.end)}, "")
	if e.shown {
		f.srv.Queue().Withdraw(e.set, reason)
	}
}

// publish stores e's end, sealed to its asker and to the inbox (for the
// other inboxes to read), trying again while the server is away (an
// answer given is not lost to a restart), until the inbox quits. Once an
// end is stored, this one or another first, the set's copies are deleted.
// The first word of it goes to the view that waits on the set (see
// inbox.Set.Sent): stored, not stored because another end came first, or
// not stored yet; after that last, the last word too. what, when not "",
// is how to tell the person of what happens after "not stored yet":
// "Your answer to".
func (f *feed) publish(e *entry, w wireEnd, what string) {
	body, err := sealJSON(w, e.reply, f.l.id.Recipient().String())
	switch {
	case f.closing:
		f.sent(e, errors.New("the inbox is quitting"))
		return
	case err != nil:
		f.sent(e, fmt.Errorf("it could not be sealed: %w", err))
		return
	}
	seqs := slices.Clone(e.seqs)
	f.ending.Go(func() {
		late, err := f.storeEnd(e, body, seqs)
		// The first word, or the last after "not yet", for the history
		// (see inbox.Set.LastWord).
		f.sent(e, err)
		switch {
		case !late, what == "":
		case err == nil:
			// Only a set shown here is answered or cancelled here: e.set
			// is there.
			f.l.say("%s the questions from %s is stored on the NATS server now: sent.\n", what, e.set.Source())
		default:
			f.l.say("%s the questions from %s was not sent: %v.\n", what, e.set.Source(), err)
		}
	})
}

// storeEnd stores e's end, body, until it or another is stored, when the
// set's copies (seqs) are deleted, or the inbox quits. late says that the
// view was told meanwhile that it is not stored yet: what comes of it
// then is for the person to be told.
func (f *feed) storeEnd(e *entry, body []byte, seqs []stored) (late bool, err error) {
	for {
		ctx, cancel := context.WithTimeout(f.ctx, inbox.ProbeTimeout)
		err := f.conn.publishEnd(ctx, e.end, body)
		cancel()
		switch {
		case err == nil:
			f.delete(seqs...)
			return late, nil
		case errors.Is(err, errEndTaken):
			f.delete(seqs...)
			return late, fmt.Errorf("they %s first", f.endedElsewhere(e.end))
		case f.ctx.Err() != nil:
			return late, fmt.Errorf("the NATS server did not take it before the inbox quit (%v)", err)
		case !late:
			f.sent(e, &inbox.NotSentError{Pending: true, Err: fmt.Errorf("the NATS server at %s has not stored it: %v", f.l.addr.serverURL(), err)})
			late = true
		}
		_ = sleep(f.ctx, beatEvery/2)
	}
}

// sent gives a word of e's end to whoever waits for it: the first, and,
// after a first that it is not stored yet, the last.
func (f *feed) sent(e *entry, err error) {
	if e.set == nil || e.set.Sent == nil {
		return
	}
	select {
	case e.set.Sent <- err:
	default:
	}
}

// endedElsewhere says how a set ended elsewhere: "were answered elsewhere
// (by NAME)".
func (f *feed) endedElsewhere(end string) string {
	var w wireEnd
	if m, err := f.conn.lastEnd(f.ctx, end, 0); err == nil && m != nil {
		w = f.readEnd(m.Data)
	}
	e := remoteEnd(w)
	what := map[inbox.State]string{inbox.Answered: "were answered elsewhere", inbox.Cancelled: "were cancelled elsewhere", inbox.Withdrawn: "were withdrawn"}[e.State]
	if e.Reason != "" {
		what += " (" + prompt.Display(e.Reason) + ")"
	}
	return what
}

// delete has messages deleted from the sets' stream, by the deleter: the
// loop does not wait on the server.
func (f *feed) delete(at ...stored) {
	f.deleteMu.Lock()
	f.deletes = append(f.deletes, at...)
	f.deleteMu.Unlock()
	poke(f.toDelete)
}

// deleteNow is the deleter: it deletes what delete was given. Every inbox
// on the queue may try; the first does it.
func (f *feed) deleteNow() {
	f.deleteMu.Lock()
	seqs := f.deletes
	f.deletes = nil
	f.deleteMu.Unlock()
	if !f.sameStream() {
		// The stream was made anew, and the watcher is told: its numbers
		// are not those read.
		return
	}
	for _, at := range seqs {
		if at.epoch != f.epoch.Load() {
			// Read before the stream was made anew.
			continue
		}
		ctx, cancel := context.WithTimeout(f.ctx, inbox.ProbeTimeout)
		_ = f.sets.DeleteMsg(ctx, at.seq)
		cancel()
	}
}

// sameStream reports whether the sets' stream is the one the consumers
// read, and tells the watcher when it is not (or cannot be told).
func (f *feed) sameStream() bool {
	ctx, cancel := context.WithTimeout(f.ctx, inbox.ProbeTimeout)
	defer cancel()
	info, err := f.sets.Info(ctx)
	f.consMu.Lock()
	same := err == nil && info.Created.Equal(f.created[0])
	f.consMu.Unlock()
	if !same {
		poke(f.kick)
	}
	return same
}
