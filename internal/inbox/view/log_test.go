package view

import (
	"context"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// The log of an inbox without a terminal has a line for each set that
// arrives and for how each ends; the inbox quitting is said once, by the
// inbox, not for each set.
func TestLog(t *testing.T) {
	var l *Log
	s := &testScreen{} // its output, and how to wait for it
	q := inbox.NewQueue(inbox.QueueOptions{OnArrive: func(s *inbox.Set) { l.Arrived(s) }})
	l = NewLog(q, &s.out, "/home/me")
	answered := add(t, q, &inbox.Set{Cwd: "/home/me/src/api", Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", false)}})
	cancelled := add(t, q, &inbox.Set{From: "agent\x1b[31m", Questions: []schema.Question{schema.ConfirmQuestion("Drop?", false)}})
	withdrawn := add(t, q, &inbox.Set{From: "writer", Questions: []schema.Question{schema.InputQuestion("Name?", "", "")}})
	add(t, q, &inbox.Set{From: "late", Questions: []schema.Question{schema.InputQuestion("Name?", "", "")}})
	// Answers are given on the page: the log holds where, not what.
	if err := q.Answer(answered, inbox.ViaPage, []prompt.Answer{{Labels: []string{"Yes"}}}); err != nil {
		t.Fatal(err)
	}
	s.waitOut(t, "The questions from ~/src/api were answered on the web page.\n")
	if err := q.Cancel(cancelled, inbox.ViaPage); err != nil {
		t.Fatal(err)
	}
	s.waitOut(t, "The questions from agent\\x1b[31m were cancelled on the web page.\n")
	q.Withdraw(withdrawn, "the asker stopped waiting")
	s.waitOut(t, "The questions from writer were withdrawn (the asker stopped waiting).\n")
	q.Close("the inbox quit")
	want := "Arrived: questions from ~/src/api · 1 waiting\n" +
		"Arrived: questions from agent\\x1b[31m · 2 waiting\n" +
		"Arrived: questions from writer · 3 waiting\n" +
		"Arrived: questions from late · 4 waiting\n" +
		"The questions from ~/src/api were answered on the web page.\n" +
		"The questions from agent\\x1b[31m were cancelled on the web page.\n" +
		"The questions from writer were withdrawn (the asker stopped waiting).\n"
	time.Sleep(50 * time.Millisecond) // a line for the closed set would come now
	if got := s.out.String(); got != want {
		t.Errorf("the log:\n%s\nwant:\n%s", got, want)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(context.Canceled)
	if err := l.Run(ctx); err != context.Canceled {
		t.Errorf("Run = %v once its context ends", err)
	}
}
