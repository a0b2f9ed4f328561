package web

import (
	"net"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

var webQuestions = []webItem{
	{q: schema.Question{Header: "Database", Question: "Which database?", Options: []schema.Option{
		{Label: "PostgreSQL (Recommended)", Description: "d"},
		{Label: "SQLite", Description: "d"},
	}}},
	{q: schema.Question{Header: "Features", Question: "Which features?", MultiSelect: true, Options: []schema.Option{
		{Label: "Login", Description: "d"},
		{Label: "Search", Description: "d"},
		{Label: "Export, all of it", Description: "d"},
	}}},
}

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
		// A typed answer is cleaned as on every asker (prompt.CheckOther).
		{"q0=0&q0-other=" + url.QueryEscape("Maria\nDB\u202e\x1b[0m") + "&q1=1", []prompt.Answer{{Other: "MariaDB[0m"}, {Labels: []string{"Login"}}}, nil},

		{"", nil, []string{"Choose an option.", "Choose at least one option."}},
		{"q0=3&q1=MySQL", nil, []string{"That is not one of this question's options.", "That is not one of this question's options."}},
		{"q0=1&q0=2&q1=-1", nil, []string{"Choose only one option.", "That is not one of this question's options."}},
		{"q0=PostgreSQL&q1=1", nil, []string{"That is not one of this question's options.", ""}},
		{"q0=0&q0-other=%01&q1=0", nil, []string{"Type your own answer, or choose one of the options.", "Type your own answer, or choose one of the options."}},
		{"q0=%FF&q1=0&q1-other=%FF", nil, []string{"That is not one of this question's options.", "Your answer was not sent as UTF-8 text."}},
		// Typed without choosing Other, and too long: said so, not "Choose".
		{"q0-other=" + strings.Repeat("x", prompt.MaxOtherLength+1) + "&q1=1", nil, []string{"Your answer is too long: at most 2000 characters (got 2001).", ""}},
	} {
		values, err := url.ParseQuery(tc.form)
		if err != nil {
			t.Fatal(err)
		}
		answers, form := parseWebForm(webQuestions, values)
		var problems []string
		for _, q := range form {
			problems = append(problems, q.err)
		}
		if tc.problems == nil {
			if !form.valid() {
				t.Errorf("%s: problems %q", tc.form, problems)
			} else if !reflect.DeepEqual(answers, tc.want) {
				t.Errorf("%s: answers %#v, want %#v", tc.form, answers, tc.want)
			}
			continue
		}
		if form.valid() || !reflect.DeepEqual(problems, tc.problems) {
			t.Errorf("%s: problems %q, want %q", tc.form, problems, tc.problems)
		}
	}
}

func TestParseWebFormTextAndYesNo(t *testing.T) {
	items := []webItem{
		{q: schema.Question{Header: "Name", Question: "Name?", Type: schema.TypeText}},
		{q: schema.Question{Header: "Confirm", Question: "Go?", Options: []schema.Option{{Label: "Yes"}, {Label: "No"}}}, noOther: true},
	}
	for _, tc := range []struct {
		form     string
		want     []prompt.Answer
		problems []string
	}{
		{"q0-other=+UserCard%0A&q1=1", []prompt.Answer{{Other: "UserCard"}, {Labels: []string{"Yes"}}}, nil},
		{"q0-other=x&q1=no", []prompt.Answer{{Other: "x"}, {Labels: []string{"No"}}}, nil},
		{"q0-other=+&q1=0&q1-other=maybe", nil, []string{"Type your answer.", "That is not one of this question's options."}},
		{"q0=1&q0-other=x&q1-other=maybe", nil, []string{"That is not one of this question's options.", "Choose an option."}},
		{"q0-other=" + strings.Repeat("x", prompt.MaxOtherLength+1) + "&q1=1", nil, []string{"Your answer is too long: at most 2000 characters (got 2001).", ""}},
	} {
		values, err := url.ParseQuery(tc.form)
		if err != nil {
			t.Fatal(err)
		}
		answers, form := parseWebForm(items, values)
		var problems []string
		for _, q := range form {
			problems = append(problems, q.err)
		}
		switch {
		case tc.problems == nil && !form.valid():
			t.Errorf("%.40s: problems %q", tc.form, problems)
		case tc.problems == nil && !reflect.DeepEqual(answers, tc.want):
			t.Errorf("%.40s: answers %#v, want %#v", tc.form, answers, tc.want)
		case tc.problems != nil && !reflect.DeepEqual(problems, tc.problems):
			t.Errorf("%.40s: problems %q, want %q", tc.form, problems, tc.problems)
		}
	}
}

func TestWebHostCheck(t *testing.T) {
	loopback := webHostCheck{port: "8080", ip: net.ParseIP("127.0.0.1"), display: "127.0.0.1"}
	every := webHostCheck{port: "8080", ip: net.IPv6unspecified, display: "192.0.2.7"}
	for _, tc := range []struct {
		check webHostCheck
		host  string
		want  bool
	}{
		{loopback, "127.0.0.1:8080", true},
		{loopback, "localhost:8080", true},
		{loopback, "LOCALHOST:8080", true},
		{loopback, "127.0.0.1:8081", false},
		{loopback, "127.0.0.1", false},
		{loopback, "attacker.example:8080", false},
		{loopback, "localhost.:8080", false},
		{loopback, "127.0.0.2:8080", false},
		{loopback, "[::1]:8080", false},
		{loopback, "", false},
		{every, "192.0.2.7:8080", true},
		{every, "[2001:db8::1]:8080", true},
		{every, "attacker.example:8080", false},
		{webHostCheck{port: "80", ip: net.ParseIP("127.0.0.1"), display: "127.0.0.1"}, "127.0.0.1", true},
	} {
		if got := tc.check.ok(tc.host); got != tc.want {
			t.Errorf("%+v.ok(%q) = %v, want %v", tc.check, tc.host, got, tc.want)
		}
	}
}

// TestWebPageShowsTextAsDisplayed checks that the page shows the questions'
// text as a terminal does (prompt.Display and DisplayMultiline),
// HTML-escaped on top, so that control and bidirectional characters are
// seen, not obeyed.
func TestWebPageShowsTextAsDisplayed(t *testing.T) {
	s := &page{
		token: "t",
		items: []webItem{{q: schema.Question{
			Header:   "\x1b[31mDB",
			Question: "Which\u202e one?\r\nSecond line",
			Options: []schema.Option{
				{Label: "<b>Postgres</b>\a (Recommended)", Description: "first\tsecond", Preview: "\x1b]0;title\x07"},
				{Label: "SQLite", Description: "d"},
			},
		}}},
		done: make(chan struct{}),
	}
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
	check("form", string(s.renderCurrent(200).body),
		`<title>Question: \x1b[31mDB · askuser</title>`,
		`<span class="chip">\x1b[31mDB</span>`,
		"Which\\u202e one?\nSecond line",
		`&lt;b&gt;Postgres&lt;/b&gt;\x07`,
		"first   second",
		`\x1b]0;title\x07`,
	)
	s.finish(webAnswered, []prompt.Answer{{Other: "typed <i>"}}, "")
	check("answered", string(s.renderCurrent(200).body),
		`<span class="chip">\x1b[31mDB</span>`,
		"<dd>typed &lt;i&gt;</dd>",
	)
}
