package line

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

var (
	database = schema.Question{
		Question: "Which database?", Header: "Database",
		Options: []schema.Option{
			{Label: "PostgreSQL (Recommended)", Description: "Relational"},
			{Label: "SQLite", Description: "Embedded"},
			{Label: "Cloud SQL", Description: "Managed"},
		},
	}
	features = schema.Question{
		Question: "Which features?", Header: "Features", MultiSelect: true,
		Options: []schema.Option{
			{Label: "Auth", Description: "Log in"},
			{Label: "Full text search", Description: "Find things"},
			{Label: "Yes, billing", Description: "Take money"},
			{Label: "Reports", Description: "Charts"},
		},
	}
)

func TestParseChoice(t *testing.T) {
	tests := []struct {
		name    string
		q       schema.Question
		line    string
		labels  []string
		other   bool
		problem string
	}{
		// Single-select.
		{"empty takes the first", database, "", []string{"PostgreSQL (Recommended)"}, false, ""},
		{"spaces take the first", database, " \t ", []string{"PostgreSQL (Recommended)"}, false, ""},
		{"number", database, "2", []string{"SQLite"}, false, ""},
		{"number, spaced", database, "  3 ", []string{"Cloud SQL"}, false, ""},
		{"number with a comma after", database, "2,", []string{"SQLite"}, false, ""},
		{"label", database, "SQLite", []string{"SQLite"}, false, ""},
		{"label in another case", database, "sqlite", []string{"SQLite"}, false, ""},
		{"label with spaces", database, "cloud sql", []string{"Cloud SQL"}, false, ""},
		{"whole label with parentheses", database, "postgresql (recommended)", []string{"PostgreSQL (Recommended)"}, false, ""},
		{"0 is other", database, "0", nil, true, ""},
		{"other", database, "Other", nil, true, ""},
		{"out of range", database, "4", nil, false, "4 is not a choice: enter a number from 0 to 3."},
		{"negative", database, "-1", nil, false, "-1 is not a choice: enter a number from 0 to 3."},
		{"unknown label", database, "MySQL", nil, false, `No option is called "MySQL": enter a number from 0 to 3, or an option's label.`},
		{"part of a label", database, "PostgreSQL", nil, false, `No option is called "PostgreSQL": enter a number from 0 to 3, or an option's label.`},
		{"several numbers", database, "1 2", nil, false, "Choose one option: enter a single number."},
		{"several numbers with a comma", database, "1,2", nil, false, "Choose one option: enter a single number."},
		{"a number and other", database, "1 0", nil, false, "Choose one option: enter a single number."},
		{"a character that draws nothing", database, "\ufe050", nil, false, `No option is called "⟨U+FE05⟩0": enter a number from 0 to 3, or an option's label.`},
		{"an escape", database, "\x1b[2J", nil, false, `No option is called "\x1b[2J": enter a number from 0 to 3, or an option's label.`},
		{"only a comma", database, ",", nil, false, `"," is not a choice: enter a number from 0 to 3.`},

		// Multi-select.
		{"multi: empty chooses nothing", features, "", nil, false, "Choose at least one: enter numbers from 0 to 4, separated by commas or spaces."},
		{"multi: spaces choose nothing", features, " \t ", nil, false, "Choose at least one: enter numbers from 0 to 4, separated by commas or spaces."},
		{"multi: one number", features, "4", []string{"Reports"}, false, ""},
		{"multi: commas", features, "1,3", []string{"Auth", "Yes, billing"}, false, ""},
		{"multi: spaces", features, "1 3", []string{"Auth", "Yes, billing"}, false, ""},
		{"multi: both, and repeats", features, " 4 , 1  4,,2 ", []string{"Auth", "Full text search", "Reports"}, false, ""},
		{"multi: option order", features, "4 2 1", []string{"Auth", "Full text search", "Reports"}, false, ""},
		{"multi: labels", features, "reports, auth", []string{"Auth", "Reports"}, false, ""},
		{"multi: labels by spaces", features, "reports auth", []string{"Auth", "Reports"}, false, ""},
		{"multi: a label with spaces among numbers", features, "4 full text search 1", []string{"Auth", "Full text search", "Reports"}, false, ""},
		{"multi: a label with a comma, whole", features, "yes, billing", []string{"Yes, billing"}, false, ""},
		{"multi: other alone", features, "0", nil, true, ""},
		{"multi: other with numbers", features, "2, 0 1", []string{"Auth", "Full text search"}, true, ""},
		{"multi: other by name", features, "auth other", []string{"Auth"}, true, ""},
		{"multi: out of range", features, "1 5", nil, false, "5 is not a choice: enter a number from 0 to 4."},
		{"multi: unknown label", features, "1, Audit log, 2", nil, false, `No option is called "Audit log": enter a number from 0 to 4, or an option's label.`},
		{"multi: unknown label before a number", features, "audit log 2", nil, false, `No option is called "audit log": enter a number from 0 to 4, or an option's label.`},
		{"multi: only separators", features, ", ,", nil, false, `", ," is not a choice: enter numbers from 0 to 4, separated by commas or spaces.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			labels, other, problem := parseChoice(tt.q, tt.line)
			if !reflect.DeepEqual(labels, tt.labels) || other != tt.other || problem != tt.problem {
				t.Errorf("ParseChoice(%q) = %q, %v, %q\n                 want %q, %v, %q",
					tt.line, labels, other, problem, tt.labels, tt.other, tt.problem)
			}
		})
	}
}

func TestAnswerString(t *testing.T) {
	tests := []struct {
		a    prompt.Answer
		want string
	}{
		{prompt.Answer{Labels: []string{"A"}}, "A"},
		{prompt.Answer{Labels: []string{"A", "C"}}, "A, C"},
		{prompt.Answer{Other: "mine"}, "mine"},
		{prompt.Answer{Labels: []string{"A", "C"}, Other: "mine"}, "A, C, mine"},
		{prompt.Answer{}, ""},
	}
	for _, tt := range tests {
		if got := tt.a.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.a, got, tt.want)
		}
	}
	// String must not write into the caller's slice.
	labels := make([]string, 1, 4)
	labels[0] = "A"
	_ = prompt.Answer{Labels: labels, Other: "x"}.String()
	if labels[:2][1] != "" {
		t.Error("String wrote past the labels")
	}
}

// ask runs a line asker over input, with a deadline so that a hang fails
// the test rather than stalling it.
func ask(t *testing.T, input string, echo bool, qs ...schema.Question) ([]prompt.Answer, string, error) {
	t.Helper()
	var out strings.Builder
	type result struct {
		answers []prompt.Answer
		err     error
	}
	done := make(chan result, 1)
	go func() {
		a, err := New(strings.NewReader(input), &out, echo).Ask(context.Background(), qs)
		done <- result{a, err}
	}()
	select {
	case r := <-done:
		return r.answers, out.String(), r.err
	case <-time.After(10 * time.Second):
		t.Fatal("Ask did not return within 10s")
		return nil, "", nil
	}
}

func TestLineAsk(t *testing.T) {
	got, transcript, err := ask(t, "2\n4 1\n", false, database, features)
	if err != nil {
		t.Fatal(err)
	}
	want := []prompt.Answer{{Labels: []string{"SQLite"}}, {Labels: []string{"Auth", "Reports"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("answers = %+v, want %+v", got, want)
	}
	wantTranscript := `[1/2] Database
Which database?
  1. PostgreSQL (Recommended)
     Relational
  2. SQLite
     Embedded
  3. Cloud SQL
     Managed
  0. Other (type your own answer)
Enter a number (Enter for 1, 0 for your own answer): [2/2] Features
Which features?
  1. Auth
     Log in
  2. Full text search
     Find things
  3. Yes, billing
     Take money
  4. Reports
     Charts
  0. Other (type your own answer)
Enter numbers separated by commas or spaces (0 for your own answer): `
	if transcript != wantTranscript {
		t.Errorf("transcript without echo:\n%s\nwant:\n%s", transcript, wantTranscript)
	}
}

func TestLineEcho(t *testing.T) {
	_, transcript, err := ask(t, "9\r\n\r\n", true, database)
	if err != nil {
		t.Fatal(err)
	}
	want := "Enter a number (Enter for 1, 0 for your own answer): 9\n" +
		"9 is not a choice: enter a number from 0 to 3.\n" +
		"Enter a number (Enter for 1, 0 for your own answer): \n"
	if !strings.HasSuffix(transcript, want) {
		t.Errorf("transcript ends:\n%q\nwant:\n%q", transcript, want)
	}
}

func TestLinePreview(t *testing.T) {
	q := schema.Question{
		Question: "Which layout?", Header: "Layout",
		Options: []schema.Option{
			{Label: "Flat", Description: "One package", Preview: "main.go\ncmd.go  \n"},
			{Label: "Deep", Description: "Many packages"},
		},
	}
	_, transcript, err := ask(t, "\n", false, q)
	if err != nil {
		t.Fatal(err)
	}
	if want := "  1. Flat\n     One package\n     │ main.go\n     │ cmd.go\n  2. Deep\n"; !strings.Contains(transcript, want) {
		t.Errorf("no preview under the option:\n%s", transcript)
	}
	// A multi-select question does not show previews.
	q.MultiSelect = true
	_, transcript, _ = ask(t, "\n", false, q)
	if strings.Contains(transcript, "│") {
		t.Errorf("preview shown for a multi-select question:\n%s", transcript)
	}
}

func TestLineReasks(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		q        schema.Question
		want     prompt.Answer
		problems []string
	}{
		{"out of range, then a number", "7\n2\n", database, prompt.Answer{Labels: []string{"SQLite"}},
			[]string{"7 is not a choice: enter a number from 0 to 3."}},
		{"unknown label, then a label", "MySQL\ncloud sql\n", database, prompt.Answer{Labels: []string{"Cloud SQL"}},
			[]string{`No option is called "MySQL": enter a number from 0 to 3, or an option's label.`}},
		{"several for a single-select", "1 2\n1\n", database, prompt.Answer{Labels: []string{"PostgreSQL (Recommended)"}},
			[]string{"Choose one option: enter a single number."}},
		// An empty answer of one's own goes back to the options, and
		// what is typed next is a choice again, not the answer.
		{"other, empty, then a number", "0\n\n2\n", database, prompt.Answer{Labels: []string{"SQLite"}},
			[]string{"Nothing typed: back to the options."}},
		{"other, blank, then other again", "0\n   \n0\n  MariaDB \n", database, prompt.Answer{Other: "MariaDB"},
			[]string{"Nothing typed: back to the options."}},
		{"multi, other, empty, then numbers", "1 0\n\n1 3\n", features, prompt.Answer{Labels: []string{"Auth", "Yes, billing"}},
			[]string{"Nothing typed: back to the options."}},
		{"multi with other", "3 0 1\nAudit log\n", features, prompt.Answer{Labels: []string{"Auth", "Yes, billing"}, Other: "Audit log"}, nil},
		{"CRLF", "0\r\nMariaDB\r\n", database, prompt.Answer{Other: "MariaDB"}, nil},
		{"no final newline", "2", database, prompt.Answer{Labels: []string{"SQLite"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// With echo, every problem is a line of its own.
			got, transcript, err := ask(t, tt.input, true, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, []prompt.Answer{tt.want}) {
				t.Errorf("answers = %+v, want %+v", got, tt.want)
			}
			var problems []string
			for _, line := range strings.Split(transcript, "\n") {
				for _, p := range []string{" is not a choice", "No option", "Choose one", "Your answer cannot", "Nothing typed"} {
					if strings.Contains(line, p) && !strings.HasPrefix(line, "Enter") {
						problems = append(problems, line)
					}
				}
			}
			if !reflect.DeepEqual(problems, tt.problems) {
				t.Errorf("problems shown = %q, want %q\n%s", problems, tt.problems, transcript)
			}
		})
	}
}

func TestLineEOF(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		answered int
	}{
		{"nothing", "", 0},
		{"after one answer", "1\n", 1},
		{"after one answer without newline", "1", 1},
		{"after invalid input", "1\n9\n", 1},
		{"at the own answer", "1\n0\n", 1},
		{"at the own answer, after an empty one", "1\n0\n\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := ask(t, tt.input, false, database, features)
			if got != nil {
				t.Errorf("answers = %+v, want none", got)
			}
			short, ok := errors.AsType[*prompt.ShortError](err)
			if !ok {
				t.Fatalf("err = %v, want a *prompt.ShortError", err)
			}
			if short.Answered != tt.answered {
				t.Errorf("Answered = %d, want %d", short.Answered, tt.answered)
			}
			if !errors.Is(err, prompt.ErrNoAnswer) {
				t.Error("a prompt.ShortError is not prompt.ErrNoAnswer")
			}
		})
	}
}

func TestLineTooLong(t *testing.T) {
	for _, n := range []int{maxLineLength + 3, 3 * maxLineLength} {
		input := strings.Repeat("1", n) + "\n2\n"
		got, transcript, err := ask(t, input, true, database)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, []prompt.Answer{{Labels: []string{"SQLite"}}}) {
			t.Errorf("%d bytes: answers = %+v", n, got)
		}
		if !strings.Contains(transcript, "…\nThat line is longer than 64 KiB; enter a shorter answer.\n") {
			t.Errorf("%d bytes: no refusal in the transcript", n)
		}
		if len(transcript) > 4096 {
			t.Errorf("%d bytes: the long line was echoed (%d bytes of transcript)", n, len(transcript))
		}
	}

	// At the limit, a line is read (and here, refused as no choice).
	input := strings.Repeat("x", maxLineLength) + "\r\n2\n"
	got, transcript, err := ask(t, input, false, database)
	if err != nil || len(got) != 1 || got[0].Labels[0] != "SQLite" {
		t.Fatalf("at the limit: %+v, %v", got, err)
	}
	if strings.Contains(transcript, "longer than") {
		t.Error("a line of exactly MaxLineLength was refused as too long")
	}

	// A long line that ends the input is still refused, then the end of
	// input is reported.
	_, _, err = ask(t, strings.Repeat("1", 2*maxLineLength), false, database)
	if !errors.Is(err, prompt.ErrNoAnswer) {
		t.Errorf("long last line: err = %v, want prompt.ErrNoAnswer", err)
	}
}

type causeError struct{}

func (causeError) Error() string { return "the cause" }

func TestLineCancel(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	var out testutil.Buffer
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := New(r, &out, false).Ask(ctx, []schema.Question{database})
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.HasSuffix(out.String(), ": ") {
		if time.Now().After(deadline) {
			t.Fatal("no prompt within 10s")
		}
		time.Sleep(time.Millisecond)
	}
	cancel(causeError{})
	select {
	case err := <-done:
		if !errors.Is(err, causeError{}) {
			t.Errorf("err = %v, want the cause of the cancellation", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Ask did not return after its context was cancelled")
	}
	if !strings.HasSuffix(out.String(), ": \n") {
		t.Errorf("the prompt line was not ended: %q", out.String())
	}
}

func TestLineDeadline(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := New(r, io.Discard, false).Ask(ctx, []schema.Question{database})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
}

// TestLineReadError checks that a failing input is an error, not the end of
// the answers.
func TestLineReadError(t *testing.T) {
	r, w := io.Pipe()
	w.CloseWithError(errors.New("disk on fire"))
	_, err := New(r, io.Discard, false).Ask(context.Background(), []schema.Question{database})
	if err == nil || errors.Is(err, prompt.ErrNoAnswer) || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("err = %v", err)
	}
}

// TestLineSharedReader checks that one asker reads each line once, across
// questions and calls, without reading ahead of what it needs into a
// reader of its own.
func TestLineSharedReader(t *testing.T) {
	l := New(strings.NewReader("2\n1\n3\n"), io.Discard, false)
	for _, want := range []string{"SQLite", "PostgreSQL (Recommended)", "Cloud SQL"} {
		got, err := l.Ask(context.Background(), []schema.Question{database})
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Labels[0] != want {
			t.Errorf("got %q, want %q", got[0].Labels[0], want)
		}
	}
}

// askAgainReader gives ErrAskAgain once, and then what it holds.
type askAgainReader struct {
	refused bool
	rest    io.Reader
}

func (r *askAgainReader) Read(p []byte) (int, error) {
	if !r.refused {
		r.refused = true
		return 0, ErrAskAgain
	}
	return r.rest.Read(p)
}

// A reader that refuses a line with ErrAskAgain has the prompt shown
// again, and the next line is the answer.
func TestLineAskAgain(t *testing.T) {
	var out strings.Builder
	got, err := New(&askAgainReader{rest: strings.NewReader("2\n")}, &out, false).Ask(context.Background(), []schema.Question{database})
	if err != nil || !reflect.DeepEqual(got, []prompt.Answer{{Labels: []string{"SQLite"}}}) {
		t.Fatalf("Ask = %v, %v; want SQLite", got, err)
	}
	if n := strings.Count(out.String(), "Enter a number"); n != 2 {
		t.Errorf("the prompt was shown %d times, want 2:\n%s", n, out.String())
	}
}

// An input that ends before it gave a single line asked nobody, and says
// so, for the questions to be handed on; one that gave a line, even a
// refused one, asked somebody.
func TestSilentInput(t *testing.T) {
	for _, tc := range []struct {
		input  string
		silent bool
	}{
		{"", true},
		{"\n", false},
		{"9\n", false},
		{"x", false},
	} {
		for _, qs := range [][]schema.Question{{database, database}, {schema.ConfirmQuestion("Deploy?", true)}} {
			_, err := New(strings.NewReader(tc.input), io.Discard, true).Ask(context.Background(), qs)
			if _, got := errors.AsType[*prompt.NobodyError](err); got != tc.silent || (got && !errors.Is(err, prompt.ErrNoAnswer)) {
				t.Errorf("input %q, %d questions: %v; silent %v, want %v", tc.input, len(qs), err, got, tc.silent)
			}
		}
	}
}

// TestEveryKind asks a question of every kind of schema's kind table, as
// a person answers it here.
func TestEveryKind(t *testing.T) {
	input := map[schema.Gesture]string{schema.GesturePick: "2\n", schema.GestureYesNo: "y\n", schema.GestureType: "typed\n"}
	for _, c := range testutil.KindCases(t) {
		in, ok := input[c.Question.Kind.Gesture()]
		if !ok {
			t.Fatalf("the line prompts cannot answer a %s question", c.Question.Kind)
		}
		got, err := New(strings.NewReader(in), io.Discard, false).Ask(context.Background(), []schema.Question{c.Question})
		if err != nil || !reflect.DeepEqual(got, []prompt.Answer{c.Answer}) {
			t.Errorf("the %s question: %+v, %v; want %+v", c.Question.Kind, got, err, c.Answer)
		}
	}
}
