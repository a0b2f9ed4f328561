package serve

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/prompt"
)

// replies answers sets from the push service's reply topic
// (Options.ReplyURL): the buttons of a set's notification post the keys of
// its options there, the ones its links carry (view.Links.Keys), and the
// inbox reads the topic by connecting out, so that a phone that cannot
// reach the inbox answers in one tap. A key is good for its set and
// option only, while the set waits: its first use ends the set.
type replies struct {
	topic string
	q     *inbox.Queue
	links *view.Links
	out   io.Writer

	mu      sync.Mutex
	keys    map[string]tap // the keys of the sets that wait
	ignored atomic.Int64   // messages that are no key of a waiting set
}

// tap is what a key answers: option n (from 1) of set s.
type tap struct {
	s *inbox.Set
	n int
}

func newReplies(topic string, q *inbox.Queue, links *view.Links, out io.Writer) *replies {
	r := &replies{topic: topic, q: q, links: links, out: out, keys: map[string]tap{}}
	q.OnEnd(r.forget)
	return r
}

// actions are the buttons of s's notification: each posts its option's
// key to the reply topic. None when s is not one single choice among few
// options.
func (r *replies) actions(s *inbox.Set) []notify.Action {
	keys := r.links.Keys(s)
	if len(keys) == 0 {
		return nil
	}
	r.mu.Lock()
	if s.End().State == inbox.Waiting {
		for i, k := range keys {
			r.keys[k] = tap{s: s, n: i + 1}
		}
	}
	r.mu.Unlock()
	actions := make([]notify.Action, len(keys))
	for i, k := range keys {
		actions[i] = notify.Action{Label: s.Questions[0].Options[i].Label, URL: r.topic, Body: k}
	}
	return actions
}

// forget drops the keys of s, which has ended, made again as actions made
// them; the queue calls it (OnEnd).
func (r *replies) forget(s *inbox.Set) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range r.links.Keys(s) {
		delete(r.keys, k)
	}
}

// read answers the set whose key text is, with the key's option. Anything
// else on the topic (a key of a set that has ended, a message someone else
// posted) changes nothing: it is counted on the inbox's terminal, never
// quoted, as it comes from whoever knows the topic.
func (r *replies) read(text string) {
	r.mu.Lock()
	t, ok := r.keys[strings.TrimSpace(text)]
	r.mu.Unlock()
	if ok {
		label := t.s.Questions[0].Options[t.n-1].Label
		err := r.q.Answer(t.s, inbox.ViaNotification, []prompt.Answer{{Labels: []string{label}}})
		if !errors.Is(err, inbox.ErrEnded) {
			// Answered (or answered and not sent, which the views say).
			return
		}
	}
	n := r.ignored.Add(1)
	// Said for each of the first ten, then at each power of ten (a 1 and
	// zeros): someone who posts to the topic does not flood the terminal.
	if n <= 10 || strings.TrimRight(strconv.FormatInt(n, 10), "0") == "1" {
		say(r.out, "The reply topic carried a message that answers no waiting set (%d so far); it changed nothing, and is not shown.\n", n)
	}
}

// subscribe reads the reply topic until ctx ends.
func (r *replies) subscribe(ctx context.Context) {
	notify.Subscribe(ctx, &http.Client{}, r.topic, r.read, func(err error) {
		if err == nil {
			say(r.out, "The reply topic is read again.\n")
			return
		}
		say(r.out, "Warning: the reply topic (ASKUSER_NOTIFY_REPLY_URL) cannot be read: %s. The inbox tries again; taps on notifications wait until then.\n", prompt.Display(err.Error()))
	})
}
