package serve

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/askuser/askuser/internal/history"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/schema"
)

// durable is an address whose sets outlive the inbox, as NATS's do.
type durable struct{ inbox.SocketAddr }

func (durable) Durable() bool { return true }

// keptOf runs a queue at addr whose first set is answered and second left
// waiting when the inbox quits, and returns what its history keeps.
func keptOf(t *testing.T, addr inbox.Addr) []history.Record {
	t.Helper()
	f := &history.File{Path: filepath.Join(t.TempDir(), "askuser", history.FileName)}
	var after sync.WaitGroup
	var out strings.Builder
	q := inbox.NewQueue(inbox.QueueOptions{})
	keepHistory(q, Options{Addr: addr, History: f}, &out, &after)
	sets := []*inbox.Set{
		{From: "answered", Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", true)}},
		{From: "waiting", Questions: []schema.Question{schema.ConfirmQuestion("Drop?", false)}},
	}
	for _, s := range sets {
		if _, err := q.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Answer(sets[0], inbox.ViaHere, []schema.Answer{{Labels: []string{schema.Yes}}}); err != nil {
		t.Fatal(err)
	}
	q.Close("the person quit the inbox")
	after.Wait()
	if out.Len() != 0 {
		t.Errorf("said %q", out.String())
	}
	rs, _, err := history.Read(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// Each set that ends is kept, the sets closed with the inbox too; but on a
// server where the sets wait for the next inbox (NATS), a set closed with
// this one has not ended, and the next inbox keeps it.
func TestKeepHistory(t *testing.T) {
	rs := keptOf(t, inbox.SocketAddr("/run/inbox.sock"))
	if len(rs) != 2 || rs[0].From != "waiting" || rs[0].Outcome != "closed" || rs[1].From != "answered" || rs[1].How() != "answered here" {
		t.Errorf("kept %+v", rs)
	}
	rs = keptOf(t, durable{"/run/inbox.sock"})
	if len(rs) != 1 || rs[0].From != "answered" {
		t.Errorf("on a durable address, kept %+v", rs)
	}
}

// A history that cannot be written is said once, and the inbox goes on.
func TestKeepHistoryFailure(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var after sync.WaitGroup
	var out lockedWriter
	var said strings.Builder
	out.w = &said
	q := inbox.NewQueue(inbox.QueueOptions{})
	keepHistory(q, Options{Addr: inbox.SocketAddr("/run/inbox.sock"), History: &history.File{Path: filepath.Join(blocker, "askuser", history.FileName)}}, &out, &after)
	for _, from := range []string{"a", "b"} {
		s := &inbox.Set{From: from, Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", true)}}
		if _, err := q.Add(s); err != nil {
			t.Fatal(err)
		}
		_ = q.Cancel(s, inbox.ViaHere)
	}
	after.Wait()
	if got := said.String(); strings.Count(got, "Warning: the history could not be written: ") != 1 || !strings.HasSuffix(got, "The inbox goes on; this is said once.\n") {
		t.Errorf("said %q", got)
	}
}
