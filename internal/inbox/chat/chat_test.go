package chat

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/internal/testutil/chattest"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// The person, in their own chat with the bot, whose ID is theirs; and
// someone else, who found the bot.
const (
	person   = 1001
	stranger = 2002
	token    = "123456:SECRET-bot-token"
)

// within is how long a test waits for what must happen: no busy machine
// takes it; how fast it happens is the benchmark's.
const within = 30 * time.Second

// rig is an inbox's queue with its log view and its chat view on a Bot
// API server of the test's.
type rig struct {
	q   *inbox.Queue
	c   *Chat
	api *chattest.BotAPI
	log *testutil.Buffer
}

func startTelegram(t *testing.T, private bool) *rig {
	t.Helper()
	return startTelegramWith(t, Options{Private: private}, false)
}

// startTelegramWith starts the rig with the chat's options o, which it
// completes. Each set that arrives is given to Away at once, as the inbox
// gives it once the person is away, unless held.
func startTelegramWith(t *testing.T, o Options, held bool) *rig {
	t.Helper()
	api := chattest.NewBotAPI(t, token)
	r := &rig{api: api, log: &testutil.Buffer{}}
	r.q = inbox.NewQueue(inbox.QueueOptions{OnArrive: func(s *inbox.Set) {
		if !held {
			r.c.Away(s)
		}
	}})
	tg, err := NewTelegram(TelegramOptions{Token: token, Chat: person, Server: api.URL}, func(err error) { r.log.Write([]byte(err.Error() + "\n")) })
	if err != nil {
		t.Fatal(err)
	}
	view.NewLog(r.q, r.log, "")
	o.Queue, o.Service, o.Room, o.People, o.Links, o.Log = r.q, tg, tg.Room(), []string{"1001"}, view.NewLinks(), r.log
	r.c = New(o)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.c.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		r.q.Close("the test is over")
		if strings.Contains(r.log.String(), token) || slices.ContainsFunc(api.Replies(), func(s string) bool { return strings.Contains(s, token) }) {
			t.Errorf("the token was logged or sent:\n%s", r.log.String())
		}
	})
	return r
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", within, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// add queues a set of qs, and waits for its message (the n-th the bot
// sent), which it returns.
func (r *rig) add(t *testing.T, qs ...schema.Question) (*inbox.Set, int) {
	t.Helper()
	s := &inbox.Set{From: "api", Questions: qs}
	if _, err := r.q.Add(s); err != nil {
		t.Fatal(err)
	}
	n := r.api.Messages() + 1
	waitFor(t, "the set is posted", func() bool { return r.api.Messages() >= n })
	return s, n
}

// ended waits for s to end, and returns how.
func ended(t *testing.T, s *inbox.Set) inbox.End {
	t.Helper()
	select {
	case <-s.Done():
	case <-time.After(within):
		t.Fatalf("the set did not end within %v", within)
	}
	return s.End()
}

// answered waits for the callback query id to be answered, and returns
// the line.
func (r *rig) answered(t *testing.T, id string) string {
	t.Helper()
	var line string
	waitFor(t, "the tap is answered", func() (ok bool) { line, ok = r.api.Answer(id); return ok })
	return line
}

// edited waits for message id to be edited n times, and returns it.
func (r *rig) edited(t *testing.T, id, n int) chattest.Message {
	t.Helper()
	waitFor(t, "the message is edited", func() bool { return r.api.Message(id).Edits >= n })
	return r.api.Message(id)
}

var db = schema.Question{Header: "Database", Question: "Which database?", Options: []schema.Option{
	{Label: "Postgres", Description: "A server."}, {Label: "SQLite", Description: "A file.", Preview: "import sqlite3\ndb = sqlite3.connect(\"app.db\")"},
}}

var features = schema.Question{Header: "Features", Question: "Which features?", MultiSelect: true, Options: []schema.Option{
	{Label: "Auth", Description: "Log in."}, {Label: "Search", Description: "Find."}, {Label: "Export", Description: "CSV."},
}}

func TestSingleChoiceIsAButtonPerOption(t *testing.T) {
	r := startTelegram(t, false)
	s, msg := r.add(t, db)
	m := r.api.Message(msg)
	if got, want := m.Labels(), []string{"1. Postgres", "2. SQLite", "Cancel"}; !slices.Equal(got, want) {
		t.Errorf("buttons %q, want %q", got, want)
	}
	for _, part := range []string{"Questions from api", "[Database] Which database?", "1. Postgres — A server.", "Preview:\n   import sqlite3\n   db = sqlite3.connect(\"app.db\")"} {
		if !strings.Contains(m.Text, part) {
			t.Errorf("the message has no %q:\n%s", part, m.Text)
		}
	}
	id := r.api.Tap(person, person, msg, "SQLite")
	e := ended(t, s)
	if e.State != inbox.Answered || e.Via != inbox.ViaChat || !slices.Equal(e.Answers[0].Labels, []string{"SQLite"}) {
		t.Errorf("end %+v, want SQLite answered in the chat", e)
	}
	if line := r.answered(t, id); line != "Answered." {
		t.Errorf("the tap was answered %q", line)
	}
	got := r.edited(t, msg, 1)
	if len(got.Keyboard) != 0 || !strings.Contains(got.Text, "answered in the chat.\nDatabase: SQLite") {
		t.Errorf("the message after the answer: %q with %q", got.Text, got.Labels())
	}
	// The terminal's records say where, as the history does.
	waitFor(t, "the log records the answer", func() bool {
		return strings.Contains(r.log.String(), "The questions from api were answered in the chat.")
	})
}

// A message longer than Telegram takes is posted cut, with its buttons.
func TestLongMessageIsCut(t *testing.T) {
	r := startTelegram(t, false)
	long := schema.Question{Header: "Plan", Question: "Go on?", Options: []schema.Option{
		{Label: "Yes", Description: "Go on.", Preview: strings.Repeat("step ", 800)},
		{Label: "No", Description: "Stop.", Preview: strings.Repeat("undo ", 800)},
	}}
	_, msg := r.add(t, long)
	m := r.api.Message(msg)
	if n := len([]rune(m.Text)); n > telegramMaxText || n < telegramMaxText-5 || !strings.HasSuffix(m.Text, "…") {
		t.Errorf("the message is %d characters, ending %q; want %d or a few fewer (the spaces before the cut go), ending in …", n, m.Text[len(m.Text)-20:], telegramMaxText)
	}
	if got, want := m.Labels(), []string{"1. Yes", "2. No", "Cancel"}; !slices.Equal(got, want) {
		t.Errorf("buttons %q, want %q", got, want)
	}
}

func TestSeveralChoicesAreToggledThenDone(t *testing.T) {
	r := startTelegram(t, false)
	s, msg := r.add(t, features)
	// Done with nothing chosen is refused by the question's check.
	r.answered(t, r.api.Tap(person, person, msg, "Done"))
	m := r.edited(t, msg, 1)
	if !strings.Contains(m.Text, "Not taken: nothing is chosen.") {
		t.Errorf("after Done with nothing chosen: %q", m.Text)
	}
	r.answered(t, r.api.Tap(person, person, msg, "Auth"))
	r.edited(t, msg, 2)
	r.answered(t, r.api.Tap(person, person, msg, "Export"))
	m = r.edited(t, msg, 3)
	if got := m.Labels(); !slices.Contains(got, "☑ 1. Auth") || !slices.Contains(got, "☐ 2. Search") || !slices.Contains(got, "☑ 3. Export") {
		t.Errorf("toggles %q", got)
	}
	r.answered(t, r.api.Tap(person, person, msg, "Auth")) // unchosen
	r.edited(t, msg, 4)
	r.api.Tap(person, person, msg, "Done")
	if e := ended(t, s); !slices.Equal(e.Answers[0].Labels, []string{"Export"}) {
		t.Errorf("answers %+v, want Export", e.Answers)
	}
}

func TestOtherAndNoteAreReplies(t *testing.T) {
	r := startTelegram(t, false)
	s, msg := r.add(t, db)
	r.api.Write(person, person, msg, "note: keep it small")
	if m := r.edited(t, msg, 1); !strings.Contains(m.Text, "Note: keep it small") {
		t.Errorf("the note is not shown: %q", m.Text)
	}
	r.api.Write(person, person, msg, "DuckDB")
	e := ended(t, s)
	if want := (prompt.Answer{Other: "DuckDB", Note: "keep it small"}); e.Answers[0].Other != want.Other || e.Answers[0].Note != want.Note || len(e.Answers[0].Labels) != 0 {
		t.Errorf("answer %+v, want %+v", e.Answers[0], want)
	}
}

func TestTypedQuestionIsAReply(t *testing.T) {
	r := startTelegram(t, false)
	s, _ := r.add(t, schema.Question{Header: "Name", Question: "What name?", Kind: schema.KindText})
	// A message that replies to none answers the one set posted.
	r.api.Write(person, person, 0, "  askuser  ")
	if e := ended(t, s); e.Answers[0].Other != "askuser" {
		t.Errorf("answer %+v", e.Answers[0])
	}
}

func TestSeveralQuestionsAreReviewedBeforeTheyGo(t *testing.T) {
	r := startTelegram(t, false)
	s, msg := r.add(t, db, features)
	if m := r.api.Message(msg); !strings.Contains(m.Text, "(1 of 2)") {
		t.Errorf("first question: %q", m.Text)
	}
	r.answered(t, r.api.Tap(person, person, msg, "Postgres"))
	if m := r.edited(t, msg, 1); !strings.Contains(m.Text, "(2 of 2)") || !strings.Contains(m.Text, "Which features?") {
		t.Errorf("second question: %q", m.Text)
	}
	r.answered(t, r.api.Tap(person, person, msg, "Search"))
	r.edited(t, msg, 2)
	r.answered(t, r.api.Tap(person, person, msg, "Done"))
	m := r.edited(t, msg, 3)
	if !strings.Contains(m.Text, "Your answers, not sent yet:\nDatabase: Postgres\nFeatures: Search") || !slices.Equal(m.Labels(), []string{"Send", "Answer again", "Cancel"}) {
		t.Errorf("review: %q %q", m.Text, m.Labels())
	}
	if s.End().State != inbox.Waiting {
		t.Fatal("the answers went before the review")
	}
	r.api.Tap(person, person, msg, "Send")
	e := ended(t, s)
	if len(e.Answers) != 2 || e.Answers[0].Labels[0] != "Postgres" || e.Answers[1].Labels[0] != "Search" {
		t.Errorf("answers %+v", e.Answers)
	}
}

func TestApprovalShowsWhatTheSessionRuleCovers(t *testing.T) {
	r := startTelegram(t, false)
	approval := schema.Question{Header: "Approve", Question: "Claude asks to use Bash:\nnpm test", Options: []schema.Option{
		{Label: "Allow", Description: "Let this call run as shown.", Preview: "command: npm test"},
		{Label: "Deny", Description: "Do not let it run; the agent is told."},
		{Label: "Allow for this session", Description: "Let it run, and every later call that Bash(npm test) covers, until the agent's session ends."},
	}}
	s, msg := r.add(t, approval)
	m := r.api.Message(msg)
	if !strings.Contains(m.Text, "3. Allow for this session — Let it run, and every later call that Bash(npm test) covers") || !strings.Contains(m.Text, "npm test") {
		t.Errorf("approval: %q", m.Text)
	}
	r.api.Tap(person, person, msg, "Allow for this session")
	if e := ended(t, s); e.Answers[0].Labels[0] != "Allow for this session" {
		t.Errorf("answers %+v", e.Answers)
	}
}

func TestCancelInTheChat(t *testing.T) {
	r := startTelegram(t, false)
	s, msg := r.add(t, db)
	r.api.Tap(person, person, msg, "Cancel")
	if e := ended(t, s); e.State != inbox.Cancelled || e.Via != inbox.ViaChat {
		t.Errorf("end %+v", e)
	}
}

func TestEndedElsewhereIsShownEndedAndTapsChangeNothing(t *testing.T) {
	r := startTelegram(t, false)
	s, msg := r.add(t, db)
	before := r.api.Message(msg)
	if err := r.q.Answer(s, inbox.ViaHere, []prompt.Answer{{Labels: []string{"Postgres"}}}); err != nil {
		t.Fatal(err)
	}
	m := r.edited(t, msg, 1)
	if len(m.Keyboard) != 0 || !strings.HasSuffix(m.Text, "answered at the inbox.") {
		t.Errorf("after the answer at the inbox: %q %q", m.Text, m.Labels())
	}
	// A tap on the message as the phone still showed it.
	id := r.api.TapData(person, person, msg, before.Keyboard[1][0].CallbackData)
	if line := r.answered(t, id); !strings.Contains(line, "already ended: answered at the inbox.") {
		t.Errorf("a late tap was answered %q", line)
	}
	if e := s.End(); e.Via != inbox.ViaHere || e.Answers[0].Labels[0] != "Postgres" {
		t.Errorf("a late tap changed the end: %+v", e)
	}

	w, msg2 := r.add(t, db)
	r.q.Withdraw(w, "killed")
	if m := r.edited(t, msg2, 1); len(m.Keyboard) != 0 || !strings.HasSuffix(m.Text, "withdrawn (killed).") {
		t.Errorf("after the withdrawal: %q %q", m.Text, m.Labels())
	}
	r.api.Write(person, person, msg2, "DuckDB")
	waitFor(t, "the late reply is answered", func() bool {
		return slices.ContainsFunc(r.api.Replies(), func(s string) bool { return strings.Contains(s, "already ended: withdrawn (killed).") })
	})
}

func TestOnlyThePersonAnswers(t *testing.T) {
	r := startTelegram(t, false)
	s, msg := r.add(t, db)
	// Someone else in the chat, and the person in another chat.
	if line := r.answered(t, r.api.Tap(stranger, person, msg, "SQLite")); line != lineNotYours {
		t.Errorf("a stranger's tap was answered %q", line)
	}
	if line := r.answered(t, r.api.Tap(person, stranger, msg, "SQLite")); line != lineNotYours {
		t.Errorf("a tap from another chat was answered %q", line)
	}
	r.api.Write(stranger, stranger, msg, "DuckDB")
	waitFor(t, "the stranger's reply is refused", func() bool { return slices.Contains(r.api.Replies(), lineNotYours) })
	// A key made up, one of another button, one of an earlier version.
	data := r.api.Message(msg).Keyboard[1][0].CallbackData
	last := "A"
	if strings.HasSuffix(data, "A") {
		last = "B"
	}
	forged := data[:len(data)-1] + last
	if line := r.answered(t, r.api.TapData(person, person, msg, forged)); line != lineUnknown {
		t.Errorf("a forged key was answered %q", line)
	}
	other := strings.Replace(data, ".2.", ".1.", 1)
	if line := r.answered(t, r.api.TapData(person, person, msg, other)); line != lineUnknown {
		t.Errorf("another button's key was answered %q", line)
	}
	r.api.Write(person, person, msg, "note: first")
	r.edited(t, msg, 1)
	if line := r.answered(t, r.api.TapData(person, person, msg, data)); line != lineStale {
		t.Errorf("an earlier version's key was answered %q", line)
	}
	if s.End().State != inbox.Waiting {
		t.Fatalf("the set ended: %+v", s.End())
	}
	r.api.Tap(person, person, msg, "SQLite")
	if e := ended(t, s); e.Answers[0].Labels[0] != "SQLite" {
		t.Errorf("answers %+v", e.Answers)
	}
}

func TestPrivateSendsNoQuestionText(t *testing.T) {
	r := startTelegram(t, true)
	s, msg := r.add(t, db)
	m := r.api.Message(msg)
	if m.Text != "Questions from api wait. Answer them at the inbox or on its page." || len(m.Keyboard) != 0 {
		t.Errorf("private message: %q %q", m.Text, m.Labels())
	}
	r.api.Write(person, person, msg, "DuckDB")
	waitFor(t, "the reply is refused", func() bool { return len(r.api.Replies()) > 0 })
	if err := r.q.Answer(s, inbox.ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}}); err != nil {
		t.Fatal(err)
	}
	if m := r.edited(t, msg, 1); strings.Contains(m.Text, "SQLite") || strings.Contains(m.Text, "database") {
		t.Errorf("private end: %q", m.Text)
	}
}

func TestBadTokenIsSaidWithoutIt(t *testing.T) {
	api := chattest.NewBotAPI(t, "other:token")
	tg, err := NewTelegram(TelegramOptions{Token: token, Chat: person, Server: api.URL}, func(error) {})
	if err != nil {
		t.Fatal(err)
	}
	q := inbox.NewQueue(inbox.QueueOptions{})
	c := New(Options{Queue: q, Service: tg, Room: tg.Room(), People: []string{"1001"}, Links: view.NewLinks()})
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	err = c.Run(ctx)
	if err == nil || strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), "Unauthorized") {
		t.Errorf("Run with a bad token: %v", err)
	}
}

// hung is a chat service that never answers.
type hung struct{}

func (hung) Listen(ctx context.Context, _ func(Event)) error { <-ctx.Done(); return ctx.Err() }
func (hung) Post(ctx context.Context, _ Message) (MessageID, error) {
	<-ctx.Done()
	return "", ctx.Err()
}
func (hung) Edit(ctx context.Context, _ MessageID, _ Message) error { <-ctx.Done(); return ctx.Err() }
func (hung) Tell(ctx context.Context, _ Event, _ string) error      { <-ctx.Done(); return ctx.Err() }

func TestHungServiceDoesNotDelayTheOtherViews(t *testing.T) {
	log := &testutil.Buffer{}
	var arrived sync.WaitGroup
	var lv *view.Log
	var c *Chat
	q := inbox.NewQueue(inbox.QueueOptions{OnArrive: func(s *inbox.Set) { lv.Arrived(s); c.Away(s); arrived.Done() }})
	lv = view.NewLog(q, log, "")
	c = New(Options{Queue: q, Service: hung{}, Room: "r", People: []string{"p"}, Links: view.NewLinks(), Log: log})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	defer func() { cancel(); <-done }()
	// 100 sets wait in the chat, whose service hangs on the first.
	var sets []*inbox.Set
	for range 100 {
		s := &inbox.Set{From: "api", Questions: []schema.Question{db}}
		arrived.Add(1)
		if _, err := q.Add(s); err != nil {
			t.Fatal(err)
		}
		sets = append(sets, s)
	}
	arrived.Wait()
	for _, s := range sets {
		if err := q.Answer(s, inbox.ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}}); err != nil {
			t.Fatal(err)
		}
	}
	// The log view recorded each end as it happened, in the goroutine
	// that ended it: none waited for the chat.
	if n := strings.Count(log.String(), "were answered here."); n != 100 {
		t.Errorf("the log recorded %d answers of 100:\n%s", n, log.String())
	}
}

func TestSetNotPostedIsPostedAgain(t *testing.T) {
	r := startTelegram(t, false)
	r.api.FailSends(1)
	s, msg := r.add(t, db)
	if m := r.api.Message(msg); !strings.Contains(m.Text, "Which database?") {
		t.Errorf("posted again: %q", m.Text)
	}
	if !strings.Contains(r.log.String(), "Warning: the chat could not post a message") {
		t.Errorf("the failure was not said:\n%s", r.log.String())
	}
	r.api.Tap(person, person, msg, "Postgres")
	if e := ended(t, s); e.Answers[0].Labels[0] != "Postgres" {
		t.Errorf("answers %+v", e.Answers)
	}
}

// A set held back from the chat has no message there: a text that replies
// to no message goes to the only set posted, as if the held one were not
// there, and the held one is neither answered nor posted by it.
func TestHeldSetIsNotAnsweredByAText(t *testing.T) {
	r := startTelegramWith(t, Options{}, true)
	held := &inbox.Set{From: "held", Questions: []schema.Question{db}}
	if _, err := r.q.Add(held); err != nil {
		t.Fatal(err)
	}
	away := &inbox.Set{From: "away", Questions: []schema.Question{db}}
	if _, err := r.q.Add(away); err != nil {
		t.Fatal(err)
	}
	r.c.Away(away)
	waitFor(t, "the set given to Away is posted", func() bool { return r.api.Messages() >= 1 })
	r.api.Write(person, person, 0, "DuckDB")
	if e := ended(t, away); e.Answers[0].Other != "DuckDB" {
		t.Errorf("the set posted ended with %+v", e)
	}
	if held.End().State != inbox.Waiting {
		t.Errorf("the held set ended: %+v", held.End())
	}
	for id := 1; id <= r.api.Messages(); id++ {
		if m := r.api.Message(id); strings.Contains(m.Text, "held") {
			t.Errorf("the held set was posted: %q", m.Text)
		}
	}
}
