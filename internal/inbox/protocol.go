package inbox

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// The protocol is HTTP/1.1 with JSON bodies, the same over the Unix socket
// and over TCP (where every request carries the token, as
// "Authorization: Bearer TOKEN" or ?token=TOKEN):
//
//	GET  /v1/status  → 200 Status
//	POST /v1/ask     Request → 200, a stream of Events (one JSON object a
//	                 line, flushed as each is written) that stays open until
//	                 the set ends: "queued" at once, "wait" every
//	                 heartbeatMin (every maxHeartbeat at most while many
//	                 wait), and exactly one final event: "answered",
//	                 "cancelled" or "closed". The stream ends with the
//	                 connection (no Content-Length, no chunks).
//
// An asker withdraws its set by closing its connection: nothing else is
// needed, so that an asker that is killed withdraws too. An asker that
// knows why it withdraws may first send one line on the connection, a
// Withdrawal, whose code the inbox turns into its own words (see
// WithdrawReason). A request that is refused gets a status other than 200
// and an ErrorBody.
const (
	PathStatus = "/v1/status"
	pathAsk    = "/v1/ask"
	// Version is the protocol's version, in Status and in the paths.
	Version = 1
	// Name is Status.Inbox: what tells an inbox from another server.
	Name = "askuser"
)

// heartbeatMin is how often the inbox writes a "wait" event to each
// waiting asker, so that each side learns that the other is gone even
// where the end of a connection is not seen (TCP across machines). While
// more than beatsPerSecond askers wait, each is beaten less often, so that
// together they cost the inbox and the askers beatsPerSecond wakeups a
// second, and still at least every maxHeartbeat: 10,000 askers beaten
// every second cost the inbox alone a tenth of a core, and slowed its
// screen's redraw.
const (
	heartbeatMin = time.Second
	maxHeartbeat = 5 * heartbeatMin
)

// beatsPerSecond is how many heartbeats the inbox writes a second at most,
// while no asker waits longer than maxHeartbeat between two.
const beatsPerSecond = 1000

// heartbeat is how long each asker waits between two heartbeats while n
// wait.
func heartbeat(n int) time.Duration {
	return min(max(heartbeatMin, time.Duration(n)*time.Second/beatsPerSecond), maxHeartbeat)
}

// Status is the reply to GET /v1/status.
type Status struct {
	Inbox   string `json:"inbox"`
	Version int    `json:"version"`
	Waiting int    `json:"waiting"`
	// Page is the address of the inbox's web page, with its token, told
	// only on the Unix socket, whose peer is checked to be the inbox's own
	// user: the person gets it again (askuser doctor) after the line the
	// inbox printed at its start has scrolled away.
	Page string `json:"page,omitempty"`
}

// Request is the body of POST /v1/ask: one set of questions, and where it
// comes from.
type Request struct {
	// From is the name the asker gave (--from, ASKUSER_FROM), or "".
	From string `json:"from,omitempty"`
	// Cwd is the asker's working directory, shown when From is "".
	Cwd string `json:"cwd,omitempty"`

	// Questions are the questions, as the input format writes them, or
	// the one question of askuser confirm or input (a kind asked alone,
	// with its default); the inbox validates them again, with Limits. The
	// answers go back in question order, so the inbox needs no --key: it
	// takes the questions that an asker keying its answers either way
	// could send.
	Questions json.RawMessage `json:"questions,omitempty"`
	// Limits are the asker's limits (ASK_MAX_OPTIONS and the like), so
	// that the inbox accepts what the asker accepted; nil for the
	// schema's own. The inbox compiles its own schema with them, with the
	// checks the variables get: they change counts and lengths, never the
	// rules of the text, so that no asker can have the inbox draw what
	// the command line would refuse.
	Limits *schema.Limits `json:"limits,omitempty"`
}

// The events of the stream that answers POST /v1/ask.
const (
	eventQueued    = "queued"    // the set is in the queue; Ahead sets are before it
	eventWait      = "wait"      // the heartbeat
	EventAnswered  = "answered"  // final: Answers
	EventCancelled = "cancelled" // final: the person cancelled the set
	EventClosed    = "closed"    // final: the inbox is quitting; Reason says why
)

// Event is one line of the stream that answers POST /v1/ask.
type Event struct {
	Event string `json:"event"`
	Ahead int    `json:"ahead,omitempty"`
	// Answers answer the set, one per question, in order, unchecked: the
	// asker checks them (Question.Check).
	Answers []prompt.Answer `json:"answers,omitempty"`
	Reason  string          `json:"reason,omitempty"`
}

// ErrorBody is the body of a refused request.
type ErrorBody struct {
	Error string `json:"error"`
	// Problems lists what is wrong with the questions, as askuser
	// validate writes them, when they are what was refused.
	Problems []string `json:"problems,omitempty"`
	// Err is the error that Error words, when there is one, for
	// Server.Check's callers to tell apart (ErrTooManyLimits); it does not
	// cross the wire.
	Err error `json:"-"`
}

// Withdrawal is the one line that an asker may send on its connection
// before it closes it, to say why it withdraws its set: a code, never
// words, so that no asker puts text of its choosing on the person's
// screen.
type Withdrawal struct {
	Withdraw string `json:"withdraw"`
}

// The codes of a Withdrawal that the inbox knows.
const (
	// WithdrawForm: the questions were answered in the MCP client's form,
	// which asked them beside the inbox.
	WithdrawForm = "form"
)

// maxWithdrawalBytes is the most of a Withdrawal line that the inbox reads;
// a longer line is not one.
const maxWithdrawalBytes = 200

// reasonStopped is why a set is withdrawn whose asker closed its
// connection without a known code.
const reasonStopped = "the asker stopped waiting"

// withdrawReasons are the inbox's words for each code it knows.
var withdrawReasons = map[string]string{
	WithdrawForm: "answered in the MCP client's form",
}

// WithdrawReason returns the inbox's words for the withdrawal of a set
// whose asker gave code: "the asker stopped waiting" for "" and for every
// code the inbox does not know.
func WithdrawReason(code string) string {
	return cmp.Or(withdrawReasons[code], reasonStopped)
}

// Withdrawer is a cause of the end of an asker's context (context.Cause)
// that says why its set is withdrawn, as a code of a Withdrawal: "" for
// none that the inbox knows.
type Withdrawer interface {
	error
	WithdrawCode() string
}

// WithdrawCode returns the code of the cause of ctx's end (a Withdrawer),
// "" when it has not ended, or ended without one.
func WithdrawCode(ctx context.Context) string {
	// Cause is nil while ctx has not ended.
	if w, ok := errors.AsType[Withdrawer](context.Cause(ctx)); ok {
		return w.WithdrawCode()
	}
	return ""
}
