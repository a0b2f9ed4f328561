package cmd

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/history"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/schema"
)

// The recipes of docs/away.md, run as the page prints them, against a
// local server that records what a push service or a webhook would be
// sent.

// recipe runs the snippet under <!-- setup: NAME --> of docs/away.md, as
// awaySnippet does, with service, the address of the push service or
// webhook in it, replaced by url, and returns the variables it sets, for
// the inbox: both notification commands among them.
func recipe(t *testing.T, name, service, url string) map[string]string {
	t.Helper()
	vars := awaySnippet(t, name, map[string]string{service: url})
	if vars["ASKUSER_NOTIFY_COMMAND"] == "" || vars["ASKUSER_NOTIFY_END_COMMAND"] == "" {
		t.Fatalf("the %s snippet sets no command: %q", name, vars)
	}
	return vars
}

// awaySnippet runs the snippet under <!-- setup: NAME --> of docs/away.md
// in the shell, with each key of replace (a placeholder of the page)
// replaced by its value, and returns the variables of askuser it sets.
func awaySnippet(t *testing.T, name string, replace map[string]string) map[string]string {
	t.Helper()
	page, err := os.ReadFile("../docs/away.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("<!-- setup: " + name + " -->\n```sh\n([^`]*)```").FindSubmatch(page)
	if m == nil {
		t.Fatalf("docs/away.md has no snippet under <!-- setup: %s -->", name)
	}
	snippet := string(m[1])
	for from, to := range replace {
		if !strings.Contains(snippet, from) {
			t.Fatalf("the %s snippet has no %q:\n%s", name, from, snippet)
		}
		snippet = strings.ReplaceAll(snippet, from, to)
	}
	cmd := exec.Command("sh", "-c", snippet+"env -0")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the %s snippet: %v", name, err)
	}
	vars := map[string]string{}
	for kv := range strings.SplitSeq(string(out), "\x00") {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "ASKUSER_") {
			vars[k] = v
		}
	}
	return vars
}

// sent is a request the recording server took.
type sent struct {
	method, path string
	header       http.Header
	body         string
}

// recorder is a local server in the push service's place: it records
// every request, and answers 200.
func recorder(t *testing.T) (*httptest.Server, <-chan sent) {
	t.Helper()
	got := make(chan sent, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- sent{r.Method, r.URL.Path, r.Header, string(body)}
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

func next(t *testing.T, got <-chan sent, r *webInbox) sent {
	t.Helper()
	select {
	case s := <-got:
		return s
	case <-time.After(10 * time.Second):
		t.Fatalf("nothing was sent; the inbox's stderr:\n%s", r.stderr)
	}
	return sent{}
}

// nothingMore checks that nothing more is sent for a while.
func nothingMore(t *testing.T, got <-chan sent) {
	t.Helper()
	select {
	case s := <-got:
		t.Errorf("sent again: %s %s %q", s.method, s.path, s.body)
	case <-time.After(300 * time.Millisecond):
	}
}

// ntfyAction is an action button as ntfy reads it from the Actions header.
type ntfyAction struct {
	Action, Label, URL, Method string
	Clear                      bool
}

// tapAction does what ntfy's app does when the button labelled label is
// tapped: it sends the action's request, without a body, and returns the
// reply's status and text.
func tapAction(t *testing.T, actions []ntfyAction, label string) (int, string) {
	t.Helper()
	for _, a := range actions {
		if a.Label == label {
			if a.Action != "http" || a.Method != http.MethodPost || !a.Clear {
				t.Errorf("the button %q: %+v", label, a)
			}
			req, _ := http.NewRequest(a.Method, a.URL, nil)
			return send(t, req)
		}
	}
	t.Fatalf("no button %q in %+v", label, actions)
	return 0, ""
}

func choiceRequest(from string) *inbox.Request {
	raw, _ := json.Marshal([]schema.Question{{Header: "Database", Question: "Which database?", Options: []schema.Option{
		{Label: "PostgreSQL", Description: "Relational"}, {Label: "SQLite", Description: "Embedded"}}}})
	return &inbox.Request{From: from, Questions: raw}
}

// ask asks req in the inbox r, and returns the asker's end.
func (r *webInbox) ask(req *inbox.Request) <-chan inbox.Event {
	ended := make(chan inbox.Event, 1)
	go func() {
		e, _ := inbox.SocketAddr(r.sock).Dial().Ask(context.Background(), req, nil)
		ended <- e
	}()
	return ended
}

func answered(t *testing.T, ended <-chan inbox.Event, want string) {
	t.Helper()
	select {
	case e := <-ended:
		if e.Event != inbox.EventAnswered || len(e.Answers) != 1 || e.Answers[0].String() != want {
			t.Errorf("the asker got %+v, want %s", e, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the asker got no answer")
	}
}

// waitHistory waits for the history at path to hold a set, and returns
// the newest.
func waitHistory(t *testing.T, path string) history.Record {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if rs, _, err := history.Read(path); err == nil && len(rs) > 0 {
			return rs[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the history at %s holds nothing", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var setName = regexp.MustCompile(`^[0-9a-f]{32}$`)

// The ntfy recipe: a set of one choice is pushed with who asks, its
// question, its page and a button per option; one request to a button's
// link, as ntfy's app sends it, answers the asker; and the notification is
// then deleted, by the sequence ID it was pushed with.
func TestNtfyRecipeOneTap(t *testing.T) {
	ntfy, got := recorder(t)
	vars := recipe(t, "ntfy", "https://ntfy.sh/", ntfy.URL+"/")
	vars["XDG_STATE_HOME"] = t.TempDir()
	r := startWebInbox(t, vars, "--web")
	ended := r.ask(choiceRequest("deployer"))
	push := next(t, got, r)
	seq := push.header.Get("X-Sequence-ID")
	page := r.page.Scheme + "://" + r.page.Host + "/sets/1/?token=" + r.page.Query().Get("token")
	if push.method != http.MethodPost || push.path != "/your-secret-topic" || push.header.Get("Title") != "askuser: deployer" ||
		push.header.Get("Click") != page || !setName.MatchString(seq) || push.body != "Which database?" {
		t.Fatalf("pushed %s %s %v %q", push.method, push.path, push.header, push.body)
	}
	var actions []ntfyAction
	if err := json.Unmarshal([]byte(push.header.Get("Actions")), &actions); err != nil || len(actions) != 2 {
		t.Fatalf("the Actions header %q: %v", push.header.Get("Actions"), err)
	}
	if code, body := tapAction(t, actions, "SQLite"); code != http.StatusOK || body != "Answered SQLite to the questions from deployer.\n" {
		t.Errorf("the tap: %d %q", code, body)
	}
	answered(t, ended, "SQLite")
	if del := next(t, got, r); del.method != http.MethodDelete || del.path != "/your-secret-topic/"+seq {
		t.Errorf("then sent %s %s, want the notification deleted", del.method, del.path)
	}
	r.waitStderr(t, "✔ deployer, from the notification · Database: SQLite\n")
	// The history keeps it as answered from the notification.
	kept := waitHistory(t, filepath.Join(vars["XDG_STATE_HOME"], "askuser", history.FileName))
	if kept.From != "deployer" || kept.How() != "answered from the notification" || kept.Ended.Before(kept.Asked) || kept.Answers != nil {
		t.Errorf("the history keeps %+v", kept)
	}
	// The other button, tapped late, answers nothing, and says why.
	if code, body := tapAction(t, actions, "PostgreSQL"); code != http.StatusConflict || body != "Not answered: the questions from deployer had already been answered from the notification.\n" {
		t.Errorf("the other button, late: %d %q", code, body)
	}
	nothingMore(t, got)
}

// The ntfy recipe takes the notification back when the set is answered at
// the inbox's terminal; a set of typed text is pushed without buttons, to
// be answered on its page.
func TestNtfyRecipeTakenBack(t *testing.T) {
	ntfy, got := recorder(t)
	r := startWebInbox(t, recipe(t, "ntfy", "https://ntfy.sh/", ntfy.URL+"/"), "--web")
	raw, _ := json.Marshal([]schema.Question{schema.InputQuestion("Name the release?", "", "")})
	ended := r.ask(&inbox.Request{From: "releaser", Questions: raw})
	push := next(t, got, r)
	if push.header.Get("Actions") != "[]" || push.body != "Name the release?" || push.header.Get("Click") == "" {
		t.Fatalf("pushed %v %q", push.header, push.body)
	}
	r.waitStderr(t, "Name the release?\nYour answer: ")
	if _, err := io.WriteString(r.in, "v1.2\n"); err != nil {
		t.Fatal(err)
	}
	answered(t, ended, "v1.2")
	del := next(t, got, r)
	if del.method != http.MethodDelete || del.path != "/your-secret-topic/"+push.header.Get("X-Sequence-ID") {
		t.Errorf("then sent %s %s, want the notification deleted", del.method, del.path)
	}
	nothingMore(t, got)
}

// With ASKUSER_NOTIFY_PRIVATE, nothing of the questions' text reaches the
// push service, neither the question nor its header nor the options'
// labels: only who asks, and the set's page.
func TestNtfyRecipePrivate(t *testing.T) {
	ntfy, got := recorder(t)
	vars := recipe(t, "ntfy", "https://ntfy.sh/", ntfy.URL+"/")
	vars["ASKUSER_NOTIFY_PRIVATE"] = "1"
	r := startWebInbox(t, vars, "--web")
	ended := r.ask(choiceRequest("deployer"))
	push := next(t, got, r)
	if push.header.Get("Title") != "askuser: deployer" || push.header.Get("Click") == "" || push.header.Get("Actions") != "[]" || push.body != "Questions are waiting." {
		t.Errorf("pushed %v %q", push.header, push.body)
	}
	r.waitStderr(t, "Which database?")
	if _, err := io.WriteString(r.in, "1\n"); err != nil {
		t.Fatal(err)
	}
	answered(t, ended, "PostgreSQL")
	all := []sent{push, next(t, got, r)}
	for _, s := range all {
		text := s.method + s.path + s.body + fmtHeader(s.header)
		for _, secret := range []string{"Database", "Which database", "PostgreSQL", "SQLite", "Relational"} {
			if strings.Contains(text, secret) {
				t.Errorf("%q reached the push service: %s", secret, text)
			}
		}
	}
}

func fmtHeader(h http.Header) string {
	var b strings.Builder
	_ = h.Write(&b)
	return b.String()
}

// The webhook recipe posts every notice as one JSON object: the set asked,
// with its buttons, one of which answers it, and then how it ended.
func TestWebhookRecipe(t *testing.T) {
	hook, got := recorder(t)
	r := startWebInbox(t, recipe(t, "webhook", "https://hooks.example.com/askuser", hook.URL+"/hook"), "--web")
	ended := r.ask(choiceRequest("deployer"))
	asked := next(t, got, r)
	var body struct {
		Event, Set, From, Header, Question, URL string
		Actions                                 []ntfyAction
	}
	if err := json.Unmarshal([]byte(asked.body), &body); err != nil || asked.header.Get("Content-Type") != "application/json" {
		t.Fatalf("posted %v %q: %v", asked.header, asked.body, err)
	}
	if body.Event != "asked" || !setName.MatchString(body.Set) || body.From != "deployer" || body.Header != "Database" ||
		body.Question != "Which database?" || !strings.Contains(body.URL, "/sets/1/?token=") || len(body.Actions) != 2 {
		t.Errorf("posted %+v", body)
	}
	if code, _ := tapAction(t, body.Actions, "PostgreSQL"); code != http.StatusOK {
		t.Errorf("the tap: %d", code)
	}
	answered(t, ended, "PostgreSQL")
	end := next(t, got, r)
	if want := `{"event":"ended","set":"` + body.Set + `","from":"deployer","outcome":"answered","via":"notification"}`; end.body != want {
		t.Errorf("then posted %q, want %q", end.body, want)
	}
}

// A set still waiting after --remind is told of again, once, with the
// same name for the push service; its end is told after both.
func TestInboxRemind(t *testing.T) {
	dir := t.TempDir()
	log := dir + "/told"
	record := `printf '%s %s\n' "$ASKUSER_EVENT" "$ASKUSER_SET" >> "` + log + `"`
	r := startWebInbox(t, map[string]string{"ASKUSER_NOTIFY_COMMAND": record, "ASKUSER_NOTIFY_END_COMMAND": record, "ASKUSER_REMIND": "300ms"}, "--web")
	ended := r.ask(confirmRequest("deployer", "Deploy now?"))
	r.waitStderr(t, "Deploy now? [Y/n]: ")
	time.Sleep(time.Second)
	if _, err := io.WriteString(r.in, "y\n"); err != nil {
		t.Fatal(err)
	}
	answered(t, ended, "Yes")
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(log)
		lines := strings.Fields(string(b))
		if len(lines) == 6 {
			if lines[0] != "asked" || lines[2] != "reminded" || lines[4] != "ended" || lines[1] != lines[3] || lines[3] != lines[5] || !setName.MatchString(lines[1]) {
				t.Errorf("told:\n%s", b)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("told:\n%s", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
