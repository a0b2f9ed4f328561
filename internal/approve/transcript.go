package approve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"reflect"
	"time"

	"github.com/tidwall/gjson"
)

// Claude Code (2.1.332) runs its PermissionRequest hook while its own
// dialog asks the same in the terminal, and when the person answers there,
// it leaves the hook running until the hook's own timeout, and ignores
// what it writes: it sends no signal and closes nothing. What it does
// write is the call's result, in the session's transcript, once the call
// ends: at once for a question, or for a call the person denied; when it
// has run, for one they allowed.

// pollEvery is how often the transcript is read for the call's result: a
// stat, and a read of what is new. Claude Code writes the result as it
// sends the model its next request, some 0.5 s after the answer; the
// question must leave the inbox within 1 s.
const pollEvery = 50 * time.Millisecond

// maxTail is how much of the end of the transcript is read for the call:
// it is among the last things written there.
const maxTail = 8 << 20

// Answered returns once the call that r asks about has its result in
// Claude Code's transcript: it was answered elsewhere (or ran), and asking
// the person about it is over. It returns ctx's error when ctx ends first,
// and waits for ctx to end when r gives no transcript, or the transcript
// does not say which call r is.
func (r Request) Answered(ctx context.Context) error {
	if r.Dialect != PermissionRequest || r.Transcript == "" {
		<-ctx.Done()
		return ctx.Err()
	}
	w := &watch{r: r, calls: map[string]bool{}, ended: map[string]bool{}, earlier: map[string]bool{}}
	defer w.close()
	w.read()
	// The calls that had ended before r was asked are not it. One still
	// waiting then, with another input, is not it either: it is an
	// earlier call whose result is not written yet, and r's own may be
	// written after it.
	for id, same := range w.calls {
		if w.ended[id] || !same {
			w.earlier[id] = true
		}
	}
	w.ended = map[string]bool{}
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
		w.read()
		if w.over() {
			return nil
		}
	}
}

// watch reads a transcript for the calls that may be r, and their results.
type watch struct {
	r       Request
	f       *os.File
	in      *bufio.Reader
	line    []byte // the end of the transcript, a line not yet ended
	partial bool   // the first line read is the end of one cut short
	// calls are the calls of r's tool, true for those with r's input.
	calls map[string]bool
	// ended are those calls whose results were read.
	ended map[string]bool
	// earlier are the calls written before r was asked that are not it:
	// those that had ended, and those with another input than r's.
	earlier map[string]bool
}

// close closes the transcript, which was only read.
func (w *watch) close() {
	if w.f != nil {
		_ = w.f.Close()
	}
}

// read reads the lines written since it last read, from the last
// maxTail bytes of the transcript when it first opens it.
func (w *watch) read() {
	if w.f == nil {
		f, err := os.Open(w.r.Transcript)
		if err != nil {
			return
		}
		if info, err := f.Stat(); err == nil && info.Size() > maxTail {
			_, _ = f.Seek(info.Size()-maxTail, io.SeekStart)
			w.partial = true
		}
		w.f, w.in = f, bufio.NewReader(f)
	}
	for {
		chunk, err := w.in.ReadBytes('\n')
		w.line = append(w.line, chunk...)
		if err != nil {
			return
		}
		if !w.partial {
			w.take(w.line)
		}
		w.partial = false
		w.line = w.line[:0]
	}
}

// take reads one line of the transcript: a message of the model's, with
// calls of tools, or one with their results. Other lines may hold calls
// too, written again (each request sent to the model, with the whole
// conversation): they say nothing new.
func (w *watch) take(line []byte) {
	if !bytes.Contains(line, []byte(`"tool_use`)) && !bytes.Contains(line, []byte(`"tool_result"`)) {
		return
	}
	if kind := gjson.GetBytes(line, "type").Str; kind != "assistant" && kind != "user" {
		return
	}
	gjson.GetBytes(line, "message.content").ForEach(func(_, c gjson.Result) bool {
		switch c.Get("type").Str {
		case "tool_use":
			if c.Get("name").Str == w.r.Tool {
				w.calls[c.Get("id").Str] = sameJSON(json.RawMessage(c.Get("input").Raw), w.r.Input)
			}
		case "tool_result":
			w.ended[c.Get("tool_use_id").Str] = true
		}
		return true
	})
}

// over reports whether the call that r is has ended: the call of its
// tool with its input, or when none has it, the one call of the tool
// with another input made since r was asked.
func (w *watch) over() bool {
	exact := false
	var other []string
	for id, same := range w.calls {
		if w.earlier[id] {
			continue
		}
		exact = exact || same
		if same && w.ended[id] {
			return true
		}
		if !same {
			other = append(other, id)
		}
	}
	return !exact && len(other) == 1 && w.ended[other[0]]
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b json.RawMessage) bool {
	var va, vb any
	return json.Unmarshal(a, &va) == nil && json.Unmarshal(b, &vb) == nil && reflect.DeepEqual(va, vb)
}
