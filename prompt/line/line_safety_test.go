package line

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

func single() schema.Question {
	return schema.Question{
		Question: "Which database should we use?",
		Header:   "Database",
		Options: []schema.Option{
			{Label: "PostgreSQL (Recommended)", Description: "Relational, rich features"},
			{Label: "SQLite", Description: "Embedded, zero configuration", Preview: "db, _ := sql.Open(\"sqlite\", \"app.db\")"},
		},
	}
}

func multi() schema.Question {
	return schema.Question{
		Question: "Which features should we enable?",
		Header:   "Features",
		Options: []schema.Option{
			{Label: "Auth", Description: "Log in"},
			{Label: "Search", Description: "Full text"},
			{Label: "Dark mode", Description: "A dark theme"},
		},
		MultiSelect: true,
	}
}

// checkDrawable fails when s holds anything a terminal would obey rather
// than show: anything that prompt.Display would change. Line breaks are
// allowed only when multiline.
func checkDrawable(t testing.TB, s string, multiline bool) {
	t.Helper()
	lines := []string{s}
	if multiline {
		lines = strings.Split(s, "\n")
	}
	for _, l := range lines {
		if prompt.Display(l) != l {
			t.Fatalf("undrawable text %q in %q", l, s)
		}
	}
}

// askLine runs a line asker over input and returns its answers, transcript
// and error.
func askLine(t testing.TB, input string, qs ...schema.Question) ([]prompt.Answer, string, error) {
	t.Helper()
	var out bytes.Buffer
	a, err := New(strings.NewReader(input), &out, true).Ask(context.Background(), qs)
	return a, out.String(), err
}

func TestLineHostileTextIsNotObeyed(t *testing.T) {
	q := schema.Question{
		Question: "Pick one\x1b]0;owned\x07\x1b[2J?",
		Header:   "\x1b[31mHdr\u202e",
		Options: []schema.Option{
			{Label: "A\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\", Description: "line one\r\nline\ttwo\x1b]52;c;cm0gLXJm\x07"},
			{Label: "B\u009b2J", Description: "b", Preview: "code\n\tindented\rback"},
		},
	}
	a, out, err := askLine(t, "\x1b[A2\n", q)
	if err != nil {
		// "\x1b[A2" is not a choice; then the input ends.
		_, ok := errors.AsType[*prompt.ShortError](err)
		if !ok {
			t.Fatal(err)
		}
	}
	_ = a
	checkDrawable(t, out, true)
	for _, want := range []string{
		`[1/1] \x1b[31mHdr\u202e`,
		`Pick one\x1b]0;owned\x07\x1b[2J?`,
		`  1. A\x1b]8;;https://evil.example\x1b\link\x1b]8;;\x1b\`,
		"     line one\n     line    two\\x1b]52;c;cm0gLXJm\\x07\n",
		`  2. B\u009b2J`,
		"     │ code\n     │     indented\\x0dback\n",
		`No option is called "\x1b[A2"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("transcript lacks %q:\n%s", want, out)
		}
	}
}

func TestLineOther(t *testing.T) {
	long := strings.Repeat("ü", schema.MaxOtherLength+1)
	for _, tc := range []struct {
		name, input, want, say string
	}{
		{"cleaned", "0\n  \x1b[1mMaria\u202eDB\x07 \n", "[1mMariaDB", ""},
		{"empty, back, then text", "0\n \t\n0\nMariaDB\n", "MariaDB", "Nothing typed: back to the options.\n"},
		{"only controls is empty", "other\n\x1b\x1b\nother\nok\n", "ok", "Nothing typed: back to the options.\n"},
		{"invalid utf-8", "0\ncaf\xe9\ncafé\n", "café", "Your answer must be UTF-8 text; check the terminal's encoding; type it again, or press Enter to go back to the options.\n"},
		{"too long", "0\n" + long + "\nshort\n", "short", "Your answer must be at most 2000 characters (got 2001); type it again, or press Enter to go back to the options.\n"},
		{"crlf", "0\r\nMariaDB\r\n", "MariaDB", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, out, err := askLine(t, tc.input, single())
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if a[0].Other != tc.want || len(a[0].Labels) != 0 {
				t.Errorf("answer %+v, want Other %q", a[0], tc.want)
			}
			if !strings.Contains(out, tc.say) {
				t.Errorf("transcript lacks %q:\n%s", tc.say, out)
			}
			checkDrawable(t, out, true)
		})
	}
}

// A line far over maxLineLength is refused and asked again, without
// holding more than maxLineLength of it in memory or waiting for more.
func TestLineVeryLongLine(t *testing.T) {
	for _, size := range []int{maxLineLength - 10, maxLineLength + 1, 4 * maxLineLength, 16 << 20} {
		input := "0\n" + strings.Repeat("x", size) + "\nshort\n"
		done := make(chan struct{})
		var a []prompt.Answer
		var err error
		var out string
		go func() {
			defer close(done)
			a, out, err = askLine(t, input, single())
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%d-byte line: no answer after 20s", size)
		}
		if err != nil {
			t.Fatalf("%d-byte line: %v", size, err)
		}
		want := "short"
		if size <= schema.MaxOtherLength {
			want = strings.Repeat("x", size)
		}
		if a[0].Other != want {
			t.Errorf("%d-byte line: answer of %d bytes, want %d", size, len(a[0].Other), len(want))
		}
		if size > maxLineLength && !strings.Contains(out, "That line is longer than 64 KiB; enter a shorter answer.\n") {
			t.Errorf("%d-byte line: no refusal in transcript", size)
		}
		if size > maxLineLength && len(out) > 8<<10 {
			t.Errorf("%d-byte line: transcript of %d bytes echoes the line", size, len(out))
		}
	}
}

// A long line at the end of the input, with no line ending, is still one
// refused line and then the end of the input.
func TestLineVeryLongLastLine(t *testing.T) {
	_, _, err := askLine(t, "0\n"+strings.Repeat("y", 3*maxLineLength), single())
	short, ok := errors.AsType[*prompt.ShortError](err)
	if !ok || short.Answered != 0 {
		t.Fatalf("err = %v, want a prompt.ShortError after 0 answers", err)
	}
}

func TestLineAnswers(t *testing.T) {
	a, out, err := askLine(t, "\n2\n1 3\nsearch, 0\nMy own\n", single(), single(), multi(), multi())
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := []string{a[0].String(), a[1].String(), a[2].String(), a[3].String()}
	want := []string{"PostgreSQL (Recommended)", "SQLite", "Auth, Dark mode", "Search, My own"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("answer %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestLineEndOfInput(t *testing.T) {
	_, _, err := askLine(t, "1\n", single(), single())
	short, ok := errors.AsType[*prompt.ShortError](err)
	if !ok || short.Answered != 1 || !errors.Is(err, prompt.ErrNoAnswer) {
		t.Fatalf("err = %v, want a prompt.ShortError after 1 answer", err)
	}
}

// Ask returns as soon as its context ends, with the cause, even while a
// read is blocked.
func TestLineContextEnds(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("stop")
	time.AfterFunc(50*time.Millisecond, func() { cancel(cause) })
	_, err := New(r, io.Discard, false).Ask(ctx, []schema.Question{single()})
	if !errors.Is(err, cause) {
		t.Fatalf("err = %v, want %v", err, cause)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestLinePromptWriteFails(t *testing.T) {
	_, err := New(strings.NewReader("1\n"), failingWriter{}, false).Ask(context.Background(), []schema.Question{single()})
	if err == nil || !strings.Contains(err.Error(), "write prompt") {
		t.Fatalf("err = %v, want a write prompt error", err)
	}
}

// FuzzLineAsk feeds arbitrary answer input to the line asker over two
// questions: it must answer both or report that the input ended, never
// panic or hang, draw nothing a terminal would obey, and answer only with
// the questions' labels and clean typed text.
func FuzzLineAsk(f *testing.F) {
	for _, s := range []string{
		"", "\n", "1\n2\n", "0\nmine\n1,3\n", "other\n\x1b[31m\n\xff\nok\n2\n", "9\n-1\n1 2\n2\n0\n0\n",
		"\r\n\r\n", "sqlite\nAUTH, search\n", "0\n\n\n", "1\n" + strings.Repeat("9", 70000) + "\n1\n",
	} {
		f.Add([]byte(s))
	}
	qs := []schema.Question{single(), multi()}
	f.Fuzz(func(t *testing.T, input []byte) {
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		a, err := New(bytes.NewReader(input), &out, true).Ask(ctx, qs)
		checkDrawable(t, out.String(), true)
		if err != nil {
			short, ok := errors.AsType[*prompt.ShortError](err)
			if !ok || short.Answered < 0 || short.Answered >= len(qs) {
				t.Fatalf("err = %v", err)
			}
			return
		}
		if len(a) != len(qs) {
			t.Fatalf("%d answers for %d questions", len(a), len(qs))
		}
		for i, ans := range a {
			checkAnswer(t, qs[i], ans)
		}
	})
}

// checkAnswer fails unless a could be an answer to q: labels of q in option
// order (one at most for a single-select), a clean typed text, and not
// nothing.
func checkAnswer(t testing.TB, q schema.Question, a prompt.Answer) {
	t.Helper()
	at := 0
	for _, l := range a.Labels {
		for at < len(q.Options) && q.Options[at].Label != l {
			at++
		}
		if at == len(q.Options) {
			t.Fatalf("answer %+v: labels not options of %q in order", a, q.Header)
		}
		at++
	}
	if !q.MultiSelect && len(a.Labels)+btoi(a.Other != "") != 1 {
		t.Fatalf("single-select answer %+v", a)
	}
	if len(a.Labels) == 0 && a.Other == "" {
		t.Fatalf("empty answer %+v", a)
	}
	if a.Other != "" {
		if clean, err := schema.CheckOther(a.Other); err != nil || clean != a.Other {
			t.Fatalf("typed answer %q is not clean: %q, %v", a.Other, clean, err)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// FuzzParseChoice: any line for any question gives a choice or a reason to
// ask again, never both, never neither.
func FuzzParseChoice(f *testing.F) {
	for _, s := range []string{"", "1", "0", "other", "2,3", "1 3", " sqlite ", "Dark mode", "dark mode, 0", "4", "-1", "1,,2", "99999999999999999999", "\x1b[A", "Auth Search", "\ufe050"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, line string, isMulti bool) {
		q := single()
		if isMulti {
			q = multi()
		}
		labels, other, problem := parseChoice(q, line)
		if problem != "" {
			if labels != nil || other {
				t.Fatalf("ParseChoice(%q) = %q, %v and problem %q", line, labels, other, problem)
			}
			checkDrawable(t, problem, false)
			return
		}
		a := prompt.Answer{Labels: labels}
		if other {
			a.Other = "typed"
		}
		checkAnswer(t, q, a)
	})
}

// Confirm, Input and text questions draw their text through Display too.
func TestLineConfirmInputTextHostile(t *testing.T) {
	var out bytes.Buffer
	l := New(strings.NewReader("y\n\x1b[2J typed \n\n  mine\t \n"), &out, true)
	if a, err := l.Ask(context.Background(), []schema.Question{schema.ConfirmQuestion("Proceed\x1b]0;t\x07?", false)}); err != nil || !schema.IsYes(a[0]) {
		t.Fatalf("Confirm = %+v, %v", a, err)
	}
	got, err := l.Ask(context.Background(), []schema.Question{schema.InputQuestion("Name\u202e?", "\x1b[31mph", "")})
	if err != nil || got[0].Other != "[2J typed" {
		t.Fatalf("Input = %+v, %v", got, err)
	}
	q := schema.Question{Question: "Why\x9b?", Header: "Why", Kind: schema.KindText, Placeholder: "\x1b]8;;x\x1b\\"}
	a, err := l.Ask(context.Background(), []schema.Question{q})
	if err != nil || a[0].Other != "mine" {
		t.Fatalf("Ask = %+v, %v", a, err)
	}
	checkDrawable(t, out.String(), true)
	for _, want := range []string{`Proceed\x1b]0;t\x07? [y/N]: `, `Name\u202e?`, `e.g. \x1b[31mph`, `e.g. \x1b]8;;x\x1b\`, "Your answer cannot be empty"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("transcript lacks %q:\n%s", want, out.String())
		}
	}
}
