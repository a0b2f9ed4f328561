package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/history"
)

// fakeNtfy is a local server that answers as ntfy's documentation says
// (docs.ntfy.sh/publish, docs.ntfy.sh/subscribe/api): a POST or PUT to
// /TOPIC publishes its body as a message, a GET of /TOPIC/json streams the
// topic's messages as JSON lines, from those after since= when it is
// given, else from then on. It records every other request, as recorder
// does, except those to the reply topic.
type fakeNtfy struct {
	*httptest.Server
	reply string // the reply topic's path
	got   chan sent

	mu          sync.Mutex
	msgs        map[string][]ntfyMsg // by topic
	changed     chan struct{}        // closed at the next message
	subscribers map[string]int       // the streams open, by topic
}

type ntfyMsg struct {
	ID      string `json:"id"`
	Time    int64  `json:"time"`
	Event   string `json:"event"`
	Topic   string `json:"topic"`
	Message string `json:"message,omitempty"`
}

func newFakeNtfy(t *testing.T, reply string) *fakeNtfy {
	t.Helper()
	f := &fakeNtfy{reply: reply, got: make(chan sent, 16), msgs: map[string][]ntfyMsg{}, changed: make(chan struct{}), subscribers: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{topic}/json", f.subscribe)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		topic := strings.TrimPrefix(r.URL.Path, "/")
		if (r.Method == http.MethodPost || r.Method == http.MethodPut) && !strings.Contains(topic, "/") {
			m := f.publish(topic, string(body))
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(m)
		}
		if r.URL.Path != f.reply {
			f.got <- sent{r.Method, r.URL.Path, r.Header, string(body)}
		}
	})
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

func (f *fakeNtfy) publish(topic, text string) ntfyMsg {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := ntfyMsg{ID: fmt.Sprintf("m%d", len(f.msgs[topic])+1), Time: time.Now().Unix(), Event: "message", Topic: topic, Message: text}
	f.msgs[topic] = append(f.msgs[topic], m)
	close(f.changed)
	f.changed = make(chan struct{})
	return m
}

func (f *fakeNtfy) subscribe(w http.ResponseWriter, r *http.Request) {
	topic := r.PathValue("topic")
	f.mu.Lock()
	next := len(f.msgs[topic])
	if since := r.URL.Query().Get("since"); since != "" {
		for i, m := range f.msgs[topic] {
			if m.ID == since {
				next = i + 1
			}
		}
	}
	f.subscribers[topic]++
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.subscribers[topic]--
		f.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
	enc := json.NewEncoder(w)
	_ = enc.Encode(ntfyMsg{ID: "open", Time: time.Now().Unix(), Event: "open", Topic: topic})
	w.(http.Flusher).Flush()
	for {
		f.mu.Lock()
		msgs, changed := f.msgs[topic][next:], f.changed
		next = len(f.msgs[topic])
		f.mu.Unlock()
		for _, m := range msgs {
			if enc.Encode(m) != nil {
				return
			}
		}
		w.(http.Flusher).Flush()
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		}
	}
}

// subscribed waits until a stream of topic is open.
func (f *fakeNtfy) subscribed(t *testing.T, topic string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		f.mu.Lock()
		n := f.subscribers[topic]
		f.mu.Unlock()
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing subscribed to %s", topic)
		}
	}
}

// pushedActions reads the buttons of a notification ntfy was sent.
func pushedActions(t *testing.T, push sent) []ntfyReplyAction {
	t.Helper()
	var actions []ntfyReplyAction
	if err := json.Unmarshal([]byte(push.header.Get("Actions")), &actions); err != nil {
		t.Fatalf("the Actions header %q: %v", push.header.Get("Actions"), err)
	}
	return actions
}

// ntfyReplyAction is an action button with the body it sends.
type ntfyReplyAction struct {
	Action, Label, URL, Method, Body string
	Clear                            bool
}

// tapReply does what ntfy's app does when the button labelled label is
// tapped: it sends the action's request, with its body.
func tapReply(t *testing.T, actions []ntfyReplyAction, label string) {
	t.Helper()
	for _, a := range actions {
		if a.Label == label {
			req, _ := http.NewRequest(a.Method, a.URL, strings.NewReader(a.Body))
			if code, _ := send(t, req); code != http.StatusOK {
				t.Fatalf("the tap of %q: %d", label, code)
			}
			return
		}
	}
	t.Fatalf("no button %q in %+v", label, actions)
}

// The ntfy recipe with a reply topic, as docs/away.md prints it: an inbox
// that nothing can reach (no --web, no --listen) is answered in one tap,
// the button posting the option's key to the reply topic, which the inbox
// reads by connecting out. A key is its own set's and option's only, and
// once: a key of a set that has ended, and any other message on the
// topic, change nothing, and are counted on the inbox's terminal, never
// shown.
func TestNtfyRecipeReplyTopic(t *testing.T) {
	f := newFakeNtfy(t, "/your-secret-reply-topic")
	vars := recipe(t, "ntfy-reply", "https://ntfy.sh/", f.URL+"/")
	if vars["ASKUSER_NOTIFY_REPLY_URL"] != f.URL+"/your-secret-reply-topic" {
		t.Fatalf("the recipe sets %q", vars)
	}
	vars["XDG_STATE_HOME"] = t.TempDir()
	r := startInbox(t, vars)
	f.subscribed(t, "your-secret-reply-topic")

	ended := r.ask(choiceRequest("deployer"))
	push := next(t, f.got, r)
	seq := push.header.Get("X-Sequence-ID")
	if push.method != http.MethodPost || push.path != "/your-secret-topic" || push.header.Get("Title") != "askuser: deployer" || push.body != "Which database?" {
		t.Fatalf("pushed %s %s %v %q", push.method, push.path, push.header, push.body)
	}
	first := pushedActions(t, push)
	if len(first) != 2 || first[0].Body == first[1].Body {
		t.Fatalf("the buttons %+v", first)
	}
	for _, a := range first {
		if a.Action != "http" || a.Method != http.MethodPost || !a.Clear || a.URL != vars["ASKUSER_NOTIFY_REPLY_URL"] || len(a.Body) != 43 {
			t.Errorf("the button %+v", a)
		}
	}

	// Someone else's message on the topic changes nothing, and is not
	// shown.
	f.publish("your-secret-reply-topic", "hello from a stranger")
	r.waitStderr(t, "The reply topic carried a message that answers no waiting set (1 so far); it changed nothing, and is not shown.\n")
	if strings.Contains(r.stderr.String(), "stranger") {
		t.Errorf("the inbox showed the message:\n%s", r.stderr)
	}

	tapReply(t, first, "SQLite")
	answered(t, ended, "SQLite")
	if del := next(t, f.got, r); del.method != http.MethodDelete || del.path != "/your-secret-topic/"+seq {
		t.Errorf("then sent %s %s, want the notification deleted", del.method, del.path)
	}
	r.waitStderr(t, "✔ deployer, from the notification · Database: SQLite\n")
	kept := waitHistory(t, filepath.Join(vars["XDG_STATE_HOME"], "askuser", history.FileName))
	if kept.How() != "answered from the notification" {
		t.Errorf("the history keeps %+v", kept)
	}

	// The keys of the set that has ended answer nothing, neither the other
	// option nor the same one again, and no other set: the next set waits
	// until its own key comes.
	ended = r.ask(choiceRequest("releaser"))
	second := pushedActions(t, next(t, f.got, r))
	tapReply(t, first, "PostgreSQL")
	tapReply(t, first, "SQLite")
	r.waitStderr(t, "(3 so far)")
	select {
	case e := <-ended:
		t.Fatalf("a key of the first set ended the second: %+v", e)
	default:
	}
	tapReply(t, second, "PostgreSQL")
	answered(t, ended, "PostgreSQL")
}
