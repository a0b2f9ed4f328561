package natsinbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"filippo.io/age"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

// What the inbox does not take, in fixed words: nothing of a message's
// own text is shown, and the kinds told are bounded by these.
const (
	junkUnopened    = "cannot be opened"
	junkNotSet      = "is not a set of questions"
	junkNotItsSet   = "is not its subject's set (its secret does not name the subject): it was not stored by that set's asker"
	junkOtherCopy   = "is not its subject's set: the set stored under that id before is another"
	junkNoReply     = "carries no age recipient to seal its answer to (reply is not age1...)"
	junkUnsealed    = "is not sealed: this inbox takes only sets sealed to it, unless its address says insecure=plaintext"
	junkUnsealedEnd = "is not a sealed end of a set"
	// junkTooManyLimits is a set left for its next copy.
	junkTooManyLimits = "carries limits of its own past the different limits the inbox checks in a minute: its asker's next copy is checked"
)

// junkLasting is the words for a message that would not expire as what
// askuser stores there does: it would hold the stream's room for longer,
// or for good (Nats-TTL: never outlives the stream's max age).
func junkLasting(what string) string { return "does not expire as " + what + " does" }

// opened is a copy of a set as the consumer read it: opened, and its
// questions checked, there, so that what a copy costs never holds up the
// loop (answers, beats, other sets).
type opened struct {
	sum     [32]byte
	ws      *wireSet
	problem string           // why it is not a set this inbox takes, or ""
	set     *inbox.Set       // its questions, checked
	refused *inbox.ErrorBody // why the inbox refuses them
}

// open opens a copy of the set id. A set sent unsealed to an inbox that
// takes only sealed ones has its wireSet with its problem, for its asker
// to be told.
func (f *feed) open(id string, data []byte) *opened {
	o := &opened{sum: sha256.Sum256(data)}
	plain, err := open(data, f.l.id, maxMessage)
	var ws wireSet
	switch {
	case errors.Is(err, errNotForUs):
		o.problem = fmt.Sprintf("is sealed to another recipient than this inbox's (%s): its asker's to= is another inbox's", f.l.id.Recipient())
	case err != nil:
		o.problem = junkUnopened
	case json.Unmarshal(plain, &ws) != nil || ws.Secret == "":
		o.problem = junkNotSet
	case setID(ws.Secret) != id:
		o.problem = junkNotItsSet
	case ws.Root != "" && !isSecret(ws.Root) && !isDigest(ws.Root):
		// A digest is an older asker's root, which dates nothing.
		o.problem = junkNotSet
	default:
		if _, err := age.ParseX25519Recipient(ws.Reply); err != nil {
			o.problem = junkNoReply
			break
		}
		o.ws = &ws
		if !sealed(data) && !f.l.addr.Plaintext {
			o.problem = junkUnsealed
			break
		}
		o.set, o.refused = f.srv.Check(&ws.Request)
		if o.refused != nil && errors.Is(o.refused.Err, inbox.ErrTooManyLimits) {
			// Not refused, and no end stored for it, which would cost
			// as much again: its asker's next copy is checked.
			o.problem, o.ws, o.refused = junkTooManyLimits, nil, nil
		}
	}
	return o
}

// onSet reads a copy of a set, opened (o). The first copy read is the
// set: shown while its asker beats, as asked when its root's anchor was
// stored (or this copy, with none). Later copies, the same bytes, only
// keep it stored. What cannot be opened, or is not the set known under
// its id, is told and deleted, and changes nothing.
func (f *feed) onSet(id, subject string, at stored, ts time.Time, o *opened) {
	if e := f.byID[id]; e != nil {
		switch {
		case e.sum != o.sum:
			f.junk(subject, junkOtherCopy, at)
		case e.settled:
			f.delete(at)
		case !slices.Contains(e.seqs, at):
			e.posted = later(e.posted, ts)
			e.seqs = append(e.seqs, at)
		}
		return
	}
	if o.problem != "" {
		f.junk(subject, o.problem, at)
		if o.ws != nil {
			// A set that this inbox will not take, unsealed: its asker is
			// told why.
			e := &entry{end: endID(o.ws.Secret), reply: o.ws.Reply, settled: true, since: ts}
			f.publish(e, wireEnd{End: endRefused, Refused: &inbox.ErrorBody{Error: "this inbox takes only questions sealed to it: give the asker the address that askuser inbox printed, with its to="}}, "")
		}
		return
	}
	e := &entry{end: endID(o.ws.Secret), root: f.rootOf(id, o.ws.Root), reply: o.ws.Reply, sum: o.sum, seqs: []stored{at}, posted: ts, asked: ts, beat: f.early[id]}
	if a, ok := f.anchors[e.root]; ok && a.ts.Before(ts) {
		e.asked = a.ts
	}
	delete(f.early, id)
	f.byID[id], f.byEnd[e.end] = e, e
	switch _, ended := f.ended[e.end]; {
	case ended:
		// Its end was stored before it: whatever its copies say, it is
		// over.
		e.settled, e.since = true, ts
		f.delete(at)
	case o.refused != nil:
		e.settled, e.since = true, ts
		f.publish(e, wireEnd{End: endRefused, Refused: o.refused}, "")
	default:
		e.set = o.set
		f.show(e)
	}
}

// rootOf is the id of the set whose anchor dates the set id: the set first
// asked, which root names by its secret, when an inbox withdrew it for
// want of beats (its asker, cut off, asks again); else its own. Naming
// another message as a root gains nothing: an anchor stored alone, an end
// that its own asker stored, another asker's set.
func (f *feed) rootOf(id, root string) string {
	if _, ok := f.unheard[endID(root)]; ok && isSecret(root) {
		return setID(root)
	}
	return id
}

// onAnchor reads a set's anchor (h, its headers): when the set was first
// asked, as the server saw it, which a set asked again under another id
// keeps. Only an anchor that the server stored while a copy of its set
// was stored dates the set: one stored ahead of its set (an older
// asker's, or an agent's that would claim to have waited longer) dates
// nothing, and is deleted.
func (f *feed) onAnchor(id string, h nats.Header, at stored, ts time.Time) {
	if !namesCopy(f.l.addr.subject("set", id+"."), h) {
		f.delete(at)
		return
	}
	if len(f.anchors) < maxStored {
		f.anchors[id] = anchor{at, ts}
	}
}

// namesCopy reports whether an anchor's headers (h) had the server store
// it only while the message it names was stored: a copy of its set, on a
// subject under prefix other than the anchor's (see ask.open). They hold
// nothing else: a line that follows a bare newline is a header of its own
// to this client and part of the line before to the server, so that a
// line more could hide the check from the server.
func namesCopy(prefix string, h nats.Header) bool {
	name, ok := strings.CutPrefix(h.Get(jetstream.ExpectedLastSubjSeqSubjHeader), prefix)
	seq, err := strconv.ParseUint(h.Get(jetstream.ExpectedLastSubjSeqHeader), 10, 64)
	return len(h) == 3 && ok && name != "0" && !strings.Contains(name, ".") && err == nil && seq > 0
}

// junk deletes a message (at) because it is not what this inbox takes,
// and tells the person, in fixed words (problem), with its subject: the
// first of each kind in a minute at once, the others counted, and told as
// a count at most once a minute (see sayJunk).
func (f *feed) junk(subject, problem string, at stored) {
	f.delete(at)
	if _, told := f.told[problem]; told {
		f.untold++
		return
	}
	f.told[problem] = struct{}{}
	f.l.say("Deleted a message on %s that %s.\n", wireText(subject, maxShownSubject), problem)
}

// maxShownSubject bounds the subject that junk shows: its tokens are the
// sender's to choose.
const maxShownSubject = 100

// sayJunk tells the person, once a minute (see tick), how many messages
// were deleted beyond those told, and forgets which kinds were told.
func (f *feed) sayJunk() {
	clear(f.told)
	switch {
	case f.untold == 1:
		f.l.say("Deleted 1 more message that this inbox does not take.\n")
	case f.untold > 1:
		f.l.say("Deleted %d more messages that this inbox does not take.\n", f.untold)
	}
	f.untold = 0
}

// onEnd reads the end of a set, stored here or by another inbox, or by
// its asker, and opened (w; sealed says whether it was): a set still shown here ends as it ended
// there, and its copies are deleted, its anchor too unless an inbox
// withdrew it unheard (its asker may ask it again). An end of no set this
// inbox knows may be an end of long ago, and is left for its asker, unless
// it is not even sealed; a set read after it is over.
func (f *feed) onEnd(end, subject string, at stored, ts time.Time, sealed bool, w wireEnd) {
	if w.Unheard && hmac.Equal([]byte(f.l.unheardProof(end)), []byte(w.Proof)) && len(f.unheard) < maxStored {
		f.unheard[end] = ts
	}
	e := f.byEnd[end]
	if e == nil {
		if !sealed && !f.l.addr.Plaintext {
			f.junk(subject, junkUnsealedEnd, at)
		} else if len(f.ended) < maxStored {
			f.ended[end] = ts
		}
		return
	}
	// The set has ended: its copies go.
	f.delete(e.seqs...)
	e.seqs = nil
	if a, ok := f.anchors[e.root]; ok && !w.Unheard {
		f.delete(a.at)
		delete(f.anchors, e.root)
	}
	if e.settled {
		return
	}
	e.settled, e.since = true, later(f.lastTick, ts)
	if e.shown && !f.srv.Queue().EndElsewhere(e.set, remoteEnd(w)) {
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
// Whatever of it came from the wire (who ended it, why) is made safe to
// show by the display rule of the questions, and bounded, here where it
// enters, since it goes on to the views, the log, the history and the
// notifications: any asker may store its own set's end, with any text.
func remoteEnd(w wireEnd) inbox.End {
	by := ""
	if w.By != "" {
		by = "by " + wireText(w.By, maxWireText)
	}
	switch w.End {
	case inbox.EventAnswered:
		return inbox.End{State: inbox.Answered, Reason: by}
	case inbox.EventCancelled:
		return inbox.End{State: inbox.Cancelled, Reason: by}
	}
	reason := wireText(w.Reason, maxWireText)
	if w.Withdraw != "" || reason == "" {
		// A code, never its text: only the inbox's words for the codes it
		// knows are shown, and for none, that the asker stopped waiting.
		reason = inbox.WithdrawReason(w.Withdraw)
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
	// Room for both words of its end: not yet, then the last (see
	// inbox.Set.Sent).
	e.set.Sent = make(chan error, 2)
	if _, err := f.srv.Queue().Add(e.set); err != nil {
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
	// show passes over those that are not to be shown.
	for _, e := range slices.SortedFunc(maps.Values(f.byID), func(a, b *entry) int { return a.asked.Compare(b.asked) }) {
		f.show(e)
	}
}

// maxWireText bounds a text of the wire that askuser shows (an inbox's
// name, a reason), in characters.
const maxWireText = 200

// wireText is a text read from the wire as askuser shows it: on one
// line, through the display rule of the questions (prompt.Display: no
// terminal escapes, no invisible characters), and at most `most`
// characters.
func wireText(s string, most int) string {
	// Its runes are its characters (a byte that is not UTF-8 counts as
	// one).
	if r := []rune(s); len(r) > most {
		s = string(r[:most]) + "…"
	}
	return prompt.Display(s)
}
