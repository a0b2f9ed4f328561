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

// Action is one option of the set, answered in one tap: its label, and the
// single-use link that answers it when it is sent a POST; or, with a reply
// topic, the topic's address, and the single-use key posted to it, which
// the inbox reads there (see Subscribe).
type Action struct {
	Label, URL, Body string
}

// Notice is what a notification command is told of one set, each field
// in a variable of its own (see Command.Start). A field left empty is not
// given.
type Notice struct {
	Event Event
	// Set names the set for the push service, the same in each of its
	// notices, so that a later one can replace or take back the first
	// (ntfy's sequence ID): random, so that it tells the service nothing.
	Set string
	// From says who asks (the inbox's --from, or the asker's directory).
	From string
	// Header and Question are the first question's header and text.
	Header, Question string
	// URL is the address of the set's page, with its token.
	URL string
	// Actions answer the set in one tap, one per option, when it is one
	// single choice.
	Actions []Action
	// Outcome and Via say how an Ended set ended (answered, cancelled,
	// withdrawn, closed) and where the person gave it (here, page,
	// notification, elsewhere).
	Outcome, Via string
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

// payload is the notice as one JSON object (ASKUSER_JSON), for a webhook.
type payload struct {
	Event    string   `json:"event"`
	Set      string   `json:"set,omitempty"`
	From     string   `json:"from,omitempty"`
	Header   string   `json:"header,omitempty"`
	Question string   `json:"question,omitempty"`
	URL      string   `json:"url,omitempty"`
	Actions  []action `json:"actions,omitempty"`
	Outcome  string   `json:"outcome,omitempty"`
	Via      string   `json:"via,omitempty"`
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
	p := payload{
		Event: n.Event.String(), Set: n.Set, From: prompt.Display(n.From),
		Header: prompt.Display(n.Header), Question: prompt.Display(n.Question), URL: n.URL,
		Outcome: n.Outcome, Via: n.Via,
	}
	for _, a := range n.Actions {
		p.Actions = append(p.Actions, action{Action: "http", Label: prompt.Display(a.Label), URL: a.URL, Method: "POST", Body: a.Body, Clear: true})
	}
	vars := []string{varEvent + "=" + p.Event}
	for _, v := range [...]struct{ name, value string }{
		{varSet, p.Set}, {varFrom, p.From}, {varHeader, p.Header}, {varQuestion, p.Question},
		{varURL, p.URL}, {varOutcome, p.Outcome}, {varVia, p.Via},
	} {
		if v.value != "" {
			vars = append(vars, v.name+"="+v.value)
		}
	}
	if n.Event != Ended {
		// An empty list rather than none, so that a recipe can put it
		// into a header or a body as it is.
		vars = append(vars, varActions+"="+jsonout.String(append([]action{}, p.Actions...)))
	}
	return append(vars, varJSON+"="+jsonout.String(p))
}

// environ is env without the variables of ours, which the command is
// given only as the notice says.
func environ(env []string) []string {
	return slices.DeleteFunc(env, func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(ours, name)
	})
}
