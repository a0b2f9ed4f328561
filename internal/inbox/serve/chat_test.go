package serve

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/chat"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/testutil/chattest"
	"github.com/askuser/askuser/schema"
)

// chatToken is the bot's token on the test's Bot API server; chatPerson
// is the person, in their own chat with the bot.
const (
	chatToken  = "123456:SECRET-bot-token"
	chatPerson = 1001
)

// startChatted starts an inbox's queue with its notifier, as Run does,
// and its chat on a Bot API server of the test's, with o.
func startChatted(t *testing.T, o Options) (*inbox.Queue, *chattest.BotAPI) {
	t.Helper()
	api := chattest.NewBotAPI(t, chatToken)
	o.IO, o.Headless = &iostreams.Streams{}, true
	o.Chat = &chat.Settings{Service: "telegram", Telegram: chat.TelegramOptions{Token: chatToken, Chat: chatPerson, Server: api.URL}}
	out := &lockedWriter{w: &strings.Builder{}}
	var after sync.WaitGroup
	links := view.NewLinks()
	n := newNotifier(o, out, nil, links, &after)
	q, _ := newQueue(o, out, "", nil, n)
	run, err := openChat(o, q, n, links, "", out)
	if err != nil {
		t.Fatal(err)
	}
	stop := run(context.Background())
	t.Cleanup(func() {
		stop()
		q.Close("the test is over")
		settle(&after, afterGrace)
	})
	return q, api
}

// addChatted queues a set of one question from from.
func addChatted(t *testing.T, q *inbox.Queue, from string) *inbox.Set {
	t.Helper()
	s := &inbox.Set{From: from, Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", true)}}
	if _, err := q.Add(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// postedFrom waits for the sets posted to the chat to number n, and
// returns whom each came from, in the order they were posted.
func postedFrom(t *testing.T, api *chattest.BotAPI, n int) []string {
	t.Helper()
	var from []string
	for deadline := time.Now().Add(chattest.Within); ; time.Sleep(5 * time.Millisecond) {
		from = from[:0]
		for id := 1; id <= api.Messages(); id++ {
			if rest, ok := strings.CutPrefix(api.Message(id).Text, "Questions from "); ok {
				who, _, _ := strings.Cut(rest, "\n")
				from = append(from, who)
			}
		}
		if len(from) >= n {
			return from
		}
		if time.Now().After(deadline) {
			t.Fatalf("the chat got %d sets, not %d, within %v", len(from), n, chattest.Within)
		}
	}
}

// settled returns once the chat has gone over the queue as it stands: it
// takes what the person writes between two goings over, and answers it,
// so that after two answers one going over came after the call.
func settled(t *testing.T, api *chattest.BotAPI) {
	t.Helper()
	for range 2 {
		n := len(api.Replies())
		api.Write(chatPerson, chatPerson, 0, "hello?")
		for deadline := time.Now().Add(chattest.Within); len(api.Replies()) == n; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the chat did not answer within %v", chattest.Within)
			}
		}
	}
}

// A set waits for the desk first: the chat does not get it before it has
// waited --notify-after unanswered.
func TestChatWaitsForNotifyAfter(t *testing.T) {
	q, api := startChatted(t, Options{NotifyAfter: time.Hour})
	addChatted(t, q, "desk")
	settled(t, api)
	if got := postedFrom(t, api, 0); len(got) != 0 {
		t.Errorf("the chat got sets from %q before they waited an hour", got)
	}
}

// The chat gets a set once it has waited --notify-after unanswered: one
// answered at the desk before then never reaches it, and one that still
// waits does.
func TestChatAfterNotifyAfter(t *testing.T) {
	q, api := startChatted(t, Options{NotifyAfter: 200 * time.Millisecond})
	desk := addChatted(t, q, "desk")
	if err := q.Answer(desk, inbox.ViaHere, []schema.Answer{{Labels: []string{schema.Yes}}}); err != nil {
		t.Fatal(err)
	}
	addChatted(t, q, "away")
	if got := postedFrom(t, api, 1); len(got) != 1 || got[0] != "away" {
		t.Errorf("the chat got sets from %q, want only the one still waiting, from away", got)
	}
	settled(t, api)
	if got := postedFrom(t, api, 1); len(got) != 1 {
		t.Errorf("the chat got sets from %q, want only the one from away", got)
	}
}

// With no --notify-after, the chat gets each set at once.
func TestChatAtOnce(t *testing.T) {
	q, api := startChatted(t, Options{})
	addChatted(t, q, "first")
	addChatted(t, q, "second")
	// Each is told of apart, as it arrives: in either order.
	if got := postedFrom(t, api, 2); !slices.Contains(got, "first") || !slices.Contains(got, "second") {
		t.Errorf("the chat got sets from %q, want first and second", got)
	}
}
