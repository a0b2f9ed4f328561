package web

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/askuser/askuser/prompt"
)

// The page is one HTML document with its style and script inline, so that
// it works offline and the Content-Security-Policy can allow exactly them.
//
//go:embed page.html page.css page.js
var webFiles embed.FS

// The page is parsed when it is first served, not at start-up: every run
// of askuser would pay for parsing it (about 1,300 allocations), and only
// --ui web serves it.
var (
	webTemplate = sync.OnceValue(func() *template.Template {
		return template.Must(template.ParseFS(webFiles, "page.html"))
	})
	webCSS = sync.OnceValue(func() string { return mustRead("page.css") })
	webJS  = sync.OnceValue(func() string { return mustRead("page.js") })
)

func mustRead(name string) string {
	b, err := webFiles.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// webFormQuestion is what the form said about one question.
type webFormQuestion struct {
	// chosen[0] is the Other choice; chosen[j] is option j (from 1).
	chosen []bool
	other  string
	err    string
}

// webForm is a submitted form, question by question.
type webForm []webFormQuestion

func (f webForm) valid() bool {
	for _, q := range f {
		if q.err != "" {
			return false
		}
	}
	return true
}

// parseWebForm reads the answers from a submitted form, checking them as a
// typed answer is checked. Field qN holds question N's choices, each an
// option's number (0 for Other) as the page sends it or, as on the line
// prompt, an option's label or "other"; qN-other holds the person's own
// answer, or the answer to a text question. Anything else is refused with a
// problem for its question, so a forged form cannot give an answer the page
// could not.
func parseWebForm(items []webItem, values url.Values) ([]prompt.Answer, webForm) {
	answers := make([]prompt.Answer, len(items))
	form := make(webForm, len(items))
	for i, item := range items {
		q := item.q
		name := "q" + strconv.Itoa(i)
		fq := webFormQuestion{chosen: make([]bool, len(q.Options)+1), other: values.Get(name + "-other")}
		for _, v := range values[name] {
			j, ok := q.Choice(strings.TrimSpace(v))
			if !ok || !utf8.ValidString(v) || q.IsText() || (j < 0 && item.noOther) {
				fq.err = "That is not one of this question's options."
				continue
			}
			fq.chosen[j+1] = true // Other, -1, is chosen[0]
		}
		text, err := prompt.CheckOther(fq.other)
		typed := !errors.Is(err, prompt.ErrOtherEmpty) // something, fit or not
		problem := webOtherProblem(err)
		if errors.Is(err, prompt.ErrOtherEncoding) {
			fq.err = problem
		}
		if q.IsText() {
			switch {
			case fq.err != "":
			case !typed:
				fq.err = "Type your answer."
			case err != nil:
				fq.err = problem
			}
			form[i] = fq
			answers[i].Other = text
			continue
		}
		n := 0
		for _, c := range fq.chosen {
			if c {
				n++
			}
		}
		if n == 0 && typed && !item.noOther {
			// Typed in the Other field without choosing Other, as the page
			// without its script allows: the text is the answer.
			fq.chosen[0], n = true, 1
		}
		switch {
		case fq.err != "":
		case n == 0 && q.MultiSelect:
			fq.err = "Choose at least one option."
		case n == 0:
			fq.err = "Choose an option."
		case n > 1 && !q.MultiSelect:
			fq.err = "Choose only one option."
		case fq.chosen[0] && err != nil:
			fq.err = problem
		}
		form[i] = fq
		if fq.err != "" {
			continue
		}
		for j, o := range q.Options {
			if fq.chosen[j+1] {
				answers[i].Labels = append(answers[i].Labels, o.Label)
			}
		}
		if fq.chosen[0] {
			answers[i].Other = text
		}
	}
	return answers, form
}

// webOtherProblem says on the page what prompt.CheckOther found wrong with
// a typed answer, or "" when nothing was.
func webOtherProblem(err error) string {
	var long *prompt.OtherLengthError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &long):
		return fmt.Sprintf("Your answer is too long: at most %d characters (got %d).", prompt.MaxOtherLength, long.Length)
	case errors.Is(err, prompt.ErrOtherEncoding):
		return "Your answer was not sent as UTF-8 text."
	}
	return "Type your own answer, or choose one of the options."
}

// view is what the page template shows.
type view struct {
	Nonce, Token string
	// MaxOther is the longest typed answer, in characters.
	MaxOther int
	CSS      template.CSS
	JS       template.JS
	Title    string
	// State is "form", "answered", "cancelled" or "withdrawn".
	State     string
	Questions []webQuestion
	// AnyOther says whether some question offers Other.
	AnyOther bool
	Answered int
	// Summary is the answers given, in question order.
	Summary []webSummaryLine
	// Reason says why the question was withdrawn, when known.
	Reason string
}

type webQuestion struct {
	ID, Header, Question string
	Num, Total           int
	Multi, Text          bool
	Placeholder          string
	Options              []webOption
	// Other is the Other choice, or nil when the question has none.
	Other      *webOption
	OtherText  string
	HasPreview bool
	Error      string
}

type webOption struct {
	ID, Value   string
	Name        string // the label without "(Recommended)", which is shown apart
	Recommended bool
	Description string
	Preview     string
	Checked     bool
}

type webSummaryLine struct {
	Header, Question, Answer string
}

// formPage is the page of questions, showing what form chose and its
// problems; a nil form shows what each question starts with.
func (s *page) formPage(form webForm) *view {
	p := &view{State: "form"}
	if len(s.items) == 1 {
		p.Title = "Question: " + prompt.Display(s.items[0].q.Header)
	} else {
		p.Title = fmt.Sprintf("%d questions", len(s.items))
	}
	for i, item := range s.items {
		q := item.q
		id := "q" + strconv.Itoa(i)
		fq := webFormQuestion{other: item.text, chosen: make([]bool, len(q.Options)+1)}
		if item.checked > 0 && item.checked <= len(q.Options) {
			fq.chosen[item.checked] = true
		}
		if form != nil {
			fq = form[i]
		}
		chosen := func(j int) bool { return j < len(fq.chosen) && fq.chosen[j] }
		// The questions' text is shown as on a terminal (prompt.Display),
		// and html/template escapes it on top. The text fields' values are
		// not: they are answers, sent back and checked by prompt.CheckOther.
		wq := webQuestion{
			ID: id, Header: prompt.Display(q.Header), Question: prompt.DisplayMultiline(q.Question),
			Num: i + 1, Total: len(s.items), Multi: q.MultiSelect,
			Text: q.IsText(), Placeholder: prompt.Display(q.Placeholder),
			OtherText: fq.other,
			Error:     fq.err,
		}
		if !item.noOther && !q.IsText() {
			p.AnyOther = true
			wq.Other = &webOption{
				ID: id + "-0", Value: "0", Name: "Other",
				Description: "Type your own answer", Checked: chosen(0),
			}
		}
		for j, o := range q.Options {
			name := strings.TrimSpace(o.Label)
			if o.Recommended() {
				if base := strings.TrimSpace(strings.TrimSuffix(name, "(Recommended)")); base != "" {
					name = base
				}
			}
			preview := ""
			if !q.MultiSelect {
				preview = o.Preview
			}
			wq.HasPreview = wq.HasPreview || preview != ""
			wq.Options = append(wq.Options, webOption{
				ID: id + "-" + strconv.Itoa(j+1), Value: strconv.Itoa(j + 1),
				Name: prompt.Display(name), Recommended: o.Recommended(),
				Description: prompt.DisplayMultiline(o.Description), Preview: prompt.DisplayMultiline(preview),
				Checked: chosen(j + 1),
			})
		}
		if fq.err == "" && (form != nil || item.checked > 0 || (q.IsText() && strings.TrimSpace(item.text) != "")) {
			p.Answered++
		}
		p.Questions = append(p.Questions, wq)
	}
	return p
}

// renderCurrent shows the page as it stands: the questions while it
// waits, and how it ended after that.
func (s *page) renderCurrent(code int) *webReply {
	st, answers, reason := s.result()
	var p *view
	switch st {
	case webWaiting:
		p = s.formPage(nil)
	case webAnswered:
		p = &view{State: "answered", Title: "Answered"}
		for i, item := range s.items {
			p.Summary = append(p.Summary, webSummaryLine{
				Header:   prompt.Display(item.q.Header),
				Question: prompt.DisplayMultiline(item.q.Question),
				Answer:   prompt.Display(answers[i].String()),
			})
		}
	case webCancelled:
		p = &view{State: "cancelled", Title: "Cancelled"}
	default:
		p = &view{State: "withdrawn", Title: "Question withdrawn", Reason: reason}
	}
	return s.render(code, p)
}

// render writes p with a policy that lets the page run only its own inline
// style and script, send only to this server, and be framed by nothing.
func (s *page) render(code int, p *view) *webReply {
	nonce, err := randomString(18)
	if err != nil {
		return webRefuse(500, "Could not make the page.")
	}
	p.Nonce, p.Token, p.MaxOther = nonce, s.token, prompt.MaxOtherLength
	p.CSS, p.JS = template.CSS(webCSS()), template.JS(webJS())
	var b bytes.Buffer
	if err := webTemplate().Execute(&b, p); err != nil {
		return webRefuse(500, "Could not make the page.")
	}
	return &webReply{
		code:        code,
		contentType: "text/html; charset=utf-8",
		csp: "default-src 'none'; " +
			"script-src 'nonce-" + nonce + "'; style-src 'nonce-" + nonce + "'; img-src data:; " +
			"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
		body: b.Bytes(),
	}
}
