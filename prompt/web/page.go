package web

import (
	"bytes"
	"crypto/rand"
	_ "embed" // the page
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web/localhttp"
	"github.com/askuser/askuser/schema"
)

// The page is one HTML document with its style and script inline, so that
// it works offline and the Content-Security-Policy can allow exactly them.
//
//go:embed page.html
var pageHTML string

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

// The page is parsed when it is first served, not at start-up: every run
// of askuser would pay for parsing it (about 1,300 allocations), and only
// --ui web serves it.
var webTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page.html").Parse(pageHTML))
})

// Page is the page of one set of questions: it writes the set's form, and
// how the wait for it ended, and reads the answers from a submitted form.
// It serves nothing and keeps no state, so that one server can show the
// pages of several sets (a Prompter serves one). Everything it shows from the
// questions goes through prompt.Display or prompt.DisplayMultiline, and
// every typed answer and note through schema.CheckOther.
type Page struct {
	Questions []schema.Question
	// Base is the path that the page's addresses start with, ending in
	// "/": "/" for a page served at the root, "/sets/7/" for one of several
	// on a server. The form is sent to Base+"answer" and Base+"cancel", and
	// the page waits on Base+"wait".
	Base string
	// Token is carried in the query of every address the page uses, for a
	// Guard to check.
	Token string
	// Queue, when set, shows the page as one of the sets of questions that
	// wait in a queue (askuser inbox --web): where the set came from, how
	// long it has waited and how many more wait, what became of the set
	// shown before it, and a Next button that posts to Base+"next". Its
	// wait (Base+"wait") carries ?more=N, the number of sets the page
	// says wait behind this one, so that the server can tell the page
	// when that is no longer so.
	Queue *InQueue
}

// InQueue is what the page of a set in a queue shows beyond its questions.
type InQueue struct {
	// From says where the set came from; it is shown through
	// prompt.Display.
	From string
	// Waited is how long the set has waited; More, how many sets wait
	// behind it.
	Waited time.Duration
	More   int
	// Notice says, briefly, what became of the set shown before or of what
	// the person last sent ("" for nothing); Problem marks a notice that
	// says something was not done.
	Notice  string
	Problem bool
	// Home is the address of the queue's page, without the token: where
	// the page without its script looks again for questions.
	Home string
}

// ending is how the wait for a set of questions ended: answered with
// answers when err is nil; cancelled by the person on a page when err is
// prompt.ErrCancelled; else withdrawn, with why askuser stopped waiting
// (it timed out, was stopped, or left) as err, and reason, what the page
// says of it ("" for nothing).
type ending struct {
	answers []prompt.Answer
	err     error
	reason  string
}

// submittedQuestion is what a submitted form said about one question.
type submittedQuestion struct {
	// chosen[0] is the Other choice; chosen[j] is option j (from 1).
	chosen []bool
	other  string
	note   string
	// err is the problem with the answer, noteErr with the note; "" for
	// none.
	err, noteErr string
}

// Submission is a submitted form as Page.Parse reads it: the answers, or
// what was wrong, question by question, for Page.WriteForm to show.
type Submission struct {
	// Answers holds one answer per item when OK, else nil.
	Answers   []prompt.Answer
	questions []submittedQuestion
}

// OK reports whether the form answered every question, and well.
func (s *Submission) OK() bool { return s.Answers != nil }

// MaxFormBytes returns the largest form that the page of n questions sends,
// with room to spare: every choice, and an answer of the person's own and a
// note of the longest length in 4-byte characters, each percent-encoded.
func MaxFormBytes(n int) int64 {
	perQuestion := int64(2*schema.MaxOtherLength*4*3 + 1024)
	return 16<<10 + int64(n)*perQuestion
}

// Parse reads the answers from a submitted form, checking them as every
// view does (Question.Check). Field qN holds question N's choices, each an
// option's number (0 for Other) as the page sends it or, as on the line
// prompt, an option's label or "other"; qN-other holds the person's own
// answer, or the answer of typed text; qN-note holds a note on the answer.
// Anything else is refused with a problem for its question, so that a
// forged form cannot give an answer the page could not.
func (p *Page) Parse(values url.Values) *Submission {
	answers := make([]prompt.Answer, len(p.Questions))
	s := &Submission{questions: make([]submittedQuestion, len(p.Questions))}
	for i, q := range p.Questions {
		s.questions[i], answers[i] = parseQuestion(q, "q"+strconv.Itoa(i), values)
	}
	if !slices.ContainsFunc(s.questions, func(fq submittedQuestion) bool { return fq.err != "" || fq.noteErr != "" }) {
		s.Answers = answers
	}
	return s
}

// parseQuestion reads the answer to q from the form fields named name,
// with what to put right in it, if anything.
func parseQuestion(q schema.Question, name string, values url.Values) (submittedQuestion, prompt.Answer) {
	var answer prompt.Answer
	fq := submittedQuestion{
		chosen: make([]bool, len(q.Options)+1),
		other:  values.Get(name + "-other"),
		note:   values.Get(name + "-note"),
	}
	if q.Kind.OffersNote() {
		// The note is checked apart, so that the page can say what is
		// wrong with it and with the answer at once.
		note, err := schema.CheckOther(fq.note)
		if !errors.Is(err, schema.ErrOtherEmpty) { // blank is no note
			fq.noteErr = typedProblem("note", err)
			answer.Note = note
		}
	}
	for _, v := range values[name] {
		j, ok := q.Choice(strings.TrimSpace(v))
		if !ok || !utf8.ValidString(v) || (j < 0 && !q.Kind.OffersOther()) {
			fq.err = "That is not one of this question's options."
			continue
		}
		fq.chosen[j+1] = true // Other, -1, is chosen[0]
	}
	_, err := schema.CheckOther(fq.other)
	typed := !errors.Is(err, schema.ErrOtherEmpty) // something, fit or not
	if typed && q.Kind.OffersOther() && !slices.Contains(fq.chosen, true) {
		// Text typed without choosing Other, as the page without its
		// script allows, chooses it.
		fq.chosen[0] = true
	}
	for j, o := range q.Options {
		if fq.chosen[j+1] {
			answer.Labels = append(answer.Labels, o.Label)
		}
	}
	if typed && (fq.chosen[0] || q.Kind.Typed()) {
		answer.Other = fq.other
	}
	answer, err = q.Check(answer)
	switch {
	case fq.err != "":
	case errors.Is(err, schema.ErrNoText):
		fq.err = "Type your answer."
	case errors.Is(err, schema.ErrNothingChosen) && !fq.chosen[0] && q.MultiSelect:
		fq.err = "Choose at least one option."
	case errors.Is(err, schema.ErrNothingChosen) && !fq.chosen[0]:
		fq.err = "Choose an option."
	case errors.Is(err, schema.ErrTooMany):
		fq.err = "Choose only one option."
	case fq.chosen[0] && !typed:
		fq.err = typedProblem("answer", schema.ErrOtherEmpty)
	case err != nil:
		fq.err = typedProblem("answer", err)
	}
	return fq, answer
}

// typedProblem says on the page what schema.CheckOther found wrong with a
// typed answer or note (what), or "" when nothing was.
func typedProblem(what string, err error) string {
	long, tooLong := errors.AsType[*schema.OtherLengthError](err)
	switch {
	case err == nil:
		return ""
	case tooLong:
		return fmt.Sprintf("Your %s is too long: at most %d characters (got %d).", what, schema.MaxOtherLength, long.Length)
	case errors.Is(err, schema.ErrOtherEncoding):
		return fmt.Sprintf("Your %s was not sent as UTF-8 text.", what)
	}
	return "Type your own answer, or choose one of the options."
}

// view is what the page template shows.
type view struct {
	Nonce string
	// The addresses the page uses, with the token.
	AnswerURL, CancelURL, WaitURL string
	// MaxOther is the longest typed answer or note, in characters.
	MaxOther int
	CSS      template.CSS
	JS       template.JS
	Title    string
	// App names the program in the title and above it: askuser, or
	// askuser inbox.
	App string
	// State is "form", "answered", "cancelled" or "withdrawn"; for a page
	// in a queue, also "idle" (nothing waits) and "closed" (the queue is
	// gone).
	State string
	// Queue is what a page in a queue shows beyond its questions; nil for
	// a page of its own.
	Queue     *queueView
	Questions []webQuestion
	// AnyOther says whether some question offers Other.
	AnyOther bool
	Answered int
	// Summary is the answers given, in question order.
	Summary []webSummaryLine
	// Reason says why the question was withdrawn, when known.
	Reason string
}

// queueView is InQueue as the page shows it: with its From and Notice
// drawn through prompt.Display, and its Waited in words.
type queueView struct {
	InQueue
	// Set tells the page of one set from the page of the next: its Base.
	Set     string
	Waited  string
	Seconds int // Waited in seconds, for the script to count on from
	// NextURL is where the Next button posts; HomeURL, the queue's page.
	NextURL, HomeURL string
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
	// Note is the note field, or nil when the question has none.
	Note *webNote
}

type webOption struct {
	ID, Value   string
	Name        string // the label without "(Recommended)", which is shown apart
	Recommended bool
	Description string
	Preview     string
	Checked     bool
}

// webNote is a question's note field: what is in it, and its problem.
type webNote struct {
	Text, Error string
	Max         int // the longest note, in characters
	// Open shows the field, not only the button that reveals it: when it
	// holds something, or something is wrong with it.
	Open bool
}

type webSummaryLine struct {
	Header, Question, Answer, Note string
}

// url returns the address of action ("", "answer", ...) under base, with
// the token.
func (p *Page) url(base, action string) string {
	return base + action + "?token=" + url.QueryEscape(p.Token)
}

// WriteForm writes the page of questions with code, showing what sub chose
// and its problems; a nil sub shows what each question starts with.
func (p *Page) WriteForm(w http.ResponseWriter, code int, sub *Submission) {
	v := &view{State: "form", Title: fmt.Sprintf("%d questions", len(p.Questions))}
	if len(p.Questions) == 1 {
		v.Title = "Question: " + prompt.Display(p.Questions[0].Header)
	}
	for i, q := range p.Questions {
		id := "q" + strconv.Itoa(i)
		// What the question starts with: its default, typed in or chosen.
		fq := submittedQuestion{chosen: make([]bool, len(q.Options)+1)}
		if q.Kind.Typed() {
			fq.other = q.Default
		}
		for j, o := range q.Options {
			fq.chosen[j+1] = o.Label == q.Default
		}
		if sub != nil { // Parse's, of these questions
			fq = sub.questions[i]
		}
		// The questions' text is shown as on a terminal (prompt.Display),
		// and html/template escapes it on top. The text fields' values are
		// not: they are answers, sent back and checked by schema.CheckOther.
		wq := webQuestion{
			ID: id, Header: prompt.Display(q.Header), Question: prompt.DisplayMultiline(q.Question),
			Num: i + 1, Total: len(p.Questions), Multi: q.MultiSelect,
			Text: q.Kind.Typed(), Placeholder: prompt.Display(q.Placeholder),
			OtherText: fq.other,
			Error:     fq.err,
		}
		if q.Kind.OffersNote() {
			wq.Note = &webNote{
				Text: fq.note, Error: fq.noteErr, Max: schema.MaxOtherLength,
				Open: strings.TrimSpace(fq.note) != "" || fq.noteErr != "",
			}
		}
		if q.Kind.OffersOther() {
			v.AnyOther = true
			wq.Other = &webOption{
				ID: id + "-0", Value: "0", Name: "Other",
				Description: "Type your own answer", Checked: fq.chosen[0],
			}
		}
		wq.Options, wq.HasPreview = webOptions(id, q, fq.chosen)
		if fq.err == "" && (sub != nil || q.Default != "") {
			v.Answered++
		}
		v.Questions = append(v.Questions, wq)
	}
	p.write(w, code, v)
}

// webOptions returns the options of q, whose fields are named id, as the page
// shows them, chosen (chosen[j] for option j from 1) or not; hasPreview says
// whether any has a preview.
func webOptions(id string, q schema.Question, chosen []bool) (opts []webOption, hasPreview bool) {
	for j, o := range q.Options {
		name := strings.TrimSpace(o.Label)
		if base := strings.TrimSpace(strings.TrimSuffix(name, "(Recommended)")); base != "" {
			name = base
		}
		preview := ""
		if !q.MultiSelect {
			preview = o.Preview
		}
		hasPreview = hasPreview || preview != ""
		opts = append(opts, webOption{
			ID: id + "-" + strconv.Itoa(j+1), Value: strconv.Itoa(j + 1),
			Name: prompt.Display(name), Recommended: o.Recommended(),
			Description: prompt.DisplayMultiline(o.Description), Preview: prompt.DisplayMultiline(preview),
			Checked: chosen[j+1],
		})
	}
	return opts, hasPreview
}

// writeStatus writes the page as e has it, with code: the questions while
// waiting (nil), and how the wait ended after that.
func (p *Page) writeStatus(w http.ResponseWriter, code int, e *ending) {
	var v *view
	switch {
	case e == nil:
		p.WriteForm(w, code, nil)
		return
	case e.err == nil:
		v = &view{State: "answered", Title: "Answered"}
		// Parse gave one answer per question.
		for i, q := range p.Questions {
			v.Summary = append(v.Summary, webSummaryLine{
				Header:   prompt.Display(q.Header),
				Question: prompt.DisplayMultiline(q.Question),
				Answer:   prompt.Display(e.answers[i].String()),
				Note:     prompt.Display(e.answers[i].Note),
			})
		}
	case errors.Is(e.err, prompt.ErrCancelled):
		v = &view{State: "cancelled", Title: "Cancelled"}
	default:
		v = &view{State: "withdrawn", Title: "Question withdrawn", Reason: e.reason}
	}
	p.write(w, code, v)
}

// WriteIdle writes the page of a queue (p.Queue) in which nothing waits,
// with code: it waits on Base+"wait" for a set to arrive. p.Queue says
// what became of the set shown before; p.Questions are not shown.
func (p *Page) WriteIdle(w http.ResponseWriter, code int) {
	p.write(w, code, &view{State: "idle", Title: "Nothing waiting"})
}

// WriteClosed writes the page of a queue (p.Queue) that is gone (the inbox
// quit), with code.
func (p *Page) WriteClosed(w http.ResponseWriter, code int) {
	p.write(w, code, &view{State: "closed", Title: "The inbox has quit"})
}

// write writes v with a policy that lets the page run only its own inline
// style and script, send only to this server, and be framed by nothing.
func (p *Page) write(w http.ResponseWriter, code int, v *view) {
	nonce := rand.Text()
	v.Nonce, v.MaxOther = nonce, schema.MaxOtherLength
	v.AnswerURL, v.CancelURL, v.WaitURL = p.url(p.Base, "answer"), p.url(p.Base, "cancel"), p.url(p.Base, "wait")
	v.App = "askuser"
	if q := p.Queue; q != nil {
		v.App = "askuser inbox"
		v.WaitURL += "&more=" + strconv.Itoa(q.More)
		v.Queue = &queueView{
			InQueue: *q, Set: p.Base, Waited: prompt.Waited(q.Waited), Seconds: int(q.Waited.Seconds()),
			NextURL: p.url(p.Base, "next"), HomeURL: p.url(q.Home, ""),
		}
		v.Queue.From, v.Queue.Notice = prompt.Display(q.From), prompt.Display(q.Notice)
	}
	v.CSS, v.JS = template.CSS(pageCSS), template.JS(pageJS)
	var b bytes.Buffer
	if err := webTemplate().Execute(&b, v); err != nil {
		localhttp.Refuse(w, http.StatusInternalServerError, "Could not make the page.")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; "+
		"script-src 'nonce-"+nonce+"'; style-src 'nonce-"+nonce+"'; img-src data:; "+
		"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(code)
	// A page that cannot be written has no one left to read it.
	_, _ = w.Write(b.Bytes())
}
