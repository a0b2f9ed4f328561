package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

var webQuestions = []schema.Question{
	{Header: "Database", Question: "Which database?", Options: []schema.Option{
		{Label: "PostgreSQL (Recommended)", Description: "d"},
		{Label: "SQLite", Description: "d"},
	}},
	{Header: "Features", Question: "Which features?", MultiSelect: true, Options: []schema.Option{
		{Label: "Login", Description: "d"},
		{Label: "Search", Description: "d"},
		{Label: "Export, all of it", Description: "d"},
	}},
}

// yesNo is a yes/no question of askuser confirm, with neither answer
// chosen at first.
var yesNo = schema.Question{Kind: schema.KindConfirm, Header: "Confirm", Question: "Go?", Options: []schema.Option{{Label: "Yes"}, {Label: "No"}}}

func TestParseWebForm(t *testing.T) {
	for _, tc := range []struct {
		form     string
		want     []prompt.Answer
		problems []string
	}{
		{"q0=1&q1=2", []prompt.Answer{{Labels: []string{"PostgreSQL (Recommended)"}}, {Labels: []string{"Search"}}}, nil},
		// Labels as on the line prompt, in any case; option order kept.
		{"q0=sqlite&q1=" + url.QueryEscape("Export, all of it") + "&q1=login",
			[]prompt.Answer{{Labels: []string{"SQLite"}}, {Labels: []string{"Login", "Export, all of it"}}}, nil},
		{"q0=0&q0-other=+Maria%09DB+&q1=3&q1=0&q1-other=Tags",
			[]prompt.Answer{{Other: "Maria DB"}, {Labels: []string{"Export, all of it"}, Other: "Tags"}}, nil},
		// Text typed without choosing Other is the answer, as the page
		// without its script allows; with a choice, it is ignored.
		{"q0-other=Maria&q1=1&q1-other=ignored", []prompt.Answer{{Other: "Maria"}, {Labels: []string{"Login"}}}, nil},
		{"q0=1&q0=1&q1=1&q1=1", []prompt.Answer{{Labels: []string{"PostgreSQL (Recommended)"}}, {Labels: []string{"Login"}}}, nil},
		// A typed answer is cleaned as on every asker (schema.CheckOther).
		{"q0=0&q0-other=" + url.QueryEscape("Maria\nDB\u202e\x1b[0m") + "&q1=1", []prompt.Answer{{Other: "MariaDB[0m"}, {Labels: []string{"Login"}}}, nil},

		{"", nil, []string{"Choose an option.", "Choose at least one option."}},
		{"q0=3&q1=MySQL", nil, []string{"That is not one of this question's options.", "That is not one of this question's options."}},
		{"q0=1&q0=2&q1=-1", nil, []string{"Choose only one option.", "That is not one of this question's options."}},
		{"q0=PostgreSQL&q1=1", nil, []string{"That is not one of this question's options.", ""}},
		{"q0=0&q0-other=%01&q1=0", nil, []string{"Type your own answer, or choose one of the options.", "Type your own answer, or choose one of the options."}},
		{"q0=%FF&q1=0&q1-other=%FF", nil, []string{"That is not one of this question's options.", "Your answer was not sent as UTF-8 text."}},
		// Typed without choosing Other, and too long: said so, not "Choose".
		{"q0-other=" + strings.Repeat("x", schema.MaxOtherLength+1) + "&q1=1", nil, []string{"Your answer is too long: at most 2000 characters (got 2001).", ""}},
	} {
		values, err := url.ParseQuery(tc.form)
		if err != nil {
			t.Fatal(err)
		}
		sub := (&Page{Questions: webQuestions}).Parse(values)
		problems := sub.problems()
		if tc.problems == nil {
			if !sub.OK() {
				t.Errorf("%s: problems %q", tc.form, problems)
			} else if !reflect.DeepEqual(sub.Answers, tc.want) {
				t.Errorf("%s: answers %#v, want %#v", tc.form, sub.Answers, tc.want)
			}
			continue
		}
		if sub.OK() || sub.Answers != nil || !reflect.DeepEqual(problems, tc.problems) {
			t.Errorf("%s: problems %q, want %q", tc.form, problems, tc.problems)
		}
	}
}

func TestParseWebFormTextAndYesNo(t *testing.T) {
	items := []schema.Question{{Header: "Name", Question: "Name?", Kind: schema.KindText}, yesNo}
	for _, tc := range []struct {
		form     string
		want     []prompt.Answer
		problems []string
	}{
		{"q0-other=+UserCard%0A&q1=1", []prompt.Answer{{Other: "UserCard"}, {Labels: []string{"Yes"}}}, nil},
		{"q0-other=x&q1=no", []prompt.Answer{{Other: "x"}, {Labels: []string{"No"}}}, nil},
		{"q0-other=+&q1=0&q1-other=maybe", nil, []string{"Type your answer.", "That is not one of this question's options."}},
		{"q0=1&q0-other=x&q1-other=maybe", nil, []string{"That is not one of this question's options.", "Choose an option."}},
		{"q0-other=" + strings.Repeat("x", schema.MaxOtherLength+1) + "&q1=1", nil, []string{"Your answer is too long: at most 2000 characters (got 2001).", ""}},
	} {
		values, err := url.ParseQuery(tc.form)
		if err != nil {
			t.Fatal(err)
		}
		sub := (&Page{Questions: items}).Parse(values)
		problems := sub.problems()
		switch {
		case tc.problems == nil && !sub.OK():
			t.Errorf("%.40s: problems %q", tc.form, problems)
		case tc.problems == nil && !reflect.DeepEqual(sub.Answers, tc.want):
			t.Errorf("%.40s: answers %#v, want %#v", tc.form, sub.Answers, tc.want)
		case tc.problems != nil && !reflect.DeepEqual(problems, tc.problems):
			t.Errorf("%.40s: problems %q, want %q", tc.form, problems, tc.problems)
		}
	}
}

// TestWebPageShowsTextAsDisplayed checks that the page shows the questions'
// text as a terminal does (prompt.Display and DisplayMultiline),
// HTML-escaped on top, so that control and bidirectional characters are
// seen, not obeyed.
func TestWebPageShowsTextAsDisplayed(t *testing.T) {
	p := &Page{Base: "/", Token: "t", Questions: []schema.Question{{
		Header:   "\x1b[31mDB",
		Question: "Which\u202e one?\r\nSecond line",
		Options: []schema.Option{
			{Label: "<b>Postgres</b>\a (Recommended)", Description: "first\tsecond", Preview: "\x1b]0;title\x07"},
			{Label: "SQLite", Description: "d"},
			{Label: "claude\u200bcode", Description: "soft\u00adhyphen\ufeff"},
		},
	}}}
	check := func(what, page string, want ...string) {
		t.Helper()
		if i := strings.IndexFunc(page, func(r rune) bool { return r != '\n' && prompt.DisplayMultiline(string(r)) != string(r) }); i >= 0 {
			t.Errorf("%s: control character in the page: %q", what, page[max(i-40, 0):min(i+40, len(page))])
		}
		for _, w := range want {
			if !strings.Contains(page, w) {
				t.Errorf("%s: the page lacks %q", what, w)
			}
		}
	}
	check("form", written(t, func(w http.ResponseWriter) { p.WriteForm(w, 200, nil) }),
		`<title>Question: \x1b[31mDB · askuser</title>`,
		`<span class="chip">\x1b[31mDB</span>`,
		"Which\\u202e one?\nSecond line",
		`&lt;b&gt;Postgres&lt;/b&gt;\x07`,
		"first   second",
		`\x1b]0;title\x07`,
		// What draws nothing is shown by its code point (html/template
		// writes + as &#43;).
		`claude⟨U&#43;200B⟩code`,
		`soft⟨U&#43;00AD⟩hyphen⟨U&#43;FEFF⟩`,
		// The note field names its question, as shown.
		`<span class="visually-hidden"> on: Which\u202e one?`,
	)
	check("answered", written(t, func(w http.ResponseWriter) {
		p.writeStatus(w, 200, &ending{answers: []prompt.Answer{{Other: "typed <i>", Note: "note <b>\u202e"}}})
	}),
		`<span class="chip">\x1b[31mDB</span>`,
		"<dd>typed &lt;i&gt;</dd>",
		`<span class="note-tag">Note</span> note &lt;b&gt;\u202e</dd>`,
	)
}

// written is what write writes, as a browser would receive it.
func written(t *testing.T, write func(http.ResponseWriter)) string {
	t.Helper()
	rec := httptest.NewRecorder()
	write(rec)
	return rec.Body.String()
}

// problems lists what is wrong with each question's answer, "" for
// nothing; noteProblems, with each note.
func (s *Submission) problems() []string {
	var out []string
	for _, q := range s.questions {
		out = append(out, q.err)
	}
	return out
}

func (s *Submission) noteProblems() []string {
	var out []string
	for _, q := range s.questions {
		out = append(out, q.noteErr)
	}
	return out
}

// TestParseNotes checks that a note is read from qN-note, checked as a
// typed answer is (schema.CheckOther), blank is no note, and a note that
// does not pass is a problem that keeps the form from being taken.
func TestParseNotes(t *testing.T) {
	items := append(webQuestions[:2:2], schema.Question{Header: "Name", Question: "Name?", Kind: schema.KindText}, yesNo)
	long := strings.Repeat("é", schema.MaxOtherLength+1)
	for _, tc := range []struct {
		form  string
		notes []string
		// problems are the notes' problems; nil when the form is taken.
		problems []string
	}{
		{"q0=1&q1=1&q2-other=x&q3=1", []string{"", "", "", ""}, nil},
		{"q0=1&q0-note=+Fast+enough%09for+now+&q1=1&q1-note=%E2%80%AE%1B[1m&q2-other=x&q2-note=the+usual&q3=1",
			[]string{"Fast enough for now", "[1m", "the usual", ""}, nil},
		// A yes/no of askuser confirm has nowhere to carry a note.
		{"q0=1&q1=1&q2-other=x&q3=1&q3-note=ignored", []string{"", "", "", ""}, nil},
		{"q0=1&q0-note=" + long + "&q1=1&q1-note=%FF&q2-other=x&q3=1", nil,
			[]string{"Your note is too long: at most 2000 characters (got 2001).", "Your note was not sent as UTF-8 text.", "", ""}},
	} {
		values, err := url.ParseQuery(tc.form)
		if err != nil {
			t.Fatal(err)
		}
		sub := (&Page{Questions: items}).Parse(values)
		if tc.problems != nil {
			if sub.OK() || !reflect.DeepEqual(sub.noteProblems(), tc.problems) || !reflect.DeepEqual(sub.problems(), []string{"", "", "", ""}) {
				t.Errorf("%.60s: problems %q and notes %q, want notes %q", tc.form, sub.problems(), sub.noteProblems(), tc.problems)
			}
			continue
		}
		if !sub.OK() {
			t.Errorf("%.60s: problems %q, notes %q", tc.form, sub.problems(), sub.noteProblems())
			continue
		}
		var notes []string
		for _, a := range sub.Answers {
			notes = append(notes, a.Note)
		}
		if !reflect.DeepEqual(notes, tc.notes) {
			t.Errorf("%.60s: notes %q, want %q", tc.form, notes, tc.notes)
		}
	}
}

// TestPageNoteField checks the note field as the page writes it: one per
// question that can carry a note, labelled and described, closed at first,
// open with its text and its problem when the form comes back refused.
func TestPageNoteField(t *testing.T) {
	p := &Page{Base: "/sets/7/", Token: "a b", Questions: []schema.Question{webQuestions[0], yesNo}}
	page := written(t, func(w http.ResponseWriter) { p.WriteForm(w, 200, nil) })
	for _, want := range []string{
		`<details class="note" id="q0-note-box">`,
		`Add a note <span class="optional">(optional)</span></summary>`,
		`<label class="note-label" for="q0-note">Your note<span class="visually-hidden"> on: Which database?</span></label>`,
		`name="q0-note" id="q0-note" value="" maxlength="2000"`,
		`aria-describedby="q0-note-hint q0-note-error"`,
		// The page's addresses are under its base, with the token.
		`action="/sets/7/answer?token=a&#43;b"`,
		`action="/sets/7/cancel?token=a&#43;b"`,
		`data-wait="/sets/7/wait?token=a&#43;b"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the form lacks %q", want)
		}
	}
	if strings.Contains(page, `q1-note`) {
		t.Errorf("the yes/no question has a note field")
	}
	if !strings.Contains(page, `<summary><span class="key" aria-hidden="true">n</span>Add a note`) {
		t.Errorf("the note of a choice does not show its key, n")
	}
	// A text question has a note too, but n types itself there.
	text := &Page{Base: "/", Token: "t", Questions: []schema.Question{{Header: "Name", Question: "Name?", Kind: schema.KindText}}}
	page = written(t, func(w http.ResponseWriter) { text.WriteForm(w, 200, nil) })
	if !strings.Contains(page, `<summary>Add a note <span class="optional">(optional)</span></summary>`) || !strings.Contains(page, `id="q0-note"`) {
		t.Errorf("the note of a text question is missing, or shows the key n")
	}

	values, _ := url.ParseQuery("q0=2&q0-note=" + strings.Repeat("x", schema.MaxOtherLength+1) + "&q1=1")
	sub := p.Parse(values)
	page = written(t, func(w http.ResponseWriter) { p.WriteForm(w, 400, sub) })
	for _, want := range []string{
		`<section class="card invalid" id="q0"`,
		`<details class="note" id="q0-note-box" open>`,
		`value="` + strings.Repeat("x", schema.MaxOtherLength+1) + `"`,
		`aria-invalid="true"`,
		`<p class="error" id="q0-note-error">Your note is too long: at most 2000 characters (got 2001).</p>`,
		`id="q0-2" value="2" checked`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the refused form lacks %q", want)
		}
	}
}

// TestPageInQueue checks what a page in a queue shows beyond its
// questions (where the set came from, how long it waited, how many more
// wait, a notice, Next), its idle and closed pages, and that a page of its
// own shows none of it.
func TestPageInQueue(t *testing.T) {
	p := &Page{Base: "/sets/7/", Token: "t", Questions: webQuestions[:1], Queue: &InQueue{
		From: "~/src/\x1b[31mapi", Waited: 3*time.Hour + 5*time.Minute + 9*time.Second, More: 2,
		Notice: "Sent to <b>x</b>.", Problem: true, Home: "/",
	}}
	form := written(t, func(w http.ResponseWriter) { p.WriteForm(w, 200, nil) })
	for _, want := range []string{
		`<main id="main" data-state="form" data-wait="/sets/7/wait?token=t&amp;more=2" data-set="/sets/7/">`,
		`<p class="brand">askuser inbox</p>`,
		`<p class="notice problem" id="notice">Sent to &lt;b&gt;x&lt;/b&gt;.</p>`,
		`From <strong class="source">~/src/\x1b[31mapi</strong> · <span class="waited" data-seconds="11109">waiting 3h5m</span> · <span class="more">2 more waiting</span>`,
		`<form id="next" method="post" action="/sets/7/next?token=t"></form>`,
		`<button type="submit" form="next" class="secondary" id="next-button">Next</button>`,
		`<title>Question: Database · askuser inbox</title>`,
		`<h1 id="title" tabindex="-1">The inbox is not running</h1>`,
	} {
		if !strings.Contains(form, want) {
			t.Errorf("the form lacks %s", want)
		}
	}
	p.Base, p.Questions, p.Queue.Problem = "/sets/0/", nil, false
	idle := written(t, func(w http.ResponseWriter) { p.WriteIdle(w, 200) })
	for _, want := range []string{
		`<main id="main" data-state="idle" data-wait="/sets/0/wait?token=t&amp;more=2" data-set="/sets/0/">`,
		`<p class="notice" id="notice">Sent to &lt;b&gt;x&lt;/b&gt;.</p>`,
		`<h1 id="title" tabindex="-1">Nothing is waiting</h1>`,
		// Without the script, the page looks again by itself, and has a link
		// to.
		`<noscript><meta http-equiv="refresh" content="10; url=/?token=t"></noscript>`,
		`<p class="again"><a href="/?token=t">Look again</a></p>`,
		`<title>Nothing waiting · askuser inbox</title>`,
	} {
		if !strings.Contains(idle, want) {
			t.Errorf("the idle page lacks %s", want)
		}
	}
	closed := written(t, func(w http.ResponseWriter) {
		(&Page{Base: "/sets/0/", Token: "t", Queue: &InQueue{}}).WriteClosed(w, 200)
	})
	if !strings.Contains(closed, `data-state="closed"`) || !strings.Contains(closed, `<h1 id="title" tabindex="-1">The inbox has quit</h1>`) {
		t.Errorf("the closed page:\n%s", closed)
	}
	alone := written(t, func(w http.ResponseWriter) {
		(&Page{Base: "/", Token: "t", Questions: webQuestions[:1]}).WriteForm(w, 200, nil)
	})
	for _, unwanted := range []string{"data-set", `id="next"`, "next-button", `class="from"`, "askuser inbox", "more=", "The inbox is not running"} {
		if strings.Contains(alone, unwanted) {
			t.Errorf("a page of its own shows %s", unwanted)
		}
	}
	if !strings.Contains(alone, `<main id="main" data-state="form" data-wait="/wait?token=t">`) {
		t.Errorf("a page of its own waits elsewhere:\n%s", alone)
	}
}

func TestMaxFormBytes(t *testing.T) {
	// The largest form the page sends: every option chosen, and an answer
	// and a note of the longest length in 4-byte characters, escaped.
	longest := strings.Repeat("%F0%9F%98%80", 2000)
	form := "q0=0&q0=1&q0=2&q0=3&q0=4&q0-other=" + longest + "&q0-note=" + longest
	if int64(len(form)) > MaxFormBytes(1) {
		t.Errorf("a full form of %d bytes is over the limit of %d", len(form), MaxFormBytes(1))
	}
	if MaxFormBytes(4) <= MaxFormBytes(1) {
		t.Errorf("the limit does not grow with the questions")
	}
}

// TestEveryKind asks a question of every kind of schema's kind table on
// the page: it draws the question, and reads the fields a person fills in
// to answer it.
func TestEveryKind(t *testing.T) {
	fields := map[schema.Gesture]url.Values{
		schema.GesturePick:  {"q0": {"2"}},
		schema.GestureYesNo: {"q0": {"1"}},
		schema.GestureType:  {"q0-other": {"typed"}},
	}
	for _, c := range testutil.KindCases(t) {
		values, ok := fields[c.Question.Kind.Gesture()]
		if !ok {
			t.Fatalf("the page cannot answer a %s question", c.Question.Kind)
		}
		p := &Page{Base: "/", Token: "t", Questions: []schema.Question{c.Question}}
		page := written(t, func(w http.ResponseWriter) { p.WriteForm(w, 200, nil) })
		for name := range values {
			if !strings.Contains(page, c.Question.Question) || !strings.Contains(page, `name="`+name+`"`) {
				t.Errorf("the %s question: the page does not show it with its field %s", c.Question.Kind, name)
			}
		}
		if sub := p.Parse(values); !reflect.DeepEqual(sub.Answers, []prompt.Answer{c.Answer}) {
			t.Errorf("the %s question: %+v (problems %q), want %+v", c.Question.Kind, sub.Answers, sub.problems(), c.Answer)
		}
	}
}
