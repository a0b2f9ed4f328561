//go:build heavy

package chat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/internal/testutil/chattest"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// matrixRig is a homeserver with the inbox's account, the person and a
// stranger in one room, and a queue shown in that room.
type matrixRig struct {
	q        *inbox.Queue
	room     id.RoomID
	person   *chattest.Member
	stranger *chattest.Member
	log      *testutil.Buffer
}

func startMatrix(tb testing.TB) *matrixRig {
	tb.Helper()
	hs := chattest.StartDendrite(tb)
	const password = "bot-password-1234"
	bot := hs.Register(tb, "askuser", password)
	person := hs.Register(tb, "person", "person-password-1234")
	stranger := hs.Register(tb, "stranger", "stranger-password-1234")
	ctx := context.Background()
	room, err := person.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "public_chat", Invite: []id.UserID{bot.UserID}})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := stranger.JoinRoomByID(ctx, room.RoomID); err != nil {
		tb.Fatal(err)
	}
	r := &matrixRig{room: room.RoomID, log: &testutil.Buffer{}}
	var c *Chat
	// Each set is given to Away at once, as the inbox gives it once the
	// person is away.
	r.q = inbox.NewQueue(inbox.QueueOptions{OnArrive: func(s *inbox.Set) { c.Away(s) }})
	r.person, r.stranger = chattest.Listen(tb, person), chattest.Listen(tb, stranger)
	svc, roomID, people, err := Settings{Service: "matrix", People: []string{person.UserID.String()},
		Matrix: MatrixOptions{Homeserver: hs.URL, User: bot.UserID.String(), Password: password, Room: room.RoomID.String()},
	}.Open(func(err error) { _, _ = r.log.Write([]byte(err.Error() + "\n")) })
	if err != nil {
		tb.Fatal(err)
	}
	view.NewLog(r.q, r.log, "")
	c = New(Options{Queue: r.q, Service: svc, Room: roomID, People: people, Links: view.NewLinks(), Log: r.log})
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- c.Run(runCtx) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != context.Canceled {
			tb.Errorf("the chat ended with %v", err)
		}
		r.q.Close("the test is over")
		if strings.Contains(r.log.String(), password) {
			tb.Errorf("the password was logged:\n%s", r.log.String())
		}
	})
	return r
}

func (r *matrixRig) add(tb testing.TB, from string, qs ...schema.Question) *inbox.Set {
	tb.Helper()
	s := &inbox.Set{From: from, Questions: qs}
	if _, err := r.q.Add(s); err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestMatrixRoom(t *testing.T) {
	r := startMatrix(t)
	s := r.add(t, "api", db)
	posted := r.person.Find(t, "Questions from api", nil)
	body := posted.Content.AsMessage().Body
	for _, part := range []string{"[Database] Which database?", "2. SQLite — A file.", "Reply with a number:", "(2) 2. SQLite", "Preview:"} {
		if !strings.Contains(body, part) {
			t.Errorf("the message has no %q:\n%s", part, body)
		}
	}
	// The stranger's reply is refused, and changes nothing.
	r.stranger.Reply(t, r.room, posted.ID, "2")
	r.stranger.Find(t, lineNotYours, nil)
	if s.End().State != inbox.Waiting {
		t.Fatalf("a stranger's reply ended the set: %+v", s.End())
	}
	// The person's reply with a number taps that button.
	r.person.Reply(t, r.room, posted.ID, "2")
	e := ended(t, s)
	if e.State != inbox.Answered || e.Via != inbox.ViaChat || e.Answers[0].Labels[0] != "SQLite" {
		t.Errorf("end %+v, want SQLite answered in the chat", e)
	}
	r.person.Find(t, "answered in the chat.", chattest.IsEdit)

	// A set that ends elsewhere is edited to say so, and a late reply
	// changes nothing.
	s2 := r.add(t, "web", db)
	posted2 := r.person.Find(t, "Questions from web", nil)
	if err := r.q.Answer(s2, inbox.ViaPage, []prompt.Answer{{Labels: []string{"Postgres"}}}); err != nil {
		t.Fatal(err)
	}
	edit := r.person.Find(t, "Questions from web: answered on the web page.", chattest.IsEdit)
	if strings.Contains(edit.Content.AsMessage().NewContent.Body, "Reply with a number") {
		t.Errorf("the ended set still lists its buttons: %q", edit.Content.AsMessage().NewContent.Body)
	}
	r.person.Reply(t, r.room, posted2.ID, "1")
	r.person.Find(t, "already ended: answered on the web page.", nil)
	if got := s2.End(); got.Via != inbox.ViaPage {
		t.Errorf("a late reply changed the end: %+v", got)
	}
	// Other by reply.
	s3 := r.add(t, "other", db)
	posted3 := r.person.Find(t, "Questions from other", nil)
	r.person.Reply(t, r.room, posted3.ID, "DuckDB")
	if e := ended(t, s3); e.Answers[0].Other != "DuckDB" {
		t.Errorf("answer %+v, want DuckDB", e.Answers[0])
	}
}

// show adds a set of one question from from, and waits until the
// person's client has its message.
func (r *matrixRig) show(tb testing.TB, from string) *inbox.Set {
	tb.Helper()
	s := r.add(tb, from, db)
	r.person.Find(tb, "Questions from "+from+"\n", nil)
	return s
}

// reportLatency reports the median and the 95th percentile of took.
func reportLatency(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	p95 := took[min(len(took)-1, len(took)*95/100)]
	b.ReportMetric(float64(p95.Milliseconds()), "p95-ms")
	b.ReportMetric(float64(took[len(took)/2].Milliseconds()), "p50-ms")
}

// BenchmarkMatrixArrival measures how long a set takes from its arrival in
// the queue to the person's client in the room, through a real
// homeserver: its p95 is to be under a second.
func BenchmarkMatrixArrival(b *testing.B) {
	r := startMatrix(b)
	var took []time.Duration
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		s := r.show(b, fmt.Sprintf("bench-%d", i))
		took = append(took, time.Since(start))
		b.StopTimer()
		r.q.Withdraw(s, "measured")
		b.StartTimer()
	}
	reportLatency(b, took)
}

// BenchmarkMatrixEnded measures how long a set shown in the room and
// ended elsewhere takes from its end in the queue to the person's client
// having its message edited to say so, buttons gone, through a real
// homeserver: every other set is answered at the inbox, as at the desk,
// and the rest withdrawn. Its p95 is to be under a second.
func BenchmarkMatrixEnded(b *testing.B) {
	r := startMatrix(b)
	var took []time.Duration
	b.ResetTimer()
	for i := range b.N {
		from := fmt.Sprintf("bench-%d", i)
		b.StopTimer()
		s := r.show(b, from)
		b.StartTimer()
		start := time.Now()
		want := "Questions from " + from + ": withdrawn (measured)."
		if i%2 == 0 {
			if err := r.q.Answer(s, inbox.ViaHere, []prompt.Answer{{Labels: []string{"Postgres"}}}); err != nil {
				b.Fatal(err)
			}
			want = "Questions from " + from + ": answered at the inbox."
		} else {
			r.q.Withdraw(s, "measured")
		}
		edit := r.person.Find(b, want, chattest.IsEdit)
		took = append(took, time.Since(start))
		if body := edit.Content.AsMessage().NewContent.Body; strings.Contains(body, "Reply with a number") {
			b.Fatalf("the ended set still lists its buttons: %q", body)
		}
	}
	reportLatency(b, took)
}

// An encrypted room is refused at once, and said why: the account could
// read nothing of it, and its own messages would go unencrypted.
func TestMatrixEncryptedRoomRefused(t *testing.T) {
	hs := chattest.StartDendrite(t)
	bot := hs.Register(t, "askuser", "bot-password-1234")
	person := hs.Register(t, "person", "person-password-1234")
	room, err := person.CreateRoom(context.Background(), &mautrix.ReqCreateRoom{Preset: "private_chat", Invite: []id.UserID{bot.UserID},
		InitialState: []*event.Event{{Type: event.StateEncryption, Content: event.Content{Parsed: &event.EncryptionEventContent{Algorithm: id.AlgorithmMegolmV1}}}}})
	if err != nil {
		t.Fatal(err)
	}
	svc, roomID, people, err := Settings{Service: "matrix", People: []string{person.UserID.String()},
		Matrix: MatrixOptions{Homeserver: hs.URL, User: bot.UserID.String(), Password: "bot-password-1234", Room: room.RoomID.String()},
	}.Open(func(error) {})
	if err != nil {
		t.Fatal(err)
	}
	c := New(Options{Queue: inbox.NewQueue(inbox.QueueOptions{}), Service: svc, Room: roomID, People: people, Links: view.NewLinks()})
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	if err := c.Run(ctx); err == nil || !strings.Contains(err.Error(), "is encrypted") {
		t.Errorf("Run in an encrypted room: %v", err)
	}
}
