package approve

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Lines of Claude Code's transcript: the model's calls, and their results.
func useLine(id, tool, input string) string {
	return `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"` + tool + `","input":` + input + `}]}}` + "\n"
}

func resultLine(id string) string {
	return `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"done","tool_use_id":"` + id + `"}]}}` + "\n"
}

// hookIn is the PermissionRequest hook's input for a call of tool with
// input, with transcript.
func hookIn(t *testing.T, transcript, tool, input string) Request {
	return parseHook(t, `{"hook_event_name":"PermissionRequest","transcript_path":"`+transcript+`","tool_name":"`+tool+`","tool_input":`+input+`}`)
}

// answered runs r.Answered until d has passed, and reports whether it
// returned before, and how soon.
func answered(r Request, d time.Duration, during func()) (bool, time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	done := make(chan time.Time, 1)
	go func() {
		if r.Answered(ctx) == nil {
			done <- time.Now()
		}
		close(done)
	}()
	time.Sleep(3 * pollEvery)
	start := time.Now()
	during()
	at, ok := <-done
	return ok, at.Sub(start)
}

// appendTo adds lines to the file name.
func appendTo(t *testing.T, name string, lines ...string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if _, err := f.WriteString(l); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
}

// The call's result in the transcript, once the person answered in Claude
// Code's own dialog, ends the wait within a second; the result of another
// call, or of an earlier call of the same tool with the same input, does
// not.
func TestAnswered(t *testing.T) {
	const input = `{"command":"go test ./..."}`
	dir := t.TempDir()

	name := filepath.Join(dir, "answered.jsonl")
	appendTo(t, name, useLine("old", "Bash", input), resultLine("old"), useLine("other", "Read", `{"file_path":"/a"}`), useLine("call", "Bash", input))
	r := hookIn(t, name, "Bash", input)
	if ok, took := answered(r, 5*time.Second, func() { appendTo(t, name, resultLine("other"), resultLine("call")) }); !ok || took > time.Second {
		t.Errorf("answered %v, %s after the result", ok, took)
	}

	name = filepath.Join(dir, "others.jsonl")
	appendTo(t, name, useLine("old", "Bash", input), resultLine("old"), useLine("other", "Read", `{"file_path":"/a"}`), useLine("call", "Bash", input))
	if ok, _ := answered(hookIn(t, name, "Bash", input), 2*time.Second, func() { appendTo(t, name, resultLine("other"), resultLine("old")) }); ok {
		t.Error("answered by the results of other calls")
	}

	// Of two calls of the tool waiting, the one with the hook's input.
	name = filepath.Join(dir, "two.jsonl")
	appendTo(t, name, useLine("a", "Bash", `{"command":"ls"}`), useLine("b", "Bash", input))
	if ok, _ := answered(hookIn(t, name, "Bash", input), 2*time.Second, func() { appendTo(t, name, resultLine("a")) }); ok {
		t.Error("answered by the other waiting call")
	}
	if ok, _ := answered(hookIn(t, name, "Bash", input), 2*time.Second, func() { appendTo(t, name, resultLine("b")) }); !ok {
		t.Error("not answered by its own call's result")
	}

	// An earlier call of the tool, with other questions, whose result is
	// written after the hook started (and before its own call is), is not
	// it; a call with another input than the hook's, made after it
	// started, is, when it is the only one.
	name = filepath.Join(dir, "earlier.jsonl")
	appendTo(t, name, useLine("first", "AskUserQuestion", `{"questions":[{"question":"Database?"}]}`))
	second := `{"questions":[{"question":"Cache?"}]}`
	if ok, _ := answered(hookIn(t, name, "AskUserQuestion", second), 2*time.Second, func() { appendTo(t, name, resultLine("first")) }); ok {
		t.Error("answered by the result of the call before it")
	}
	ok, _ := answered(hookIn(t, name, "AskUserQuestion", second), 2*time.Second, func() {
		appendTo(t, name, useLine("second", "AskUserQuestion", `{"questions":[{"question":"Cache?"}],"answers":{}}`), resultLine("second"))
	})
	if !ok {
		t.Error("not answered by the one call made since, whose input differs")
	}

	// Claude Code also writes each request it sends the model, with every
	// call and result so far (2.1.332: "api-request-blob"), and may write
	// the result of the call before r's after r was asked. Neither an
	// earlier call written again nor that result is r's.
	name = filepath.Join(dir, "blob.jsonl")
	database, cache := `{"questions":[{"question":"Database?"}]}`, `{"questions":[{"question":"Cache?"}]}`
	appendTo(t, name, useLine("first", "AskUserQuestion", database), resultLine("first"), useLine("second", "AskUserQuestion", cache))
	blob := `{"type":"api-request-blob","message":{"role":"assistant","content":[` +
		`{"type":"tool_use","id":"first","name":"AskUserQuestion","input":` + database + `},` +
		`{"type":"tool_result","content":"done","tool_use_id":"first"}]}}` + "\n"
	queue := `{"questions":[{"question":"Queue?"}]}`
	if ok, _ := answered(hookIn(t, name, "AskUserQuestion", queue), 2*time.Second, func() { appendTo(t, name, resultLine("second"), blob) }); ok {
		t.Error("answered by earlier calls written again")
	}
	ok, _ = answered(hookIn(t, name, "AskUserQuestion", queue), 2*time.Second, func() {
		appendTo(t, name, blob, useLine("third", "AskUserQuestion", `{"questions":[{"question":"Queue?"}],"answers":{}}`), resultLine("third"))
	})
	if !ok {
		t.Error("not answered by its own call after earlier calls written again")
	}

	// The call written after the hook started, and its result in a line
	// written in two pieces.
	name = filepath.Join(dir, "late.jsonl")
	appendTo(t, name, useLine("old", "Bash", input), resultLine("old"))
	res := resultLine("late")
	ok, _ = answered(hookIn(t, name, "Bash", input), 3*time.Second, func() {
		appendTo(t, name, useLine("late", "Bash", input), res[:20])
		time.Sleep(2 * pollEvery)
		appendTo(t, name, res[20:])
	})
	if !ok {
		t.Error("not answered by a call written after the hook started")
	}

	// A transcript that is written only after the hook started is read
	// once it is there.
	name = filepath.Join(dir, "new.jsonl")
	ok, _ = answered(hookIn(t, name, "Bash", input), 3*time.Second, func() {
		appendTo(t, name, useLine("new", "Bash", input), resultLine("new"))
	})
	if !ok {
		t.Error("not answered through a transcript written after the hook started")
	}
}

// Without a transcript, or for a subagent's call, whose transcript is
// elsewhere, or for another hook than PermissionRequest, there is nothing
// to watch: Answered waits for its context.
func TestAnsweredNothingToWatch(t *testing.T) {
	name := filepath.Join(t.TempDir(), "t.jsonl")
	appendTo(t, name, useLine("call", "Bash", `{}`))
	for _, in := range []string{
		`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{}}`,
		`{"hook_event_name":"PermissionRequest","agent_id":"a1","transcript_path":"` + name + `","tool_name":"Bash","tool_input":{}}`,
		`{"hook_event_name":"PreToolUse","transcript_path":"` + name + `","tool_name":"Bash","tool_input":{}}`,
	} {
		if ok, _ := answered(parseHook(t, in), time.Second, func() { appendTo(t, name, resultLine("call")) }); ok {
			t.Errorf("%s: answered", in)
		}
	}
}
