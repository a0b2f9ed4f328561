package natsinbox

import "github.com/askuser/askuser/internal/inbox"

// wireSet is a set as its asker stores it, before it is sealed.
type wireSet struct {
	Request inbox.Request `json:"request"`
	// Reply is the asker's fresh age recipient: the end is sealed to it.
	Reply string `json:"reply"`
	// Secret names the set's subjects (setID, endID): the inbox checks it
	// against the subject the set came on.
	Secret string `json:"secret"`
}

// The ends a wireEnd carries, beside inbox.EventAnswered and
// inbox.EventCancelled.
const (
	endWithdrawn = "withdrawn" // the asker stopped waiting, or is gone
	endRefused   = "refused"   // the inbox refused the set
)

// wireEnd is how a set ended. An inbox's end is sealed to the asker and
// to the inbox (so that every inbox on the queue can say who answered);
// an asker's withdrawal, to the inbox alone (unsealed under
// insecure=plaintext). Its subject, which
// only who knows the set's secret can name, is what makes it the set's.
type wireEnd struct {
	End string `json:"end"`
	// Answer is the final event of the protocol, for EventAnswered.
	Answer *inbox.Event `json:"answer,omitempty"`
	// By names the inbox that answered or cancelled.
	By     string `json:"by,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Unheard is a withdrawal by an inbox that heard no beat of the
	// asker's for deadAfter: an asker that still waits asks again.
	Unheard bool `json:"unheard,omitempty"`
	// Refused is why the inbox refused the set, for endRefused.
	Refused *inbox.ErrorBody `json:"refused,omitempty"`
}
