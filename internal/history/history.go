// Package history keeps the inbox's record of every set of questions that
// ended: who asked, when, how it ended and where the person gave it, how
// long the asker waited, and the answers when the person keeps them. It
// is one file of JSON lines, newest last, bounded in size (MaxBytes), that
// every inbox of the person appends to under a lock, and that askuser
// history reads.
package history

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/lockedfile"
)

// MaxBytes bounds the file: once a record takes it past 1 MiB (some
// 4,000 sets without their answers), the oldest records are dropped,
// down to KeptBytes, so that it is not written again whole at each set.
const (
	MaxBytes  = 1 << 20
	KeptBytes = MaxBytes * 3 / 4
)

// FileName is the file's name in its directory, $XDG_STATE_HOME/askuser.
const FileName = "history.jsonl"

// Keep is what the history keeps of each set.
type Keep int

// What the person may choose to keep (ASKUSER_HISTORY).
const (
	KeepOutcomes Keep = iota // on: who asked, when, how it ended; not the answers
	KeepAnswers              // answers: the outcomes, and the questions with their answers
	KeepNothing              // off: no history
)

var keepNames = [...]string{KeepOutcomes: "on", KeepAnswers: "answers", KeepNothing: "off"}

// ParseKeep reads ASKUSER_HISTORY's value: on (the default, also for ""),
// answers or off, in any case.
func ParseKeep(s string) (Keep, error) {
	if i := slices.Index(keepNames[:], cmp.Or(strings.ToLower(s), "on")); i >= 0 {
		return Keep(i), nil
	}
	return 0, errors.New("must be on, answers or off")
}

// Record is one set that ended, as the file keeps it: a line of JSON.
type Record struct {
	// From is who asked: the name the asker gave, else its directory.
	From  string    `json:"from"`
	Asked time.Time `json:"asked"`
	Ended time.Time `json:"ended"`
	// Outcome is answered, cancelled, withdrawn or closed (the inbox
	// quit); Via is where the person answered or cancelled it: here,
	// page, notification, chat or elsewhere (another inbox on the same
	// queue).
	Outcome string `json:"outcome"`
	Via     string `json:"via,omitempty"`
	// Waited is how long the asker waited, in seconds.
	Waited float64 `json:"waited_seconds"`
	// Reason says why a set was withdrawn, who answered it elsewhere, or
	// why an answer or cancel given here was not sent.
	Reason string `json:"reason,omitempty"`
	// Questions are the headers of its questions.
	Questions []string `json:"questions"`
	// Answers are kept only when the person chose to (KeepAnswers).
	Answers []Answer `json:"answers,omitempty"`
}

// Answer is one question of a set, with the person's answer to it.
type Answer struct {
	Header   string `json:"header"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Note     string `json:"note,omitempty"`
}

// The words of a record's Outcome and Via that the history reads: the
// inbox's own names of a set's end and of where it was given (the inbox
// writes them, and its tests hold them to these).
const (
	Answered        = "answered"
	ViaHere         = "here"
	ViaPage         = "page"
	ViaNotification = "notification"
	ViaChat         = "chat"
	ViaElsewhere    = "elsewhere"
)

// File is the history file at Path. Its methods are safe for concurrent
// use, in one process and across several (each inbox of the person): the
// records are appended, and the file trimmed, under the lock of a file
// beside it (Path+".lock", a lockedfile.Mutex, which excludes within a
// process as across them), and a trimmed file takes the place of the old
// one whole (a rename), so that a reader never sees half of it.
type File struct {
	Path string
}

// Append adds r at the end of the file, and trims the file when it is over
// MaxBytes. The file and its directory are made, for the person only,
// when they are missing.
func (f *File) Append(r Record) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return err
	}
	unlock, err := lockedfile.MutexAt(f.Path + ".lock").Lock()
	if err != nil {
		return err
	}
	defer unlock()
	w, err := os.OpenFile(f.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	// One write, so that a reader sees the line whole or not at all.
	_, err = w.Write(append(line, '\n'))
	st, statErr := w.Stat()
	if err := errors.Join(err, statErr, w.Close()); err != nil || st.Size() <= MaxBytes {
		return err
	}
	return f.trim()
}

// trim writes the file again with its newest records only, KeptBytes at
// most. The lock is held, so the file written first, beside it, is this
// trim's alone.
func (f *File) trim() error {
	b, err := os.ReadFile(f.Path)
	if err != nil {
		return err
	}
	tmp := f.Path + ".tmp"
	if err = os.WriteFile(tmp, newest(b, KeptBytes), 0o600); err == nil {
		err = os.Rename(tmp, f.Path)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}

// newest returns the end of b, whole lines of it, at most max bytes long.
func newest(b []byte, max int) []byte {
	if len(b) <= max {
		return b
	}
	// The lines that start within the last max bytes: after the first
	// newline from the byte just before them on (none without one).
	_, whole, _ := bytes.Cut(b[len(b)-max-1:], []byte("\n"))
	return whole
}

// Read returns the records of the file at path, newest first (none when
// there is no file yet), and how many of its lines are not records.
func Read(path string) (_ []Record, skipped int, _ error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	// A line still being written is not read.
	if i := bytes.LastIndexByte(b, '\n'); i < len(b)-1 {
		b = b[:i+1]
	}
	var rs []Record
	for line := range bytes.Lines(b) {
		var r Record
		if err := json.Unmarshal(line, &r); err != nil || r.Outcome == "" {
			skipped++
			continue
		}
		rs = append(rs, r)
	}
	// The inboxes append their records as each set ends, one after the
	// other; the newest end first, whatever the order they came in.
	slices.SortStableFunc(rs, func(a, b Record) int { return b.Ended.Compare(a.Ended) })
	return rs, skipped, nil
}

// WaitedFor returns how long the asker of r waited.
func (r Record) WaitedFor() time.Duration {
	return time.Duration(r.Waited * float64(time.Second)).Round(time.Millisecond)
}

// How says how r's set ended, and where: "answered from the notification",
// "cancelled here", "withdrawn (killed)".
func (r Record) How() string {
	if r.Outcome == "closed" {
		return "closed (the inbox quit)"
	}
	how := r.Outcome
	if r.Via != "" {
		how += " " + cmp.Or(viaWords[r.Via], r.Via)
	}
	if r.Reason != "" {
		how += " (" + r.Reason + ")"
	}
	return how
}

// viaWords are the words of the places whose name is not already how
// How says it ("here", "elsewhere").
var viaWords = map[string]string{
	ViaPage:         "on the page",
	ViaNotification: "from the notification",
	ViaChat:         "in the chat",
}
