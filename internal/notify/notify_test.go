package notify

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/prompt"
)

func wait(t *testing.T, r *Run) {
	t.Helper()
	select {
	case <-r.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not end")
	}
}

// seen runs a command that writes the variables named to a file, a line
// each, and returns what it wrote.
func seen(t *testing.T, c Command, n Notice, names ...string) []string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	var line strings.Builder
	for _, name := range names {
		line.WriteString(`printf '%s=%s\n' ` + name + ` "${` + name + `-unset}" >> "` + out + `"; `)
	}
	c.Line = line.String()
	r := c.Start(n)
	wait(t, r)
	if err := r.Failed(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	return strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
}

// The command runs through the shell with a variable for each field of the
// notice that has a value, and one JSON object of them all.
func TestStartVars(t *testing.T) {
	n := Notice{Event: Asked, Set: "0a1b", From: "~/src/api", Header: "Database", Question: "Which one?",
		URL: "http://h:1/sets/1/?token=T", Actions: []Action{{Label: "PostgreSQL", URL: "http://h:1/sets/1/tap/1?key=a"}, {Label: "SQLite", URL: "http://h:1/sets/1/tap/2?key=b"}}}
	got := seen(t, Command{}, n, "ASKUSER_EVENT", "ASKUSER_SET", "ASKUSER_FROM", "ASKUSER_HEADER", "ASKUSER_QUESTION", "ASKUSER_URL", "ASKUSER_ACTIONS", "ASKUSER_OUTCOME", "ASKUSER_JSON")
	want := []string{
		"ASKUSER_EVENT=asked", "ASKUSER_SET=0a1b", "ASKUSER_FROM=~/src/api", "ASKUSER_HEADER=Database", "ASKUSER_QUESTION=Which one?",
		"ASKUSER_URL=http://h:1/sets/1/?token=T",
		`ASKUSER_ACTIONS=[{"action":"http","label":"PostgreSQL","url":"http://h:1/sets/1/tap/1?key=a","method":"POST","clear":true},{"action":"http","label":"SQLite","url":"http://h:1/sets/1/tap/2?key=b","method":"POST","clear":true}]`,
		"ASKUSER_OUTCOME=unset",
		`ASKUSER_JSON={"event":"asked","set":"0a1b","from":"~/src/api","header":"Database","question":"Which one?","url":"http://h:1/sets/1/?token=T","actions":[{"action":"http","label":"PostgreSQL","url":"http://h:1/sets/1/tap/1?key=a","method":"POST","clear":true},{"action":"http","label":"SQLite","url":"http://h:1/sets/1/tap/2?key=b","method":"POST","clear":true}]}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the command saw:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// An end says how the set ended, and carries no actions.
func TestStartEnded(t *testing.T) {
	got := seen(t, Command{}, Notice{Event: Ended, Set: "0a1b", From: "api", Outcome: "answered", Via: "notification"},
		"ASKUSER_EVENT", "ASKUSER_OUTCOME", "ASKUSER_VIA", "ASKUSER_ACTIONS", "ASKUSER_JSON")
	want := `ASKUSER_EVENT=ended ASKUSER_OUTCOME=answered ASKUSER_VIA=notification ASKUSER_ACTIONS=unset ASKUSER_JSON={"event":"ended","set":"0a1b","from":"api","outcome":"answered","via":"notification"}`
	if strings.Join(got, " ") != want {
		t.Errorf("the command saw %q", got)
	}
}

// A private notice gives the command no text of the questions: not their
// header and question, nor the labels of their options, and not a value
// of the same name that askuser's own environment holds; only who asks and
// the set's page.
func TestStartPrivate(t *testing.T) {
	t.Setenv("ASKUSER_QUESTION", "inherited text")
	n := Notice{Event: Asked, Set: "0a1b", From: "deployer", Header: "Secret", Question: "Rotate the prod key?",
		URL: "http://h:1/sets/1/?token=T", Actions: []Action{{Label: "Yes", URL: "http://h:1/sets/1/tap/1?key=a"}}}
	got := seen(t, Command{Private: true}, n, "ASKUSER_HEADER", "ASKUSER_QUESTION", "ASKUSER_FROM", "ASKUSER_URL", "ASKUSER_ACTIONS", "ASKUSER_JSON")
	want := []string{"ASKUSER_HEADER=unset", "ASKUSER_QUESTION=unset", "ASKUSER_FROM=deployer", "ASKUSER_URL=http://h:1/sets/1/?token=T", "ASKUSER_ACTIONS=[]",
		`ASKUSER_JSON={"event":"asked","set":"0a1b","from":"deployer","url":"http://h:1/sets/1/?token=T"}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the command saw:\n%s", strings.Join(got, "\n"))
	}
}

// The command runs whatever the text holds, and is given it as Display
// shows it: a NUL does not stop it, and escapes and bidirectional controls
// reach it only made visible, in its own variable and in the JSON.
func TestStartShowsTheText(t *testing.T) {
	text := "Drop\x00 the \x1b]0;owned\x07 table\u202e?\nReally"
	got := seen(t, Command{}, Notice{Event: Asked, Question: text, Actions: []Action{{Label: "\x1b[2J" + "Yes", URL: "u"}}}, "ASKUSER_QUESTION", "ASKUSER_JSON")
	want := `Drop\x00 the \x1b]0;owned\x07 table\u202e? Really`
	if got[0] != "ASKUSER_QUESTION="+want || want != prompt.Display(text) {
		t.Errorf("the command saw %q; want %q", got[0], want)
	}
	var p struct {
		Question string
		Actions  []struct{ Label string }
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(got[1], "ASKUSER_JSON=")), &p); err != nil {
		t.Fatal(err)
	}
	if p.Question != want || p.Actions[0].Label != `\x1b[2JYes` {
		t.Errorf("the JSON holds %q and %q", p.Question, p.Actions[0].Label)
	}
}

// A failure says which command failed, and how, with the start of what it
// said.
func TestStartFailure(t *testing.T) {
	r := Command{Name: "ASKUSER_NOTIFY_END_COMMAND", Line: "printf '%0600d' 0 >&2; exit 3"}.Start(Notice{})
	wait(t, r)
	err := r.Failed()
	if err == nil || !strings.HasPrefix(err.Error(), "exit status 3: 000") || len(err.Error()) != len("exit status 3: ")+500 {
		t.Errorf("Failed() = %v", err)
	}
	var b strings.Builder
	r.Warn(&b)
	if !strings.HasPrefix(b.String(), "Warning: ASKUSER_NOTIFY_END_COMMAND failed: exit status 3: 000") {
		t.Errorf("the warning: %q", b.String())
	}
}

// A command still running has not failed; no command runs nothing.
func TestRunning(t *testing.T) {
	r := Command{Line: "sleep 5"}.Start(Notice{})
	if err := r.Failed(); err != nil {
		t.Errorf("Failed() = %v while it runs", err)
	}
	if r := (Command{}).Start(Notice{}); r != nil {
		t.Error("no command started something")
	}
}
