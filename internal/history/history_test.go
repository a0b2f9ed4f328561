package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// answered is a record of a set from from, asked at t0 and answered here
// after waited.
func answered(from string, waited time.Duration) Record {
	return Record{
		From: from, Asked: t0, Ended: t0.Add(waited), Outcome: Answered, Via: ViaHere,
		Waited: waited.Seconds(), Questions: []string{"Database"},
	}
}

// How says how a set ended and where, in words.
func TestHow(t *testing.T) {
	for _, c := range []struct {
		r   Record
		how string
	}{
		{Record{Outcome: Answered, Via: ViaNotification}, "answered from the notification"},
		{Record{Outcome: Answered, Via: ViaHere}, "answered here"},
		{Record{Outcome: Answered, Via: ViaPage}, "answered on the page"},
		{Record{Outcome: Answered, Via: ViaChat}, "answered in the chat"},
		{Record{Outcome: "cancelled", Via: ViaChat}, "cancelled in the chat"},
		{Record{Outcome: Answered, Via: ViaElsewhere, Reason: "by bob@laptop"}, "answered elsewhere (by bob@laptop)"},
		{Record{Outcome: "cancelled", Via: ViaHere}, "cancelled here"},
		{Record{Outcome: Answered, Via: ViaHere, Reason: "not sent: the inbox quit first"}, "answered here (not sent: the inbox quit first)"},
		{Record{Outcome: "withdrawn", Reason: "the asker was stopped"}, "withdrawn (the asker was stopped)"},
		{Record{Outcome: "closed", Reason: "the person quit the inbox"}, "closed (the inbox quit)"},
	} {
		if got := c.r.How(); got != c.how {
			t.Errorf("How() = %q, want %q", got, c.how)
		}
	}
	if r := answered("a", 12500*time.Millisecond); r.WaitedFor() != 12500*time.Millisecond {
		t.Errorf("WaitedFor() = %s", r.WaitedFor())
	}
}

// Records are appended, a line each, and read back newest first, whatever
// the order they came in; a line that is not a record is counted, and a
// line still being written is not read.
func TestAppendRead(t *testing.T) {
	f := &File{Path: filepath.Join(t.TempDir(), "state", "askuser", FileName)}
	for _, waited := range []time.Duration{3 * time.Second, time.Second, 2 * time.Second} {
		if err := f.Append(answered("a", waited)); err != nil {
			t.Fatal(err)
		}
	}
	if st, err := os.Stat(f.Path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the file: %v, %v", st, err)
	}
	if st, err := os.Stat(filepath.Dir(f.Path)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("its directory: %v, %v", st, err)
	}
	w, _ := os.OpenFile(f.Path, os.O_WRONLY|os.O_APPEND, 0)
	_, _ = w.WriteString("not a record\n{\"from\":\"half")
	w.Close()
	rs, skipped, err := Read(f.Path)
	if err != nil || skipped != 1 || len(rs) != 3 {
		t.Fatalf("Read: %d records, %d skipped, %v", len(rs), skipped, err)
	}
	for i, want := range []float64{3, 2, 1} {
		if rs[i].Waited != want {
			t.Errorf("record %d waited %v, want %v (newest first)", i, rs[i].Waited, want)
		}
	}
	if rs, skipped, err := Read(filepath.Join(t.TempDir(), "none")); rs != nil || skipped != 0 || err != nil {
		t.Errorf("no file: %v, %d, %v", rs, skipped, err)
	}
}

// The file stays within MaxBytes: past it, the oldest records are dropped,
// whole, down to KeptBytes, and the newest are all there.
func TestAppendTrims(t *testing.T) {
	f := &File{Path: filepath.Join(t.TempDir(), FileName)}
	rec := answered(strings.Repeat("x", 900), time.Second)
	var n int
	for n = 0; n < 3000; n++ {
		r := rec
		r.Reason = fmt.Sprint(n)
		if err := f.Append(r); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > MaxBytes {
			t.Fatalf("after %d records the file is %d bytes", n+1, st.Size())
		}
	}
	b, _ := os.ReadFile(f.Path)
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	var first, last Record
	if json.Unmarshal(lines[0], &first) != nil || json.Unmarshal(lines[len(lines)-1], &last) != nil {
		t.Fatalf("the file does not start and end with a record:\n%.200s\n...\n%.200s", lines[0], lines[len(lines)-1])
	}
	if last.Reason != "2999" || first.Reason == "0" {
		t.Errorf("kept from %s to %s", first.Reason, last.Reason)
	}
	if leftover, _ := filepath.Glob(filepath.Join(filepath.Dir(f.Path), FileName+".*")); len(leftover) != 1 {
		t.Errorf("beside the history: %v (the lock file only)", leftover)
	}
}

// Several inboxes append at once, each with a File of its own (its own
// open of the lock): every record is there, a line each, none mixed with
// another; and with records large enough to pass the bound, the file is
// trimmed within it and still holds whole records only.
func TestAppendConcurrently(t *testing.T) {
	for _, c := range []struct {
		from  int // the length of the records' From
		whole bool
	}{{10, true}, {2000, false}} {
		path := filepath.Join(t.TempDir(), FileName)
		rec := answered(strings.Repeat("y", c.from), time.Second)
		const inboxes, each = 8, 100
		var wg sync.WaitGroup
		for i := range inboxes {
			f := &File{Path: path}
			wg.Go(func() {
				for j := range each {
					r := rec
					r.Reason = fmt.Sprintf("%d/%d", i, j)
					if err := f.Append(r); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		rs, skipped, err := Read(path)
		if err != nil || skipped != 0 {
			t.Fatalf("Read: %d skipped, %v", skipped, err)
		}
		st, _ := os.Stat(path)
		if st.Size() > MaxBytes || c.whole && len(rs) != inboxes*each || !c.whole && len(rs) < KeptBytes/2200 {
			t.Errorf("%d records in %d bytes", len(rs), st.Size())
		}
		seen := map[string]bool{}
		for _, r := range rs {
			if seen[r.Reason] || len(r.From) != c.from {
				t.Errorf("record %s is there twice, or mixed", r.Reason)
			}
			seen[r.Reason] = true
		}
	}
}

// Each agent's waits are over the sets the person answered in this inbox:
// the median and the 95th percentile by the nearest rank.
func TestAgents(t *testing.T) {
	var rs []Record
	add := func(from, outcome, via string, seconds ...float64) {
		for _, s := range seconds {
			rs = append(rs, Record{From: from, Outcome: outcome, Via: via, Waited: s})
		}
	}
	add("api", "answered", "here", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 100)
	add("api", "cancelled", "here", 500)
	add("api", "withdrawn", "", 900)
	add("api", "answered", "elsewhere", 700)
	add("docs", "answered", "notification", 30)
	add("bot", "answered", "page", 5)
	got := Agents(rs)
	want := []Agent{
		{From: "api", Answered: 20, P50: 10 * time.Second, P95: 19 * time.Second},
		{From: "bot", Answered: 1, P50: 5 * time.Second, P95: 5 * time.Second},
		{From: "docs", Answered: 1, P50: 30 * time.Second, P95: 30 * time.Second},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Agents:\n%+v\nwant\n%+v", got, want)
	}
}

// ASKUSER_HISTORY takes on, answers or off, in any case.
func TestParseKeep(t *testing.T) {
	for in, want := range map[string]Keep{"": KeepOutcomes, "on": KeepOutcomes, "Answers": KeepAnswers, "OFF": KeepNothing} {
		if got, err := ParseKeep(in); got != want || err != nil {
			t.Errorf("ParseKeep(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseKeep("yes please"); err == nil || err.Error() != "must be on, answers or off" {
		t.Errorf("ParseKeep(yes please): %v", err)
	}
}
