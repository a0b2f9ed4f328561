package inbox

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Set is one set of questions waiting in the queue: what an asker sent,
// checked, and where it came from. Its fields are not changed once it is
// queued; how it ended is End.
type Set struct {
	// ID is unique within the queue, for the views to name a set by.
	ID uint64
	// From is the name the asker gave, or "" (see Source).
	From string
	Cwd  string
	// Arrived is when the set was queued, or, when it was set before,
	// when its asker first asked it (a transport whose sets outlive the
	// inbox knows).
	Arrived time.Time

	// Questions are the set's questions, validated.
	Questions []schema.Question

	// Sent, when its transport makes it before the set is queued,
	// receives word of the set's end from the transport: nil once it has
	// reached the asker's side (stored on the server that keeps the sets,
	// for NATS), else why not, or not yet. Answer and Cancel wait for the
	// first word before the set's end is told (OnEnd), so that no view
	// shows as sent what is not (see NotSent). A first word that is a
	// *NotSentError with Pending is followed by the last: nil once it is
	// stored, else why it was not (see LastWord). Without it, an end is
	// sent as soon as the set ends.
	Sent chan error

	done    chan struct{}
	end     End // written once, before done is closed
	notSent atomic.Pointer[NotSentError]

	lastOnce sync.Once
	last     *NotSentError // see LastWord
}

// NotSent is what became of the person's answer or cancel that ended s in
// this inbox, when its transport did not get it to the asker's side (see
// Sent): nil once it did, or while the word is awaited. Those told of the
// set's end (OnEnd) are told after the word.
func (s *Set) NotSent() *NotSentError { return s.notSent.Load() }

// LastWord waits for what became of the person's answer or cancel that
// ended s in this inbox, once s has ended and its end was told (OnEnd):
// nil once it reached the asker's side (or for an end that was not given
// here), else why not. When the first word was that it is not sent yet
// (NotSent, Pending), it waits for the transport's last word, which comes
// when it is stored, or when the inbox gives up on it (it quits): until
// then, nobody may say that the asker has the answer.
func (s *Set) LastWord() *NotSentError {
	s.lastOnce.Do(func() {
		if s.last = s.NotSent(); s.last != nil && s.last.Pending {
			s.last = notSent(<-s.Sent)
		}
	})
	return s.last
}

// Source says where the set came from, for the person: the name the asker
// gave, else its working directory. Draw it through prompt.Display.
func (s *Set) Source() string { return cmp.Or(s.From, s.Cwd, "an asker") }

// Done returns a channel closed when the set has ended, however it ended.
func (s *Set) Done() <-chan struct{} { return s.done }

// End returns how the set ended, or an End whose State is Waiting while it
// waits.
func (s *Set) End() End {
	select {
	case <-s.done:
		return s.end
	default:
		return End{}
	}
}

// State is where a set stands.
type State int

// A set waits until it ends in exactly one of the other states.
const (
	Waiting   State = iota
	Answered        // the person answered it (End.Answers)
	Cancelled       // the person cancelled it: its asker exits 130
	Withdrawn       // its asker stopped waiting (killed, Ctrl+C, --timeout)
	Closed          // the inbox quit
)

var stateNames = [...]string{
	Waiting: "waiting", Answered: "answered", Cancelled: "cancelled",
	Withdrawn: "withdrawn", Closed: "closed",
}

func (st State) String() string { return stateNames[st] }

// Via is where the person answered or cancelled a set: in which view of
// this inbox, or in another inbox on the same queue.
type Via int

// The places a set is answered or cancelled.
const (
	ViaNone         Via = iota // not by the person: withdrawn, or closed
	ViaHere                    // this inbox's terminal screen or line prompts
	ViaPage                    // this inbox's web page
	ViaElsewhere               // another inbox on the same queue (NATS): Reason says "by NAME"
	ViaNotification            // a one-tap link of the set's notification, served with the page
	ViaChat                    // the person's chat app (Matrix, Telegram), which the inbox reads
)

var viaNames = [...]string{
	ViaNone: "", ViaHere: "here", ViaPage: "page", ViaElsewhere: "elsewhere",
	ViaNotification: "notification", ViaChat: "chat",
}

// String names v as the history and the notification command's
// ASKUSER_VIA write it: "here", "page", "notification", "chat",
// "elsewhere"; "" for ViaNone.
func (v Via) String() string { return viaNames[v] }

// End is how a set ended: the one record of it, which every view reads
// to tell the person, whichever view ended it.
type End struct {
	State State
	// Via is where the person answered or cancelled it.
	Via Via
	// At is when it ended, by the queue's clock.
	At time.Time
	// Answers are the answers, one per question, when State is Answered
	// in this inbox (here, on the page, from the notification).
	Answers []prompt.Answer
	// Reason says why a set was withdrawn or closed, for the person.
	Reason string
}

// ErrEnded is the error of an answer, cancel or skip of a set that has
// already ended: answered in another view, withdrawn, or closed.
var ErrEnded = errors.New("the set has already ended")

// NotSentError is an answer or cancel that ended its set here, but that
// its transport did not get to the asker's side (see Set.Sent): not at
// all, or not yet (Pending), and then it goes as soon as it can.
type NotSentError struct {
	Err     error
	Pending bool
}

func (e *NotSentError) Error() string { return "not sent: " + e.Err.Error() }

func (e *NotSentError) Unwrap() error { return e.Err }

// errClosed is the error of a set added to a queue that is closed.
var errClosed = errors.New("the inbox is closing")

// Queue is the inbox's queue of waiting sets, in the order they arrived,
// and the one source of truth that the HTTP handlers and every view of the
// inbox (the terminal screen, the web page) read and change. The first
// waiting set is the one shown. It is safe for concurrent use.
//
// A view learns of every change through Snapshot().Changed, a channel
// closed at the next change (an arrival, an end, a skip, the close); it
// then takes a new Snapshot. It answers, cancels or skips the set it shows
// with Answer, Cancel or Skip, which fail with ErrEnded when the set ended
// first (in another view, or because its asker went): the first to end a
// set wins.
type Queue struct {
	mu sync.Mutex
	// sets are the waiting sets, the shown one first. What a Snapshot
	// holds of them is never changed: a set is added past its end, and
	// one that leaves or moves makes a new slice. So a Snapshot shares
	// the slice rather than copying it, which at every change of a queue
	// of 10,000 sets, for each view, was most of what the inbox
	// allocated.
	sets    []*Set
	changed chan struct{}
	closed  bool
	lastID  uint64

	onArrive func(*Set)
	onEnd    []func(*Set) // see OnEnd
	now      func() time.Time
}

// QueueOptions configure a Queue.
type QueueOptions struct {
	// OnArrive, when set, is called with each set as it is queued, outside
	// the queue's lock: to ring the bell and run ASKUSER_NOTIFY_COMMAND.
	OnArrive func(*Set)
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// NewQueue returns an empty queue.
func NewQueue(o QueueOptions) *Queue {
	q := &Queue{changed: make(chan struct{}), onArrive: o.OnArrive, now: o.Now}
	if q.now == nil {
		q.now = time.Now
	}
	return q
}

// OnEnd has f called with each set that ends from now on, however it
// ended (see Set.End), once it has: outside the queue's lock, in the
// goroutine that ended it. It is for the views to record every outcome,
// whichever view gave it: a view that reads snapshots may miss a set that
// comes and goes between two.
func (q *Queue) OnEnd(f func(*Set)) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.onEnd = append(q.onEnd, f)
}

// Now is the time by the queue's clock, which sets arrive and end by, and
// by which the views say how long a set has waited.
func (q *Queue) Now() time.Time { return q.now() }

// Snapshot is the queue at one moment.
type Snapshot struct {
	// Sets are the waiting sets in order: Sets[0], when there is one, is
	// the one shown.
	Sets []*Set
	// Closed is set once the inbox is quitting.
	Closed bool
	// Changed is closed at the next change of the queue.
	Changed <-chan struct{}
}

// Snapshot returns the queue as it stands.
func (q *Queue) Snapshot() Snapshot {
	q.mu.Lock()
	defer q.mu.Unlock()
	// Capped, so that an append to it cannot write where the queue adds.
	return Snapshot{Sets: slices.Clip(q.sets), Closed: q.closed, Changed: q.changed}
}

// Len returns the number of waiting sets.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.sets)
}

// Add queues s and returns how many sets wait before it. The set's
// questions must have been validated (the server validates what arrives),
// and its ID and end are the queue's to set, as Arrived is when it is
// zero. It fails with errClosed once the queue is closed.
func (q *Queue) Add(s *Set) (ahead int, err error) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return 0, errClosed
	}
	q.lastID++
	s.ID = q.lastID
	if s.Arrived.IsZero() {
		s.Arrived = q.now()
	}
	s.done = make(chan struct{})
	ahead = len(q.sets)
	q.sets = append(q.sets, s)
	q.changedLocked()
	q.mu.Unlock()
	if q.onArrive != nil {
		q.onArrive(s)
	}
	return ahead, nil
}

// Answer ends s with the person's answers, given in the view via, after
// checking that they answer s (Question.Check): a view can never send what
// the person could not have given. It fails with ErrEnded when s has
// already ended, and with a *NotSentError when it ended s but its
// transport did not get the answers to its asker's side (see Set.Sent).
func (q *Queue) Answer(s *Set, via Via, answers []prompt.Answer) error {
	answers, err := checkAnswers(s.Questions, answers)
	if err != nil {
		return err
	}
	return q.end(s, End{State: Answered, Via: via, Answers: answers})
}

// Cancel ends s as cancelled by the person in the view via; its asker
// exits 130. It fails as Answer does.
func (q *Queue) Cancel(s *Set, via Via) error {
	return q.end(s, End{State: Cancelled, Via: via})
}

// awaitSent waits for the first word of the end of s, which the person
// gave in this inbox, from its transport, when it gives word (see
// Set.Sent), and keeps what did not go (NotSent).
func (s *Set) awaitSent() {
	if s.Sent != nil {
		s.notSent.Store(notSent(<-s.Sent))
	}
}

// notSent is a word of the transport (see Set.Sent) as a *NotSentError:
// nil for one that says it was sent.
func notSent(err error) *NotSentError {
	if err == nil {
		return nil
	}
	if ns, ok := errors.AsType[*NotSentError](err); ok {
		return ns
	}
	return &NotSentError{Err: err}
}

// EndElsewhere ends s as it ended in another inbox on the same queue (e:
// answered or cancelled there, with Reason "by NAME", or withdrawn), and
// reports whether s was still waiting.
func (q *Queue) EndElsewhere(s *Set, e End) bool {
	e.Via = ViaElsewhere
	return q.end(s, e) == nil
}

// ByWhom is " (by NAME)" for a set that another inbox on the same queue
// answered or cancelled, for the views to add to "answered elsewhere";
// else "".
func (e End) ByWhom() string {
	if (e.State == Answered || e.State == Cancelled) && strings.HasPrefix(e.Reason, "by ") {
		return " (" + e.Reason + ")"
	}
	return ""
}

// Withdraw ends s because its asker stopped waiting, and reports whether s
// was still waiting.
func (q *Queue) Withdraw(s *Set, reason string) bool {
	return q.end(s, End{State: Withdrawn, Reason: reason}) == nil
}

// Skip moves s, when it waits, behind every other waiting set, so that the
// next one is shown. It fails with ErrEnded when s has already ended.
func (q *Queue) Skip(s *Set) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	i := slices.Index(q.sets, s)
	if i < 0 {
		return ErrEnded
	}
	if len(q.sets) > 1 {
		q.sets = append(without(q.sets, i), s)
		q.changedLocked()
	}
	return nil
}

// Close ends every waiting set as closed, with reason, and refuses sets
// from then on: the inbox is quitting.
func (q *Queue) Close(reason string) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	q.closed = true
	ended := q.sets
	at := q.now()
	for _, s := range ended {
		s.end = End{State: Closed, At: at, Reason: reason}
		close(s.done)
	}
	q.sets = nil
	q.changedLocked()
	tell := q.onEnd
	q.mu.Unlock()
	for _, s := range ended {
		for _, f := range tell {
			f(s)
		}
	}
}

// end ends s with e, or fails with ErrEnded when it has ended. An end the
// person gave in this inbox is told (OnEnd) once its transport gave word
// of it, and when that word is that it was not sent, end fails with it
// (Set.NotSent).
func (q *Queue) end(s *Set, e End) error {
	q.mu.Lock()
	i := slices.Index(q.sets, s)
	if i < 0 {
		q.mu.Unlock()
		return ErrEnded
	}
	q.sets = without(q.sets, i)
	e.At = q.now()
	s.end = e
	close(s.done)
	q.changedLocked()
	tell := q.onEnd
	q.mu.Unlock()
	if e.Via != ViaNone && e.Via != ViaElsewhere {
		s.awaitSent()
	}
	for _, f := range tell {
		f(s)
	}
	if ns := s.NotSent(); ns != nil {
		return ns
	}
	return nil
}

// without returns a new slice of sets without sets[i], leaving sets as it
// is for the snapshots that share it.
func without(sets []*Set, i int) []*Set {
	return slices.Concat(sets[:i], sets[i+1:])
}

// changedLocked wakes every view waiting on the queue. q.mu is held.
func (q *Queue) changedLocked() {
	close(q.changed)
	q.changed = make(chan struct{})
}
