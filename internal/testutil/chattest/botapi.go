// Package chattest gives the tests of the inbox's chat the services it
// talks to, on this machine: a Telegram Bot API server of its own, and a
// Matrix homeserver (Dendrite, -tags heavy).
package chattest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Within is how long a test waits for what must happen: no busy machine
// takes it; how fast it happens is for benchmarks.
const Within = 30 * time.Second

// BotAPI is a Telegram Bot API server on this machine, answering as the
// Bot API's documentation says (https://core.telegram.org/bots/api) for
// the methods a bot of the inbox calls: getMe, getUpdates (long
// polling, with offset and timeout), sendMessage and editMessageText
// (with an inline keyboard as reply_markup), and answerCallbackQuery. Its
// people tap buttons and write messages through tap and write.
type BotAPI struct {
	t     *testing.T
	URL   string
	srv   *httptest.Server
	token string
	cq    atomic.Int64
	fails atomic.Int64 // how many sendMessage calls still to fail

	mu       sync.Mutex
	updates  []map[string]any
	nextID   int64
	wake     chan struct{} // closed at the next update
	msgs     map[int]*Message
	lastMsg  int
	answered map[string]string // callback query ID → the line it was answered with
	replies  []string          // the texts of messages sent that replied to another
	requests []string          // every request's path and form, to look for the token
}

// Message is a message the bot sent, as it stands.
type Message struct {
	Chat     int64
	Text     string
	Keyboard [][]Button
	Edits    int
}

// Button is a button of an inline keyboard.
type Button struct {
	Text         string `json:"text"`
	CallbackData string `json:"callback_data"`
}

// NewBotAPI starts a Bot API server for the bot with token, until t ends.
func NewBotAPI(t *testing.T, token string) *BotAPI {
	b := &BotAPI{t: t, token: token, wake: make(chan struct{}), msgs: map[int]*Message{}, answered: map[string]string{}, nextID: 1}
	b.srv = httptest.NewServer(http.HandlerFunc(b.serve))
	b.URL = b.srv.URL
	t.Cleanup(b.srv.Close)
	return b
}

func (b *BotAPI) reply(w http.ResponseWriter, result any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result})
}

func (b *BotAPI) fail(w http.ResponseWriter, code int, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": false, "error_code": code, "description": desc})
}

func (b *BotAPI) serve(w http.ResponseWriter, r *http.Request) {
	token, method, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/bot"), "/")
	if err := r.ParseMultipartForm(1 << 20); err != nil && !strings.Contains(err.Error(), "not multipart") {
		_ = r.ParseForm()
	}
	// The form's parts may end before the body does (the last chunk of a
	// chunked body): read it to its end, so that the server sees the bot
	// go, and a long poll that it gave up on ends with it.
	_, _ = io.Copy(io.Discard, r.Body)
	b.mu.Lock()
	b.requests = append(b.requests, r.URL.Path+" "+fmt.Sprint(r.Form))
	b.mu.Unlock()
	if !ok || token != b.token {
		b.fail(w, http.StatusUnauthorized, "Unauthorized")
		return
	}
	form := func(k string) string { return r.FormValue(k) }
	switch method {
	case "getMe":
		b.reply(w, map[string]any{"id": 7, "is_bot": true, "first_name": "askuser", "username": "askuser_bot"})
	case "getUpdates":
		offset, _ := strconv.ParseInt(form("offset"), 10, 64)
		timeout, _ := strconv.Atoi(form("timeout"))
		deadline := time.After(time.Duration(timeout) * time.Second)
		for {
			b.mu.Lock()
			var out []map[string]any
			for _, u := range b.updates {
				if u["update_id"].(int64) >= offset {
					out = append(out, u)
				}
			}
			wake := b.wake
			b.mu.Unlock()
			if len(out) > 0 || timeout == 0 {
				b.reply(w, append([]map[string]any{}, out...))
				return
			}
			select {
			case <-wake:
			case <-deadline:
				b.reply(w, []any{})
				return
			case <-r.Context().Done():
				return
			}
		}
	case "sendMessage":
		if b.fails.Add(-1) >= 0 {
			b.fail(w, http.StatusInternalServerError, "Internal Server Error")
			return
		}
		chat, err := strconv.ParseInt(form("chat_id"), 10, 64)
		if err != nil || form("text") == "" {
			b.fail(w, http.StatusBadRequest, "Bad Request: message text is empty")
			return
		}
		m := &Message{Chat: chat, Text: form("text"), Keyboard: parseKeyboard(b.t, form("reply_markup"))}
		b.mu.Lock()
		b.lastMsg++
		id := b.lastMsg
		b.msgs[id] = m
		if form("reply_parameters") != "" {
			b.replies = append(b.replies, m.Text)
		}
		b.mu.Unlock()
		b.reply(w, b.messageJSON(id, m))
	case "editMessageText":
		id, _ := strconv.Atoi(form("message_id"))
		b.mu.Lock()
		m := b.msgs[id]
		if m == nil {
			b.mu.Unlock()
			b.fail(w, http.StatusBadRequest, "Bad Request: message to edit not found")
			return
		}
		kb := parseKeyboard(b.t, form("reply_markup"))
		if m.Text == form("text") && fmt.Sprint(m.Keyboard) == fmt.Sprint(kb) {
			b.mu.Unlock()
			b.fail(w, http.StatusBadRequest, "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message")
			return
		}
		m.Text, m.Keyboard = form("text"), kb
		m.Edits++
		b.mu.Unlock()
		b.reply(w, b.messageJSON(id, m))
	case "answerCallbackQuery":
		b.mu.Lock()
		b.answered[form("callback_query_id")] = form("text")
		b.mu.Unlock()
		b.reply(w, true)
	default:
		b.fail(w, http.StatusNotFound, "Not Found: method not found")
	}
}

func parseKeyboard(t *testing.T, markup string) [][]Button {
	if markup == "" {
		return nil
	}
	var k struct {
		InlineKeyboard [][]Button `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(markup), &k); err != nil {
		t.Errorf("reply_markup %q: %v", markup, err)
	}
	if len(k.InlineKeyboard) == 0 {
		return nil
	}
	return k.InlineKeyboard
}

func (b *BotAPI) messageJSON(id int, m *Message) map[string]any {
	return map[string]any{"message_id": id, "date": time.Now().Unix(), "chat": map[string]any{"id": m.Chat, "type": "private"}, "text": m.Text}
}

// push adds an update, and wakes the long polls.
func (b *BotAPI) push(u map[string]any) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	u["update_id"] = b.nextID
	id := strconv.FormatInt(b.nextID, 10)
	b.nextID++
	b.updates = append(b.updates, u)
	close(b.wake)
	b.wake = make(chan struct{})
	return id
}

func user(id int64) map[string]any {
	return map[string]any{"id": id, "is_bot": false, "first_name": "P" + strconv.FormatInt(id, 10)}
}

// TapData has user, in chat, tap a button of message msg whose data is
// data, and returns the callback query's ID.
func (b *BotAPI) TapData(userID, chat int64, msg int, data string) string {
	b.mu.Lock()
	text := ""
	if m := b.msgs[msg]; m != nil {
		text = m.Text
	}
	b.mu.Unlock()
	id := fmt.Sprintf("cq%d", b.cq.Add(1))
	q := map[string]any{"id": id, "from": user(userID), "chat_instance": "1", "data": data,
		"message": map[string]any{"message_id": msg, "date": 1, "chat": map[string]any{"id": chat, "type": "private"}, "text": text}}
	b.push(map[string]any{"callback_query": q})
	return id
}

// Tap has user tap the button of message msg whose label has label in it,
// and returns the callback query's ID.
func (b *BotAPI) Tap(userID, chat int64, msg int, label string) string {
	b.t.Helper()
	data := ""
	for _, row := range b.Message(msg).Keyboard {
		for _, bt := range row {
			if strings.Contains(bt.Text, label) {
				data = bt.CallbackData
			}
		}
	}
	if data == "" {
		b.t.Fatalf("no button %q on message %d: %+v", label, msg, b.Message(msg).Keyboard)
	}
	return b.TapData(userID, chat, msg, data)
}

// Write has user write text in chat, in reply to message replyTo (0 for
// none).
func (b *BotAPI) Write(userID, chat int64, replyTo int, text string) {
	m := map[string]any{"message_id": 10000 + int(b.nextID), "date": 1, "from": user(userID), "chat": map[string]any{"id": chat, "type": "private"}, "text": text}
	if replyTo > 0 {
		m["reply_to_message"] = map[string]any{"message_id": replyTo, "date": 1, "chat": map[string]any{"id": chat, "type": "private"}}
	}
	b.push(map[string]any{"message": m})
}

// Message is a copy of message id as it stands.
func (b *BotAPI) Message(id int) Message {
	b.mu.Lock()
	defer b.mu.Unlock()
	if m := b.msgs[id]; m != nil {
		return *m
	}
	return Message{}
}

// Answer is the line a callback query was answered with, and whether it
// was.
func (b *BotAPI) Answer(id string) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	line, ok := b.answered[id]
	return line, ok
}

// Replies are the texts of the messages the bot sent in reply to one.
func (b *BotAPI) Replies() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.replies...)
}

// FailSends has the next n sendMessage calls fail, as a server that is
// down for a while.
func (b *BotAPI) FailSends(n int64) { b.fails.Store(n) }

// Messages is how many messages the bot sent.
func (b *BotAPI) Messages() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lastMsg
}

// Labels are the labels of m's buttons, in order.
func (m Message) Labels() []string {
	var out []string
	for _, row := range m.Keyboard {
		for _, b := range row {
			out = append(out, b.Text)
		}
	}
	return out
}
