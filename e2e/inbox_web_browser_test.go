package e2e

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/askuser/askuser/internal/approve"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/schema"
)

// These tests run askuser inbox --web with askers that have no terminal, as
// agents run them, and answer them as a person would: on the page in a
// headless Chromium, and on the inbox's terminal (its line screen, driven
// through its stdin), each view moving on when the other answers.

var inboxPageLine = regexp.MustCompile(`(?m)^Answer in your browser too: (http://\S+)$`)

// startWebInbox starts askuser inbox --web on a socket of the test's, with
// the variables env added, and returns it once it answers, with its page's
// address.
func startWebInbox(t *testing.T, env ...string) (*inboxProcess, string) {
	t.Helper()
	a := inbox.SocketAddr(filepath.Join(t.TempDir(), "inbox.sock"))
	cmd := exec.Command(askuserPath(t), "inbox", "--web")
	cmd.Env = append(inboxEnv(string(a)), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	in := &inboxProcess{stdin: stdin, screen: newScreenOut(), addr: a, client: a.Dial()}
	cmd.Stderr = in.screen
	in.process = startProcess(t, cmd, (*exec.Cmd).Start)
	t.Cleanup(func() { stdin.Close() })
	deadline := time.After(time.Minute)
	for {
		text, changed := in.screen.snapshot()
		if m := inboxPageLine.FindStringSubmatch(text); m != nil {
			if _, err := in.client.Probe(context.Background()); err != nil {
				t.Fatalf("the inbox printed its page but does not answer: %v", err)
			}
			return in, m[1]
		}
		select {
		case <-changed:
		case <-in.done:
			t.Fatalf("askuser inbox --web exited %d:\n%s", in.code(), in.screen)
		case <-deadline:
			t.Fatalf("askuser inbox --web printed no address; it shows:\n%s", in.screen)
		}
	}
}

// exited waits for an asker to end, and checks its exit code and exact
// stdout.
func (a *asker) exited(t *testing.T, code int, stdout string) {
	t.Helper()
	select {
	case <-a.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s still waits; stderr:\n%s", a.name, a.stderr)
	}
	if a.code() != code || a.stdout.String() != stdout {
		t.Errorf("%s: exit %d, stdout %q; want %d, %q; stderr:\n%s", a.name, a.code(), a.stdout, code, stdout, a.stderr)
	}
}

// sourceIs is a JavaScript expression: the page shows the set from name.
func sourceIs(name string) string {
	return `document.querySelector('#main[data-state=form] #queue .source') && ` + textIs("#queue .source", name)
}

const (
	inboxRichQuestions = `{"questions":[{"question":"Which database should we use?","header":"Database",
  "options":[{"label":"PostgreSQL (Recommended)","description":"Relational, rich features",
              "preview":"CREATE TABLE notes (\n  id    bigserial PRIMARY KEY,\n  body  text NOT NULL\n);"},
             {"label":"SQLite","description":"Embedded, zero configuration",
              "preview":"$ sqlite3 notes.db\nsqlite> .tables"}],
  "multiSelect":false},
 {"question":"Which features should the first release have?","header":"Features",
  "options":[{"label":"Login","description":"Email and password sign-in"},
             {"label":"Search","description":"Full-text search over every note"},
             {"label":"Export","description":"Download everything as JSON"}],
  "multiSelect":true}]}`
)

// inboxQuestionsDir is a directory with the questions of the askers:
// q.json (one question) and rich.json (two, with previews).
func inboxQuestionsDir(t *testing.T) string {
	t.Helper()
	dir := questionsDir(t)
	if err := os.WriteFile(filepath.Join(dir, "rich.json"), []byte(inboxRichQuestions), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBrowserInbox answers the inbox's queue on its page in a real headless
// Chromium and on its terminal, as a person would.
func TestBrowserInbox(t *testing.T) {
	browser := startBrowser(t)
	for _, tc := range []struct {
		name string
		test func(*testing.T, context.Context)
	}{
		{"PageAndTerminal", browserInboxPageAndTerminal},
		{"NextAndCancel", browserInboxNextAndCancel},
		{"WithoutJavaScript", browserInboxWithoutJavaScript},
		{"Phone", browserInboxPhone},
		{"OneTap", browserInboxOneTap},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.test(t, browser) })
	}
}

// browserInboxPageAndTerminal answers the first set on the page, with a
// note, and the next on the terminal, each view moving on by itself when
// the other answers, and an asker killed while its set is on the page.
func browserInboxPageAndTerminal(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	in, url := startWebInbox(t)
	dir := inboxQuestionsDir(t)
	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, textIs("#title", "Nothing is waiting"))

	// The first set comes to the page by itself.
	first := startAsker(t, string(in.addr), dir, "first", "-f", "q.json")
	waitFor(t, ctx, sourceIs("first"))
	in.screen.waitFor(t, "From first · waiting ", 10*time.Second)
	do(t, ctx, click(`label[for="q0-2"]`))
	// How long it has waited goes on by itself.
	waitFor(t, ctx, `/^waiting [2-9]s$/.test(document.querySelector('#queue .waited').textContent)`)
	// Two more come: the page says so, and keeps what was chosen.
	second := startAsker(t, string(in.addr), dir, "second", "confirm", "Deploy now?")
	in.waitWaiting(t, 2, 10*time.Second)
	third := startAsker(t, string(in.addr), dir, "third", "input", "Name the release?")
	in.waitWaiting(t, 3, 10*time.Second)
	waitFor(t, ctx, textIs("#queue .more", "2 more waiting"))
	if !eval[bool](t, ctx, `document.querySelector('#q0-2').checked`) {
		t.Error("the choice was lost when the page learned that more sets wait")
	}
	if got := eval[string](t, ctx, `document.title`); got != "Question: Database · askuser inbox" {
		t.Errorf("title = %q", got)
	}

	// Answered on the page, with a note: the asker prints exactly that,
	// and the terminal moves on to the next set.
	do(t, ctx, click("#q0-note-box summary"))
	waitFor(t, ctx, `document.activeElement.id === 'q0-note'`)
	do(t, ctx, chromedp.KeyEvent("One file, <no> server"), click("#submit-button"))
	waitFor(t, ctx, textIs("#notice", "Sent to first."))
	waitFor(t, ctx, sourceIs("second"))
	first.exited(t, 0, `{"answers":{"Database":"SQLite"},"annotations":{"Database":{"notes":"One file, <no> server"}}}`+"\n")
	// The terminal records the answer given on the page, as its own.
	in.screen.waitFor(t, "✔ first, on the web page · Database: SQLite\n  Note: One file, <no> server\n", 10*time.Second)
	in.screen.waitFor(t, "From second · waiting ", 10*time.Second)
	in.screen.waitFor(t, "Deploy now? [Y/n]: ", 10*time.Second)
	// The page is ready for keys on the next set: its default, Yes, is
	// chosen and in focus.
	waitFor(t, ctx, `document.activeElement.id === 'q0-1' && document.activeElement.checked`)
	if got := eval[string](t, ctx, `document.querySelector('#q0 .chip').textContent`); got != "Confirm" {
		t.Errorf("the confirm's chip says %q", got)
	}

	// Answered on the terminal: the page moves on by itself, and says so.
	if _, err := io.WriteString(in.stdin, "y\n"); err != nil {
		t.Fatal(err)
	}
	second.exited(t, 0, "")
	waitFor(t, ctx, textIs("#notice", "The questions from second were answered elsewhere."))
	waitFor(t, ctx, sourceIs("third"))
	// A screen reader is told too.
	waitFor(t, ctx, textIs("#live", "The questions from second were answered elsewhere."))
	in.screen.waitFor(t, "From third · waiting ", 10*time.Second)

	// The asker killed while its set is on the page: the page says so and
	// moves on.
	do(t, ctx, chromedp.SendKeys(chromedp.CSS("#q0-other"), "v2"))
	third.cmd.Process.Kill()
	<-third.done
	waitFor(t, ctx, textIs("#notice", "The asker from third stopped waiting: its questions were withdrawn."))
	waitFor(t, ctx, textIs("#title", "Nothing is waiting"))
	in.screen.waitFor(t, "The questions from third were withdrawn (", 10*time.Second)

	// The inbox quits: the page says so.
	in.stdin.Close()
	// The page's wait learns it; or, when the inbox is gone before the
	// page's next wait reaches it, the page finds nothing there.
	waitFor(t, ctx, textIs("#title", "The inbox has quit")+" || "+textIs("#title", "The inbox is not running"))
	select {
	case <-in.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the inbox did not quit")
	}
}

// browserInboxNextAndCancel moves on with Next, cancels with Cancel (the
// asker exits 130), and answers with the keyboard alone.
func browserInboxNextAndCancel(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	in, url := startWebInbox(t)
	dir := inboxQuestionsDir(t)
	first := startAsker(t, string(in.addr), dir, "first", "-f", "q.json")
	in.waitWaiting(t, 1, 10*time.Second)
	second := startAsker(t, string(in.addr), dir, "second", "-f", "q.json")
	in.waitWaiting(t, 2, 10*time.Second)
	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, sourceIs("first"))
	waitFor(t, ctx, textIs("#queue .more", "1 more waiting"))

	do(t, ctx, click("#next-button"))
	waitFor(t, ctx, sourceIs("second"))
	do(t, ctx, click("#cancel-button"))
	waitFor(t, ctx, textIs("#notice", "Cancelled the questions from second."))
	waitFor(t, ctx, sourceIs("first"))
	second.exited(t, 130, "")

	// The set shown is ready for keys: 2 chooses, Enter sends.
	waitFor(t, ctx, `document.activeElement.id === 'q0-1'`)
	do(t, ctx, chromedp.KeyEvent("2"), chromedp.KeyEvent("\r"))
	waitFor(t, ctx, textIs("#notice", "Sent to first."))
	waitFor(t, ctx, textIs("#title", "Nothing is waiting"))
	first.exited(t, 0, `{"answers":{"Database":"SQLite"}}`+"\n")
	in.screen.waitFor(t, "✔ first, on the web page · Database: SQLite\n", 10*time.Second)
}

// browserInboxWithoutJavaScript answers on the page as a plain form: each
// reply shows the next set, and a form for a set answered meanwhile on the
// terminal is told so.
func browserInboxWithoutJavaScript(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	in, url := startWebInbox(t)
	dir := inboxQuestionsDir(t)
	first := startAsker(t, string(in.addr), dir, "first", "-f", "rich.json")
	in.waitWaiting(t, 1, 10*time.Second)
	second := startAsker(t, string(in.addr), dir, "second", "-f", "q.json")
	in.waitWaiting(t, 2, 10*time.Second)
	third := startAsker(t, string(in.addr), dir, "third", "-f", "q.json")
	in.waitWaiting(t, 3, 10*time.Second)

	do(t, ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#q1")))
	do(t, ctx, click(`label[for="q0-1"]`), click(`label[for="q1-2"]`), click(`label[for="q1-3"]`), click("#submit-button"))
	waitFor(t, ctx, textIs("#notice", "Sent to first."))
	waitFor(t, ctx, sourceIs("second"))
	first.exited(t, 0, `{"answers":{"Database":"PostgreSQL (Recommended)","Features":"Search, Export"}}`+"\n")

	// The terminal answers the set the page shows: the page, without its
	// script, cannot know, and the form it sends is refused and says why.
	in.screen.waitFor(t, "From second · waiting ", 10*time.Second)
	if _, err := io.WriteString(in.stdin, "1\n"); err != nil {
		t.Fatal(err)
	}
	second.exited(t, 0, `{"answers":{"Database":"PostgreSQL"}}`+"\n")
	do(t, ctx, click(`label[for="q0-2"]`), click("#submit-button"))
	waitFor(t, ctx, textIs("#notice", "Not sent: the questions from second had already been answered."))
	waitFor(t, ctx, sourceIs("third"))

	do(t, ctx, click(`label[for="q0-2"]`), click("#submit-button"))
	waitFor(t, ctx, textIs("#title", "Nothing is waiting"))
	third.exited(t, 0, `{"answers":{"Database":"SQLite"}}`+"\n")
	if !eval[bool](t, ctx, `getComputedStyle(document.querySelector('.again')).display !== 'none'`) {
		t.Error("without the script, the idle page has no link to look again")
	}
}

// browserInboxPhone checks that the page fits a phone, for each kind of
// set (questions with previews, yes/no, text, and an approval of a long
// command), and with -update-screenshots saves what it looks like to
// docs/inbox-phone.png.
func browserInboxPhone(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	in, url := startWebInbox(t)
	dir := inboxQuestionsDir(t)
	startAsker(t, string(in.addr), dir, "api-agent", "-f", "rich.json")
	in.waitWaiting(t, 1, 10*time.Second)
	startAsker(t, string(in.addr), dir, "release-bot", "confirm", "Tag v1.2.0?")
	// Each set is queued before the next asker starts: the order of the
	// sets is the one the walk with Next checks.
	in.waitWaiting(t, 2, 10*time.Second)
	startAsker(t, string(in.addr), dir, "docs-agent", "input", "Title of the post?")
	in.waitWaiting(t, 3, 10*time.Second)
	do(t, ctx,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS("#q1")),
	)
	waitFor(t, ctx, textIs("#queue .more", "2 more waiting"))
	do(t, ctx,
		click(`label[for="q0-1"]`),
		click(`label[for="q1-1"]`),
		click(`label[for="q1-2"]`),
		chromedp.Blur(chromedp.CSS("#q1-2")),
	)
	waitFor(t, ctx, textIs("#status", "2 of 2 answered"))
	// The three buttons fit on one line, each big enough for a finger.
	if got := eval[int](t, ctx, `new Set(['#cancel-button','#next-button','#submit-button'].map(s => Math.round(document.querySelector(s).getBoundingClientRect().top))).size`); got != 1 {
		t.Errorf("the buttons are on %d lines", got)
	}
	if h := eval[float64](t, ctx, `document.querySelector('#next-button').getBoundingClientRect().height`); h < 44 {
		t.Errorf("the Next button is %vpx high", h)
	}
	if *updateScreenshots {
		// The screenshot shows the top of the page, as a phone does, once
		// the progress bar has filled.
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
		waitFor(t, ctx, `document.querySelector('.fill').getBoundingClientRect().width === document.querySelector('.meter').getBoundingClientRect().width && window.scrollY === 0`)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("../docs", "inbox-phone.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	phoneFits(t, ctx, "api-agent's questions")

	// An approval, as askuser mcp's approve asks it, of a command too long
	// for a line.
	command := "rsync -avz --delete ./build/ deploy@example.com:/srv/www/releases/" + strings.Repeat("2026-11-27T04:40:00Z-", 8) + " && ssh deploy@example.com systemctl restart www"
	call, err := approve.ParseCall([]byte(`{"tool_name":"Bash","input":{"command":` + strconv.Quote(command) + `,"description":"Deploy"}}`))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schema.Compile(raw, schema.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	asking, err := call.Ask(approve.Settings{Who: "claude-code via MCP in ~/project", Schema: sch})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := json.Marshal(map[string]any{"questions": asking.Questions})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "approve.json"), doc, 0o644); err != nil {
		t.Fatal(err)
	}
	startAsker(t, string(in.addr), dir, "claude-code", "-f", "approve.json")
	in.waitWaiting(t, 4, 10*time.Second)
	waitFor(t, ctx, textIs("#queue .more", "3 more waiting"))
	for _, next := range []string{"release-bot", "docs-agent", "claude-code"} {
		do(t, ctx, click("#next-button"))
		waitFor(t, ctx, sourceIs(next))
		phoneFits(t, ctx, next+"'s set")
	}
}

// phoneFits checks the page on a phone: it is no wider than the screen,
// every control can be scrolled into view whole and is not covered there
// (by the bar of buttons, say), and no box cuts off its content: text
// wraps, and only a preview scrolls within its box.
func phoneFits(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
		t.Errorf("%s: the page is %dpx wider than a 390px screen", what, w)
	}
	bad := eval[[]string](t, ctx, `(() => {
		const bad = [];
		const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.htmlFor ? '[for=' + e.htmlFor + ']' : '');
		// What a note box holds is reachable once it is opened.
		for (const d of document.querySelectorAll('#main details')) d.open = true;
		const controls = document.querySelectorAll('#main a[href], #main button, #main input, #main textarea, #main summary, #main label, .bar button');
		for (const e of controls) {
			const box = e.getBoundingClientRect();
			// Hidden, or drawn by its label (a radio button): the label is
			// the control then.
			if (box.width <= 1 || box.height <= 1 || !e.checkVisibility({visibilityProperty: true})) continue;
			e.scrollIntoView({block: 'center', inline: 'nearest'});
			const r = e.getBoundingClientRect();
			if (r.left < 0 || r.right > innerWidth || r.top < 0 || r.bottom > innerHeight) {
				bad.push(name(e) + ' does not fit on the screen');
				continue;
			}
			const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			if (!top || !(e.contains(top) || (e.labels && [...e.labels].some(l => l.contains(top))))) {
				bad.push(name(e) + ' is covered by ' + (top ? name(top) : 'nothing'));
			}
		}
		for (const e of document.querySelectorAll('#main *, .bar *')) {
			const cs = getComputedStyle(e);
			const scrolls = /auto|scroll/.test(cs.overflowX) && e.tagName === 'PRE';
			if (!scrolls && e.getBoundingClientRect().width > 1 && e.checkVisibility() && e.scrollWidth > e.clientWidth + 1 && cs.display !== 'inline') {
				bad.push(name(e) + ' cuts off ' + (e.scrollWidth - e.clientWidth) + 'px of its content');
			}
		}
		window.scrollTo(0, 0);
		return bad;
	})()`)
	for _, b := range bad {
		t.Errorf("%s on a phone: %s", what, b)
	}
}

// notice is what the inbox told its notification command of a set, as
// ASKUSER_JSON holds it.
type notice struct {
	Event, From, URL string
	Actions          []struct{ Label, URL, Method string }
}

// notices reads what the notification command wrote to told, a line each,
// until there are n.
func notices(t *testing.T, told string, n int) []notice {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(told)
		if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(b) > 0 && len(lines) >= n {
			var got []notice
			for _, l := range lines {
				var e notice
				if err := json.Unmarshal([]byte(l), &e); err != nil {
					t.Fatalf("the command was told %q: %v", l, err)
				}
				got = append(got, e)
			}
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command was told %d notices, want %d:\n%s", len(b), n, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// browserInboxOneTap follows sets from their notification to a phone, at
// 390x844: the page the notification opens (ASKUSER_URL) shows the set;
// the link of a button, opened in the browser, answers nothing, as a
// preview of it must not; the button's own request, a POST as ntfy's app
// sends it, answers the set in one tap, and the page open on the phone
// says so and moves on; the button used again answers nothing. A set of
// several questions comes without buttons, and is answered on its page.
func browserInboxOneTap(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	dir := inboxQuestionsDir(t)
	told := filepath.Join(dir, "told")
	in, _ := startWebInbox(t, `ASKUSER_NOTIFY_COMMAND=printf '%s\n' "$ASKUSER_JSON" >> `+told)
	bot := startAsker(t, string(in.addr), dir, "release-bot", "confirm", "Tag v1.2.0?")
	tagged := notices(t, told, 1)[0]
	if tagged.Event != "asked" || tagged.From != "release-bot" || len(tagged.Actions) != 2 || tagged.Actions[0].Label != "Yes" || tagged.Actions[0].Method != http.MethodPost {
		t.Fatalf("the notification: %+v", tagged)
	}
	do(t, ctx,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		chromedp.Navigate(tagged.URL),
	)
	waitFor(t, ctx, sourceIs("release-bot"))
	phoneFits(t, ctx, "the page of release-bot's set")

	// The button's link, opened in a browser, answers nothing.
	link := newTab(t, browser)
	do(t, link, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), chromedp.Navigate(tagged.Actions[0].URL))
	waitFor(t, link, `document.body.textContent.startsWith("Not answered: this link answers with a POST")`)
	if w := eval[int](t, link, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
		t.Errorf("the link's reply is %dpx wider than the phone", w)
	}

	// The button answers, and the page on the phone moves on by itself.
	if r := new(webRun).do(t, http.MethodPost, tagged.Actions[0].URL, "", nil); r.code != http.StatusOK || r.body != "Answered Yes to the questions from release-bot.\n" {
		t.Fatalf("the button: %d %q", r.code, r.body)
	}
	bot.exited(t, 0, "")
	waitFor(t, ctx, textIs("#notice", "The questions from release-bot were answered from the notification."))
	waitFor(t, ctx, textIs("#title", "Nothing is waiting"))
	in.screen.waitFor(t, "✔ release-bot, from the notification · Tag v1.2.0? Yes\n", 10*time.Second)
	for _, a := range tagged.Actions {
		if r := new(webRun).do(t, http.MethodPost, a.URL, "", nil); r.code != http.StatusConflict || r.body != "Not answered: the questions from release-bot had already been answered from the notification.\n" {
			t.Errorf("the button %s again: %d %q", a.Label, r.code, r.body)
		}
	}

	// Several questions: no buttons; the notification opens the set's
	// page, where it is answered.
	api := startAsker(t, string(in.addr), dir, "api-agent", "-f", "rich.json")
	rich := notices(t, told, 2)[1]
	if rich.From != "api-agent" || len(rich.Actions) != 0 {
		t.Fatalf("the notification: %+v", rich)
	}
	do(t, ctx, chromedp.Navigate(rich.URL), chromedp.WaitVisible(chromedp.CSS("#q1")))
	phoneFits(t, ctx, "the page of api-agent's set")
	do(t, ctx, click(`label[for="q0-2"]`), click(`label[for="q1-1"]`), click("#submit-button"))
	waitFor(t, ctx, textIs("#notice", "Sent to api-agent."))
	api.exited(t, 0, `{"answers":{"Database":"SQLite","Features":"Login"}}`+"\n")
}
