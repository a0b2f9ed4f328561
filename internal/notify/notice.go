package notify

import (
	"slices"
	"strings"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema/jsonout"
)

// Event is what a notification tells of a set of questions.
type Event int

// The events a notification command is run for.
const (
	Asked    Event = iota // the questions appeared
	Reminded              // they still wait, after the time the person set
	Ended                 // they no longer wait: answered, cancelled, withdrawn, or the inbox quit
)

var eventNames = [...]string{Asked: "asked", Reminded: "reminded", Ended: "ended"}

func (e Event) String() string { return eventNames[e] }

// MarshalText writes e by its name, as ASKUSER_JSON gives it.
func (e Event) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// Action is one option of the set, answered in one tap: its label, and the
// single-use link that answers it when it is sent a POST; or, with a reply
// topic, the topic's address, and the single-use key posted to it, which
// the inbox reads there (see Subscribe).
type Action struct {
	Label, URL, Body string
}

// MarshalJSON writes a as ntfy takes an action button (see action).
func (a Action) MarshalJSON() ([]byte, error) {
	return []byte(jsonout.String(action{Action: "http", Label: a.Label, URL: a.URL, Method: "POST", Body: a.Body, Clear: true})), nil
}

// Notice is what a notification command is told of one set, each field
// in a variable of its own (see Command.Start), and all in one JSON object
// (ASKUSER_JSON), for a webhook. A field left empty is not given.
type Notice struct {
	Event Event `json:"event"`
	// Set names the set for the push service, the same in each of its
	// notices, so that a later one can replace or take back the first
	// (ntfy's sequence ID): random, so that it tells the service nothing.
	Set string `json:"set,omitempty"`
	// From says who asks (the inbox's --from, or the asker's directory).
	From string `json:"from,omitempty"`
	// Header and Question are the first question's header and text.
	Header   string `json:"header,omitempty"`
	Question string `json:"question,omitempty"`
	// URL is the address of the set's page, with its token.
	URL string `json:"url,omitempty"`
	// Actions answer the set in one tap, one per option, when it is one
	// single choice.
	Actions []Action `json:"actions,omitempty"`
	// Outcome and Via say how an Ended set ended (answered, cancelled,
	// withdrawn, closed) and where the person gave it (here, page,
	// notification, elsewhere).
	Outcome string `json:"outcome,omitempty"`
	Via     string `json:"via,omitempty"`
}

// The variables that a notification command is given. ASKUSER_FROM is not
// among them: it is also a setting of askuser's, which a command run for
// askuser itself sees as the person set it.
const (
	varEvent    = "ASKUSER_EVENT"
	varSet      = "ASKUSER_SET"
	varFrom     = "ASKUSER_FROM"
	varHeader   = "ASKUSER_HEADER"
	varQuestion = "ASKUSER_QUESTION"
	varURL      = "ASKUSER_URL"
	varActions  = "ASKUSER_ACTIONS"
	varJSON     = "ASKUSER_JSON"
	varOutcome  = "ASKUSER_OUTCOME"
	varVia      = "ASKUSER_VIA"
)

// ours are the variables the command is given only as askuser says: a
// value of the same name in askuser's own environment is not passed on,
// so that a private notice never carries text that askuser did not put
// there.
var ours = []string{varEvent, varSet, varHeader, varQuestion, varURL, varActions, varJSON, varOutcome, varVia}

// action is an Action as ntfy takes an action button, in its JSON form
// (which its Actions header takes too): an HTTP request sent from the
// phone, a POST, so that nothing that only opens or previews a link
// answers; the notification is cleared once it succeeds.
type action struct {
	Action string `json:"action"`
	Label  string `json:"label"`
	URL    string `json:"url"`
	Method string `json:"method"`
	Body   string `json:"body,omitempty"`
	Clear  bool   `json:"clear"`
}

// vars are the variables that tell n, each as prompt.Display shows it:
// the text comes from the asker, and a command that echoes it (into tmux,
// a notification) must not obey its escape sequences or bidirectional
// controls, and a NUL in it would keep the command from starting at all.
// A private notice says who asks and where the set's page is, never the
// questions' text: not their header and question, nor their options'
// labels, so there is no action.
func (n Notice) vars(private bool) []string {
	if private {
		n.Header, n.Question, n.Actions = "", "", nil
	}
	n.From, n.Header, n.Question = prompt.Display(n.From), prompt.Display(n.Header), prompt.Display(n.Question)
	// A copy, with the labels as they are shown; an empty list rather than
	// none, so that a recipe can put ASKUSER_ACTIONS into a header or a
	// body as it is.
	n.Actions = append([]Action{}, n.Actions...)
	for i := range n.Actions {
		n.Actions[i].Label = prompt.Display(n.Actions[i].Label)
	}
	vars := []string{varEvent + "=" + n.Event.String()}
	for _, v := range [...]struct{ name, value string }{
		{varSet, n.Set}, {varFrom, n.From}, {varHeader, n.Header}, {varQuestion, n.Question},
		{varURL, n.URL}, {varOutcome, n.Outcome}, {varVia, n.Via},
	} {
		if v.value != "" {
			vars = append(vars, v.name+"="+v.value)
		}
	}
	if n.Event != Ended {
		vars = append(vars, varActions+"="+jsonout.String(n.Actions))
	}
	return append(vars, varJSON+"="+jsonout.String(n))
}

// environ is env without the variables of ours, which the command is
// given only as the notice says.
func environ(env []string) []string {
	return slices.DeleteFunc(env, func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(ours, name)
	})
}
