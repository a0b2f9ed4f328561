package e2e

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web"
	"github.com/askuser/askuser/schema"
)

// These tests drive the page of askuser --ui web in a real headless
// Chromium, the way a person would: clicks, keys, typing. They need
// Chromium: when it is missing they install it with .ci/install-chromium
// (Debian's package), and fail rather than pass without testing anything
// when that cannot be done. Under -short, which installs nothing, they are
// skipped instead.

var updateScreenshots = flag.Bool("update-screenshots", false, "write the screenshots of the web page to docs/")

// chromiumPath finds Chromium: $CHROMIUM, else the usual names, else
// Debian's, installed by the project's own script when installing is set;
// when it is not, the test is skipped.
func chromiumPath(t testing.TB, installing bool) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	find := func() string {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
			if p, err := exec.LookPath(name); err == nil {
				return p
			}
		}
		return ""
	}
	if p := find(); p != "" {
		return p
	}
	if !installing {
		t.Skip("Chromium is not installed, and -short installs nothing: the browser tests are skipped")
	}
	t.Log("Chromium not found: installing it with .ci/install-chromium")
	if out, err := exec.Command("sh", "../.ci/install-chromium").CombinedOutput(); err != nil {
		t.Logf(".ci/install-chromium: %v\n%s", err, out)
	} else if p := find(); p != "" {
		return p
	}
	t.Fatal("Chromium is needed to test the web page and was not found.\n" +
		"Install it with: sudo apt-get install -y chromium   (or run .ci/install-chromium),\n" +
		"or set CHROMIUM to the path of a Chromium or Chrome binary.")
	return ""
}

// startBrowser starts a headless Chromium for the test and its subtests.
// Starting one is the slow part, so the subtests share it, each in a tab
// of its own.
func startBrowser(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath(t, !testing.Short())),
		chromedp.Headless,
		chromedp.NoSandbox, // the tests may run as root, in a container
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
	})
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return browser
}

// newTab opens a tab for one subtest, closed when it ends. The tab acts as
// if its window had the focus, as a person's would.
func newTab(t *testing.T, browser context.Context) context.Context {
	t.Helper()
	tab, cancelTab := chromedp.NewContext(browser)
	ctx, cancelTime := context.WithTimeout(tab, 30*time.Second)
	t.Cleanup(func() {
		cancelTime()
		cancelTab()
	})
	if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	// The tab asks for reduced motion, so that the page scrolls at once: a
	// smooth scroll still moving when a click lands (as on a loaded
	// machine) would move the element out from under the pointer.
	reduced := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, reduced); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	return ctx
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("browser: %v\npage:\n%s", err, pageText(ctx))
	}
}

// dispatchKey sends key events one by one, as the browser gets them from
// the system.
func dispatchKey(events ...*input.DispatchKeyEventParams) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, e := range events {
			if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, *e); err != nil {
				return err
			}
		}
		return nil
	})
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitFor waits until the JavaScript expression is true in the page. It
// polls from outside, since the page's policy forbids the eval that
// chromedp's own polling needs.
func waitFor(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!(`+expr+`)`))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s (last error: %v); page:\n%s", expr, err, pageText(ctx))
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func pageText(ctx context.Context) string {
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ''`))
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return s
}

func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// textIs is a JavaScript expression: the element's text is want.
func textIs(sel, want string) string {
	return fmt.Sprintf(`(document.querySelector(%s)||{}).textContent === %s`, js(sel), js(want))
}

func click(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(chromedp.CSS(sel))
}

func checkStdout(t *testing.T, r *webRun, want string) {
	t.Helper()
	if got := r.stdout.String(); got != want+"\n" {
		t.Errorf("stdout = %q, want %q", got, want+"\n")
	}
}

// TestBrowser drives the page in a real headless Chromium, the way a person
// would: clicks, keys, typing.
func TestBrowser(t *testing.T) {
	browser := startBrowser(t)
	for _, tc := range []struct {
		name string
		test func(*testing.T, context.Context)
	}{
		{"SingleChoice", browserSingleChoice},
		{"MultiChoiceByKeyboard", browserMultiChoiceByKeyboard},
		{"Other", browserOther},
		{"TwoQuestions", browserTwoQuestions},
		{"TextQuestion", browserTextQuestion},
		{"Cancel", browserCancel},
		{"InterruptWithdrawsTheQuestion", browserInterruptWithdrawsTheQuestion},
		{"Killed", browserKilled},
		{"WithoutJavaScript", browserWithoutJavaScript},
		{"Note", browserNote},
		{"NoteReachesTheAsker", browserNoteReachesTheAsker},
		{"Screenshots", browserScreenshots},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.test(t, browser) })
	}
}

func browserSingleChoice(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	r := startWeb(t, oneQuestion)
	do(t, ctx, chromedp.Navigate(r.url), chromedp.WaitVisible(chromedp.CSS("#q0")))

	if got := eval[string](t, ctx, `document.title`); got != "Question: Database · askuser" {
		t.Errorf("title = %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#q0 .chip').textContent`); got != "Database" {
		t.Errorf("chip = %q, want Database", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('label[for=q0-1] .badge').textContent`); got != "Recommended" {
		t.Errorf("the recommended option is not marked: %q", got)
	}
	// The preview follows the option in focus, starting with the first.
	waitFor(t, ctx, `document.querySelector('#q0 .preview.active').id === 'q0-1-preview'`)
	do(t, ctx, chromedp.Focus(chromedp.CSS("#q0-2")))
	waitFor(t, ctx, `document.querySelector('#q0 .preview.active').id === 'q0-2-preview'`)
	if got := eval[string](t, ctx, `document.querySelector('#q0 .preview.active pre').textContent`); got != "$ sqlite3 notes.db\nsqlite> .tables" {
		t.Errorf("preview = %q", got)
	}
	do(t, ctx, click(`label[for="q0-2"]`))
	waitFor(t, ctx, textIs("#status", "1 of 1 answered"))
	do(t, ctx, click("#submit-button"))

	waitFor(t, ctx, textIs("#title", "Answered"))
	if got := eval[string](t, ctx, `document.querySelector('.summary dd').textContent`); got != "SQLite" {
		t.Errorf("summary answer = %q, want SQLite", got)
	}
	r.exit(t, 0)
	checkStdout(t, r, `{"answers":{"Database":"SQLite"}}`)
	if got := eval[string](t, ctx, `document.title`); got != "Answered · askuser" {
		t.Errorf("title after answering = %q", got)
	}
}

func browserMultiChoiceByKeyboard(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	r := startWeb(t, `{"questions":[{"question":"Which features should the first release have?","header":"Features",
	  "options":[{"label":"Login","description":"Email and password sign-in"},
	             {"label":"Search","description":"Full-text search"},
	             {"label":"Export","description":"Download as JSON"}],
	  "multiSelect":true}]}`)
	do(t, ctx, chromedp.Navigate(r.url), chromedp.WaitVisible(chromedp.CSS("#q0")))
	if got := eval[string](t, ctx, `document.querySelector('#q0-1').type`); got != "checkbox" {
		t.Errorf("a multi-select option is a %s, want a checkbox", got)
	}
	// Number keys toggle options, as in the terminal; Space does too.
	do(t, ctx,
		chromedp.Focus(chromedp.CSS("#q0-1")),
		chromedp.KeyEvent("3"),
		chromedp.KeyEvent("1"),
		chromedp.KeyEvent("2"),
		chromedp.KeyEvent("2"),
		chromedp.Focus(chromedp.CSS("#q0-2")),
		chromedp.KeyEvent(" "),
		chromedp.KeyEvent(" "),
	)
	waitFor(t, ctx, `document.querySelector('#q0-1').checked && !document.querySelector('#q0-2').checked && document.querySelector('#q0-3').checked`)
	// Enter submits once every question is answered.
	do(t, ctx, chromedp.KeyEvent("\r"))
	waitFor(t, ctx, textIs("#title", "Answered"))
	r.exit(t, 0)
	checkStdout(t, r, `{"answers":{"Features":"Login, Export"}}`)
}

func browserOther(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	r := startWeb(t, oneQuestion)
	do(t, ctx, chromedp.Navigate(r.url), chromedp.WaitVisible(chromedp.CSS("#q0")))
	// Typing an answer of one's own chooses Other.
	do(t, ctx, chromedp.SendKeys(chromedp.CSS("#q0-other"), "Maria<DB> & \"x\""))
	waitFor(t, ctx, `document.querySelector('#q0-0').checked`)
	waitFor(t, ctx, `document.querySelector('#q0 .pane').classList.contains('empty')`)
	do(t, ctx, chromedp.KeyEvent("\r"))
	waitFor(t, ctx, textIs("#title", "Answered"))
	r.exit(t, 0)
	checkStdout(t, r, `{"answers":{"Database":"Maria<DB> & \"x\""}}`)
}

func browserTwoQuestions(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	r := startWeb(t, twoQuestions)
	do(t, ctx, chromedp.Navigate(r.url), chromedp.WaitVisible(chromedp.CSS("#q1")))
	if got := eval[string](t, ctx, `document.querySelector('#q1 .count').textContent`); got != "Question 2 of 2" {
		t.Errorf("count = %q", got)
	}
	do(t, ctx, click(`label[for="q0-1"]`))
	waitFor(t, ctx, textIs("#status", "1 of 2 answered"))

	// Submitting with a question unanswered says so, and sends nothing.
	do(t, ctx, click("#submit-button"))
	waitFor(t, ctx, textIs("#q1-error", "Choose at least one option."))
	waitFor(t, ctx, textIs("#status", "One question still needs an answer."))
	waitFor(t, ctx, `document.activeElement.id === 'q1-1'`)
	if !r.running() {
		t.Fatalf("askuser stopped; stderr:\n%s", r.stderr)
	}

	do(t, ctx, click(`label[for="q1-2"]`))
	waitFor(t, ctx, textIs("#q1-error", ""))
	// Choosing Other with the mouse goes on to its text field.
	do(t, ctx, click(`label[for="q1-0"]`))
	waitFor(t, ctx, `document.activeElement.id === 'q1-other'`)
	do(t, ctx, chromedp.KeyEvent("Dark mode"))
	waitFor(t, ctx, textIs("#status", "2 of 2 answered"))
	do(t, ctx, click("#submit-button"))

	waitFor(t, ctx, textIs("#title", "Answered"))
	got := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('.summary .line')).map(l => l.querySelector('.chip').textContent + ': ' + l.querySelector('dd').textContent)`)
	want := []string{"Database: PostgreSQL (Recommended)", "Features: Search, Dark mode"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("summary = %q, want %q", got, want)
	}
	r.exit(t, 0)
	checkStdout(t, r, `{"answers":{"Database":"PostgreSQL (Recommended)","Features":"Search, Dark mode"}}`)
}

func browserTextQuestion(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	r := startWeb(t, `{"questions":[
	  {"question":"What should the component be called?","header":"Name","type":"text","placeholder":"UserCard"},
	  {"question":"Which language?","header":"Language","options":[{"label":"TypeScript","description":"Typed"},{"label":"JavaScript","description":"Untyped"}],"multiSelect":false}]}`)
	do(t, ctx, chromedp.Navigate(r.url), chromedp.WaitVisible(chromedp.CSS("#q1")))
	if got := eval[string](t, ctx, `document.querySelector('#q0-other').placeholder`); got != "UserCard" {
		t.Errorf("placeholder = %q", got)
	}
	// Enter in the text goes on to the next question; Enter there submits.
	do(t, ctx, chromedp.SendKeys(chromedp.CSS("#q0-other"), "OrderList"), chromedp.KeyEvent("\r"))
	waitFor(t, ctx, `document.activeElement.id === 'q1-1'`)
	do(t, ctx, chromedp.KeyEvent("2"), chromedp.KeyEvent("\r"))
	waitFor(t, ctx, textIs("#title", "Answered"))
	r.exit(t, 0)
	checkStdout(t, r, `{"answers":{"Name":"OrderList","Language":"JavaScript"}}`)
}

func browserCancel(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	r := startWeb(t, oneQuestion)
	do(t, ctx, chromedp.Navigate(r.url), chromedp.WaitVisible(chromedp.CSS("#q0")), click(`label[for="q0-1"]`))
	do(t, ctx, click("#cancel-button"))
	waitFor(t, ctx, textIs("#title", "Cancelled"))
	r.exit(t, 130)
	if r.stdout.Len() != 0 {
		t.Errorf("stdout = %q, want nothing", r.stdout.String())
	}
	if !strings.Contains(r.stderr.String(), "Error: Cancelled by the user\n") {
		t.Errorf("stderr does not say it was cancelled:\n%s", r.stderr)
	}
}

func browserInterruptWithdrawsTheQuestion(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	r := startWeb(t, oneQuestion)
	do(t, ctx, chromedp.Navigate(r.url), chromedp.WaitVisible(chromedp.CSS("#q0")), click(`label[for="q0-2"]`))
	// Ctrl+C in the terminal.
	if err := r.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	r.exit(t, 130)
	waitFor(t, ctx, textIs("#title", "Question withdrawn"))
	if r.stdout.Len() != 0 {
		t.Errorf("stdout = %q, want nothing", r.stdout.String())
	}
}

func browserKilled(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	r := startWeb(t, oneQuestion)
	do(t, ctx, chromedp.Navigate(r.url), chromedp.WaitVisible(chromedp.CSS("#q0")), click(`label[for="q0-2"]`))
	// Killed outright, askuser cannot say goodbye; the page still learns
	// that nothing it sends will be read.
	r.cmd.Process.Kill()
	<-r.done
	waitFor(t, ctx, textIs("#title", "Question withdrawn"))
}

func browserWithoutJavaScript(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	r := startWeb(t, twoQuestions)
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.Navigate(r.url), chromedp.WaitVisible(chromedp.CSS("#q1")))
	// Without the script, every preview shows, and the form posts itself.
	do(t, ctx, click(`label[for="q0-3"]`), click(`label[for="q1-1"]`), click(`label[for="q1-3"]`))
	do(t, ctx, click("#submit-button"))
	waitFor(t, ctx, textIs("#title", "Answered"))
	r.exit(t, 0)
	checkStdout(t, r, `{"answers":{"Database":"MongoDB","Features":"Login, Export"}}`)
}

// browserNote adds a note as a person at the keyboard would: n on an
// option reveals the field, which is labelled, and the note goes with the
// answer and is accepted. (What askuser prints of the note is checked when
// it prints it; the asker's own answer is checked in
// NoteReachesTheAsker.)
func browserNote(t *testing.T, browser context.Context) {
	ctx := newTab(t, browser)
	r := startWeb(t, twoQuestions)
	do(t, ctx, chromedp.Navigate(r.url), chromedp.WaitVisible(chromedp.CSS("#q1")))
	// Closed at first, and named for the person and for a screen reader.
	if eval[bool](t, ctx, `document.querySelector('#q0-note-box').open`) {
		t.Error("the note field is open at first")
	}
	if got := eval[string](t, ctx, `document.querySelector('#q0-note-box summary').textContent`); got != "nAdd a note (optional)" {
		t.Errorf("the note's button says %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#q0-note').labels[0].textContent`); got != "Your note on: Which database should we use?" {
		t.Errorf("the note's label says %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#q0-note').getAttribute('aria-describedby')`); got != "q0-note-hint q0-note-error" {
		t.Errorf("the note is described by %q", got)
	}
	if eval[bool](t, ctx, `!!document.querySelector('#q1-note-box').open`) || !eval[bool](t, ctx, `!!document.querySelector('#q1-note')`) {
		t.Error("the second question has no note field of its own, closed")
	}
	// 2 chooses SQLite, n goes on to the note. n's character comes as an
	// event of its own after its keydown, here well after: it must not
	// land in the note.
	do(t, ctx, chromedp.Focus(chromedp.CSS("#q0-1")), chromedp.KeyEvent("2"))
	n := kb.Encode('n')
	do(t, ctx, dispatchKey(n[0]))
	waitFor(t, ctx, `document.querySelector('#q0-note-box').open`)
	time.Sleep(200 * time.Millisecond)
	do(t, ctx, dispatchKey(n[1:]...))
	waitFor(t, ctx, `document.querySelector('#q0-note-box').open && document.activeElement.id === 'q0-note'`)
	do(t, ctx, chromedp.KeyEvent("Small data, <one> file"))
	waitFor(t, ctx, `document.querySelector('#q0-2').checked`)
	// Enter in the note goes on to the next question, as in an answer.
	do(t, ctx, chromedp.KeyEvent("\r"))
	waitFor(t, ctx, `document.activeElement.id === 'q1-1'`)
	do(t, ctx, chromedp.KeyEvent("3"), chromedp.KeyEvent("\r"))
	waitFor(t, ctx, textIs("#title", "Answered"))
	if got := eval[string](t, ctx, `document.querySelector('.summary .given-note').textContent`); got != "Note Small data, <one> file" {
		t.Errorf("the summary shows the note as %q", got)
	}
	r.exit(t, 0)
	var out struct {
		Answers     map[string]string            `json:"answers"`
		Annotations map[string]map[string]string `json:"annotations"`
	}
	if err := json.Unmarshal(r.stdout.Bytes(), &out); err != nil {
		t.Fatalf("stdout %q: %v", r.stdout.String(), err)
	}
	if want := map[string]string{"Database": "SQLite", "Features": "Export"}; fmt.Sprint(out.Answers) != fmt.Sprint(want) {
		t.Errorf("answers %v, want %v", out.Answers, want)
	}
	if want := map[string]map[string]string{"Database": {"notes": "Small data, <one> file"}}; fmt.Sprint(out.Annotations) != fmt.Sprint(want) {
		t.Errorf("annotations %v, want %v", out.Annotations, want)
	}
	if want := `},"annotations":{"Database":{"notes":"Small data, <one> file"}}}`; !strings.HasSuffix(strings.TrimSpace(r.stdout.String()), want) {
		t.Errorf("stdout %q does not end with %s", r.stdout.String(), want)
	}
	if got := r.stderr.String(); strings.Count(got, "\n") != 1 {
		t.Errorf("stderr has more than the address:\n%s", got)
	}
}

// askInProcess asks qs with prompt/web's asker in this test, so that the
// answers it returns, notes and all, are seen as they are.
func askInProcess(t *testing.T, questions string) (string, <-chan []prompt.Answer) {
	t.Helper()
	var in struct{ Questions []schema.Question }
	if err := json.Unmarshal([]byte(questions), &in); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w := web.New(web.Options{Listener: ln, Out: io.Discard})
	ctx, cancel := context.WithCancel(context.Background())
	answers := make(chan []prompt.Answer, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		got, err := w.Ask(ctx, in.Questions)
		if err != nil {
			t.Errorf("Ask: %v", err)
		}
		answers <- got
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return w.URL(), answers
}

// browserNoteReachesTheAsker writes notes with the pointer, with and
// without the page's script, and checks the answers the asker returns.
func browserNoteReachesTheAsker(t *testing.T, browser context.Context) {
	for _, script := range []bool{true, false} {
		t.Run(map[bool]string{true: "script", false: "no script"}[script], func(t *testing.T) {
			ctx := newTab(t, browser)
			if !script {
				if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
					t.Fatal(err)
				}
			}
			url, answers := askInProcess(t, twoQuestions)
			do(t, ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#q1")))
			do(t, ctx, click(`label[for="q0-3"]`), click("#q0-note-box summary"))
			waitFor(t, ctx, `document.querySelector('#q0-note-box').open`)
			if script {
				// The script moves on to the field it revealed.
				waitFor(t, ctx, `document.activeElement.id === 'q0-note'`)
			}
			do(t, ctx,
				chromedp.SendKeys(chromedp.CSS("#q0-note"), " Flexible schema\u202e "),
				click(`label[for="q1-1"]`),
				click("#q1-note-box summary"),
			)
			waitFor(t, ctx, `document.querySelector('#q1-note-box').open`)
			do(t, ctx, chromedp.SendKeys(chromedp.CSS("#q1-note"), "   "), click("#submit-button"))
			waitFor(t, ctx, textIs("#title", "Answered"))
			var got []prompt.Answer
			select {
			case got = <-answers:
			case <-time.After(10 * time.Second):
				t.Fatal("the asker returned nothing")
			}
			want := []prompt.Answer{{Labels: []string{"MongoDB"}, Note: "Flexible schema"}, {Labels: []string{"Login"}}}
			if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
				t.Errorf("answers %#v, want %#v", got, want)
			}
		})
	}
}

// TestBrowserScreenshots checks that the page fits a phone and a desktop
// screen, and with -update-screenshots saves what it looks like to docs/.
func browserScreenshots(t *testing.T, browser context.Context) {
	for _, tc := range []struct {
		name          string
		width, height int64
		scale         float64
		mobile        bool
	}{
		{"phone", 390, 844, 2, true},
		{"desktop", 1280, 860, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newTab(t, browser)
			r := startWeb(t, twoQuestions)
			viewport := []chromedp.EmulateViewportOption{chromedp.EmulateScale(tc.scale)}
			if tc.mobile {
				viewport = append(viewport, chromedp.EmulateMobile)
			}
			do(t, ctx,
				chromedp.EmulateViewport(tc.width, tc.height, viewport...),
				chromedp.Navigate(r.url),
				chromedp.WaitVisible(chromedp.CSS("#q1")),
				click(`label[for="q0-1"]`),
				click("#q0-note-box summary"),
				chromedp.SendKeys(chromedp.CSS("#q0-note"), "We already run it for billing"),
				click(`label[for="q1-2"]`),
				chromedp.Blur(chromedp.CSS("#q1-2")),
			)
			waitFor(t, ctx, textIs("#status", "2 of 2 answered"))
			if w := eval[int](t, ctx, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
				t.Errorf("the page is %dpx wider than a %dpx screen", w, tc.width)
			}
			if !*updateScreenshots {
				return
			}
			time.Sleep(300 * time.Millisecond) // for the progress bar to fill
			if err := os.MkdirAll("../docs", 0o755); err != nil {
				t.Fatal(err)
			}
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("../docs", "web-"+tc.name+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}
