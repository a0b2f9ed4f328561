package natsinbox

import (
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"filippo.io/age"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

// onSet reads a copy of a set. The first copy read is the set: it is
// opened, checked (its secret must name its subject, and its questions be
// valid) and shown while its asker beats; later copies, the same bytes,
// only keep it stored. What cannot be opened, or is not the set known
// under its id, is told once and deleted, and changes nothing.
func (f *feed) onSet(id, subject string, at stored, ts time.Time, waited time.Duration, data []byte) {
	sum := sha256.Sum256(data)
	if e := f.byID[id]; e != nil {
		switch {
		case e.sum != sum:
			f.junk(subject, "is not its subject's set: the set stored under that id before is another")
			f.delete(at)
		case e.settled:
			f.delete(at)
		case !slices.Contains(e.seqs, at):
			e.posted = later(e.posted, ts)
			e.seqs = append(e.seqs, at)
		}
		return
	}
	ws, problem := f.open(id, data)
	if problem != "" {
		f.junk(subject, problem)
		f.delete(at)
		if ws != nil {
			// A set that this inbox will not take, unsealed: its asker is
			// told why.
			e := &entry{id: id, end: endID(ws.Secret), reply: ws.Reply, settled: true, since: ts}
			f.publish(e, wireEnd{End: endRefused, Refused: &inbox.ErrorBody{Error: "this inbox takes only questions sealed to it: give the asker the address that askuser inbox printed, with its to="}}, "")
		}
		return
	}
	e := &entry{id: id, end: endID(ws.Secret), reply: ws.Reply, sum: sum, seqs: []stored{at}, posted: ts, asked: ts.Add(-waited), beat: f.early[id]}
	delete(f.early, id)
	f.byID[id], f.byEnd[e.end] = e, e
	set, refused := f.srv.Check(&ws.Request)
	if refused != nil {
		e.settled, e.since = true, ts
		f.publish(e, wireEnd{End: endRefused, Refused: refused}, "")
		return
	}
	e.set = set
	f.show(e)
}

// open opens a set's message on subject ID, and returns why it is not a
// set this inbox takes, or "". A set sent unsealed to an inbox that takes
// only sealed ones is returned with why, for its asker to be told.
func (f *feed) open(id string, data []byte) (*wireSet, string) {
	plain, err := open(data, f.l.id, maxMessage)
	switch {
	case errors.Is(err, errNotForUs):
		return nil, fmt.Sprintf("is sealed to another recipient than this inbox's (%s): its asker's to= is another inbox's", f.l.id.Recipient())
	case err != nil:
		return nil, fmt.Sprintf("cannot be opened (%v)", err)
	}
	var ws wireSet
	if err := json.Unmarshal(plain, &ws); err != nil || ws.Secret == "" {
		return nil, "is not a set of questions"
	}
	if setID(ws.Secret) != id {
		return nil, "is not its subject's set (its secret does not name the subject): it was not stored by that set's asker"
	}
	if _, err := age.ParseX25519Recipient(ws.Reply); err != nil {
		return nil, "carries no age recipient to seal its answer to (reply is not age1...)"
	}
	if !sealed(data) && !f.l.addr.Plaintext {
		return &ws, "is not sealed: this inbox takes only sets sealed to it, unless its address says insecure=plaintext"
	}
	return &ws, ""
}

// junk tells the person of a message that is deleted because it is not a
// set this inbox takes: the first of each kind at once, the rest counted
// at the next tick.
func (f *feed) junk(subject, problem string) {
	f.reported[problem]++
	if f.reported[problem] == 1 {
		f.l.say("Deleted a message on %s that %s.\n", prompt.Display(subject), problem)
	}
}

// sayJunk tells the person how many messages were deleted since the last
// tick, beyond the first of each kind.
func (f *feed) sayJunk() {
	n := 0
	for problem, count := range f.reported {
		if count > 1 {
			n += count - 1
			f.reported[problem] = 1
		}
	}
	switch {
	case n == 1:
		f.l.say("Deleted 1 more message that this inbox does not take.\n")
	case n > 1:
		f.l.say("Deleted %d more messages that this inbox does not take.\n", n)
	}
}

// onEnd reads the end of a set, stored here or by another inbox, or by
// its asker: a set still shown here ends as it ended there, and its copies
// are deleted. An end of no set this inbox knows may be an end of long
// ago, and is left for its asker, unless it is not even sealed.
func (f *feed) onEnd(end, subject string, at stored, ts time.Time, ttl string, data []byte) {
	e := f.byEnd[end]
	if e == nil {
		switch {
		case !sealed(data) && !f.l.addr.Plaintext:
			f.junk(subject, "is not a sealed end of a set")
			f.delete(at)
		case ttl != endTTL.String():
			// Every end askuser stores expires after endTTL: one that
			// would stay longer (Nats-TTL: never) would hold the stream's
			// room for good.
			f.junk(subject, "does not expire as an end of a set does")
			f.delete(at)
		}
		return
	}
	// The set has ended: its copies go.
	f.delete(e.seqs...)
	e.seqs = nil
	if e.settled {
		return
	}
	e.settled, e.since = true, later(f.lastTick, ts)
	if !e.shown {
		return
	}
	if !f.queue.EndElsewhere(e.set, remoteEnd(f.readEnd(data))) {
		// Answered or cancelled here a moment ago: its end is stored
		// next, to be refused, and the person told who came first.
		e.settled = false
	}
}

// readEnd opens an end stored by another inbox, or by an asker; what
// cannot be read is an end that says nothing (remoteEnd words it).
func (f *feed) readEnd(data []byte) wireEnd {
	var w wireEnd
	if plain, err := open(data, f.l.id, maxMessage); err == nil {
		_ = json.Unmarshal(plain, &w)
	}
	return w
}

// remoteEnd is how a set ended elsewhere, as the views say it.
func remoteEnd(w wireEnd) inbox.End {
	by := ""
	if w.By != "" {
		by = "by " + w.By
	}
	switch w.End {
	case inbox.EventAnswered:
		return inbox.End{State: inbox.Answered, Reason: by}
	case inbox.EventCancelled:
		return inbox.End{State: inbox.Cancelled, Reason: by}
	}
	reason := w.Reason
	if reason == "" {
		reason = "the asker stopped waiting"
	}
	return inbox.End{State: inbox.Withdrawn, Reason: reason}
}

// show queues e's set when its asker is alive, once the sets that waited
// before the inbox started are shown.
func (f *feed) show(e *entry) {
	if !f.ready || e.shown || e.settled || e.set == nil || !f.alive(e) {
		return
	}
	e.shown = true
	e.set.Arrived = e.asked.Add(-f.skew)
	if _, err := f.queue.Add(e.set); err != nil {
		return
	}
	go func() {
		select {
		case <-e.set.Done():
			f.do(func() { f.settle(e) })
		case <-f.ctx.Done():
		}
	}()
}

// showWaiting shows, once both streams are read to their end, the sets
// that waited before the inbox started and whose asker is alive, oldest
// first.
func (f *feed) showWaiting() {
	if f.ready || f.lastTick.IsZero() || !f.caughtUp {
		return
	}
	f.ready = true
	var live []*entry
	for _, e := range f.byID {
		if e.set != nil && !e.settled && f.alive(e) {
			live = append(live, e)
		}
	}
	slices.SortFunc(live, func(a, b *entry) int { return cmp.Compare(a.asked.UnixNano(), b.asked.UnixNano()) })
	for _, e := range live {
		f.show(e)
	}
}
