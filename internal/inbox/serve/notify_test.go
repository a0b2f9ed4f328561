package serve

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/schema"
)

// notified is a queue told of by a notifier, with what it told: the lines
// its commands wrote, and the sets given to its away hook.
type notified struct {
	q     *inbox.Queue
	after sync.WaitGroup
	lines string // the file the commands append to

	mu   sync.Mutex
	away []string // the sets' sources, as the hook was called
}

func newNotified(t *testing.T, o Options) *notified {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the commands are sh")
	}
	r := &notified{lines: filepath.Join(t.TempDir(), "told")}
	record := `echo "$ASKUSER_EVENT $ASKUSER_FROM" >> ` + r.lines
	o.IO = &iostreams.Streams{}
	o.Notify = notify.Command{Name: "ASKUSER_NOTIFY_COMMAND", Line: record}
	o.NotifyEnd = notify.Command{Name: "ASKUSER_NOTIFY_END_COMMAND", Line: record}
	n := newNotifier(o, &strings.Builder{}, nil, view.NewLinks(), &r.after)
	n.onAway(func(s *inbox.Set) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.away = append(r.away, s.From)
	})
	r.q = inbox.NewQueue(inbox.QueueOptions{OnArrive: n.arrived})
	r.q.OnEnd(n.ended)
	return r
}

func (r *notified) add(t *testing.T, from string) *inbox.Set {
	t.Helper()
	s := &inbox.Set{From: from, Questions: []schema.Question{schema.ConfirmQuestion("Deploy?", true)}}
	if _, err := r.q.Add(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// told returns the lines the commands wrote, once they hold want, or
// fails the test after 10 s.
func (r *notified) told(t *testing.T, want ...string) []string {
	t.Helper()
	var lines []string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(r.lines)
		lines = strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(b) > 0 && !slices.ContainsFunc(want, func(w string) bool { return !slices.Contains(lines, w) }) {
			return lines
		}
	}
	t.Fatalf("the commands wrote %q, want %q among them", lines, want)
	return nil
}

func (r *notified) awayOnes() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.away)
}

// With --notify-after, a set answered before the delay is never told of
// away from the desk (neither the command nor the away hook, nor the end
// command that would take a notification back), and one still waiting
// after it is, once; its reminder comes Remind after that.
func TestNotifyAfter(t *testing.T) {
	r := newNotified(t, Options{NotifyAfter: 200 * time.Millisecond, Remind: 100 * time.Millisecond})
	answered := r.add(t, "answered")
	waiting := r.add(t, "waiting")
	if err := r.q.Answer(answered, inbox.ViaHere, []schema.Answer{{Labels: []string{schema.Yes}}}); err != nil {
		t.Fatal(err)
	}
	r.told(t, "asked waiting", "reminded waiting")
	// The answered set's delay, which began first, has passed too.
	if err := r.q.Cancel(waiting, inbox.ViaHere); err != nil {
		t.Fatal(err)
	}
	r.after.Wait()
	lines := r.told(t, "ended waiting")
	if want := []string{"asked waiting", "reminded waiting", "ended waiting"}; !slices.Equal(lines, want) {
		t.Errorf("the commands wrote %q, want %q", lines, want)
	}
	if got := r.awayOnes(); !slices.Equal(got, []string{"waiting"}) {
		t.Errorf("the away hook had %q, want only the set still waiting", got)
	}
}

// Without a delay (0, the default), a set is told of at once, as it
// arrives; and a set that is never told of away has no end command.
func TestNotifyAtOnce(t *testing.T) {
	r := newNotified(t, Options{})
	r.add(t, "now")
	r.told(t, "asked now")
	if got := r.awayOnes(); !slices.Equal(got, []string{"now"}) {
		t.Errorf("the away hook had %q", got)
	}

	late := newNotified(t, Options{NotifyAfter: time.Hour})
	s := late.add(t, "late")
	if err := late.q.Cancel(s, inbox.ViaHere); err != nil {
		t.Fatal(err)
	}
	late.after.Wait()
	if b, err := os.ReadFile(late.lines); !os.IsNotExist(err) || len(late.awayOnes()) != 0 {
		t.Errorf("a set ended within the delay was told of: %q, %q", b, late.awayOnes())
	}
}
