//go:build unix

package tui_test

import (
	"context"
	"errors"
	"os"
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/askuser/askuser/internal/ptytest"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/tui"
	"github.com/askuser/askuser/schema"
)

// The terminal UI is tested in a real pseudo-terminal: keys are typed on
// it and the screen behind it is read, as a person would.

const (
	down  = "\x1b[B"
	up    = "\x1b[A"
	enter = "\r"
	esc   = "\x1b"
	ctrlC = "\x03"
)

var (
	database = schema.Question{
		Question: "Which database should we use?",
		Header:   "Database",
		Options: []schema.Option{
			{Label: "PostgreSQL (Recommended)", Description: "Relational, rich features", Preview: "CREATE TABLE users (\n  id bigserial\n);"},
			{Label: "SQLite", Description: "Embedded, zero configuration", Preview: "sqlite3 app.db"},
		},
	}
	features = schema.Question{
		Question:    "Which features should we enable?",
		Header:      "Features",
		MultiSelect: true,
		Options: []schema.Option{
			{Label: "Auth", Description: "Login and sessions"},
			{Label: "Billing", Description: "Stripe integration"},
			{Label: "Search", Description: "Full-text search"},
		},
	}
)

// asking is an Ask running in its own goroutine on a test terminal.
type asking struct {
	tui     *tui.Prompter
	cancel  context.CancelCauseFunc
	done    chan struct{}
	answers []prompt.Answer
	err     error
}

func startAsk(t *testing.T, tm *ptytest.Term, color bool, qs ...schema.Question) *asking {
	t.Helper()
	ctx, cancel := context.WithCancelCause(context.Background())
	a := &asking{
		tui:    tui.New(tui.Options{In: tm.Tty(), Out: tm.Tty(), Color: color}),
		cancel: cancel,
		done:   make(chan struct{}),
	}
	go func() {
		defer close(a.done)
		a.answers, a.err = a.tui.Ask(ctx, qs)
	}()
	// Cleanups run last-registered first: this one stops Ask before the
	// terminal it uses is closed.
	t.Cleanup(func() {
		cancel(errors.New("test over"))
		select {
		case <-a.done:
		case <-time.After(ptytest.Timeout):
			t.Error("Ask did not return after its context was cancelled")
		}
	})
	return a
}

// wait waits for Ask to return.
func (a *asking) wait(t *testing.T) ([]prompt.Answer, error) {
	t.Helper()
	select {
	case <-a.done:
	case <-time.After(ptytest.Timeout):
		t.Fatal("Ask did not return")
	}
	return a.answers, a.err
}

// answer checks that Ask returned want.
func (a *asking) answer(t *testing.T, want ...prompt.Answer) {
	t.Helper()
	got, err := a.wait(t)
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Ask = %#v, want %#v", got, want)
	}
}

func labels(l ...string) prompt.Answer { return prompt.Answer{Labels: l} }

// checkRestored checks that the terminal is back in line mode, and after
// reading the rest of the output, that the cursor shows and the prompt
// was erased.
func checkRestored(t *testing.T, tm *ptytest.Term) {
	t.Helper()
	if echo, canonical := tm.LineMode(); !echo || !canonical {
		t.Errorf("terminal left with echo %v, line editing %v", echo, canonical)
	}
	tm.Drain()
	if !tm.CursorVisible() {
		t.Error("cursor left hidden")
	}
	if s := tm.Screen(); s != "" {
		t.Errorf("screen not erased:\n%s", s)
	}
}

func TestTUIEnterChoosesTheFirstOption(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, true, database)
	tm.ExpectScreen("❯ 1. PostgreSQL (Recommended)")
	tm.Send(enter)
	a.answer(t, labels("PostgreSQL (Recommended)"))
	checkRestored(t, tm)
}

func TestTUIArrowDownThenEnter(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, true, database)
	tm.ExpectScreen("❯ 1. PostgreSQL")
	tm.Send(down)
	tm.ExpectScreen("❯ 2. SQLite")
	tm.Send(enter)
	a.answer(t, labels("SQLite"))
}

func TestTUIArrowUpWrapsToOther(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, false, database)
	tm.ExpectScreen("❯ 1. PostgreSQL")
	tm.Send(up)
	tm.ExpectScreen("❯ 0. Other")
	tm.Send(enter)
	tm.ExpectScreen("Your answer:")
	tm.Send("MariaDB" + enter)
	a.answer(t, prompt.Answer{Other: "MariaDB"})
}

func TestTUIDigitChooses(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, true, database)
	tm.ExpectScreen("❯ 1. PostgreSQL")
	tm.Send("2")
	a.answer(t, labels("SQLite"))
}

func TestTUIJAndKMove(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, true, database)
	tm.ExpectScreen("❯ 1. PostgreSQL")
	tm.Send("j")
	tm.ExpectScreen("❯ 2. SQLite")
	tm.Send("j")
	tm.ExpectScreen("❯ 0. Other")
	tm.Send("k")
	tm.ExpectScreen("❯ 2. SQLite")
	tm.Send(enter)
	a.answer(t, labels("SQLite"))
}

func TestTUIOtherAsksForText(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, true, database)
	tm.ExpectScreen("0. Other\n     Type your own answer")
	tm.Send("0")
	tm.ExpectScreen("Your answer:")
	tm.Send("CockroachDB")
	tm.ExpectScreen("Your answer: CockroachDB")
	tm.Send("\x7f\x7fXX" + enter)
	a.answer(t, prompt.Answer{Other: "CockroachXX"})
	checkRestored(t, tm)
}

// Other can be left without cancelling: Esc, or Enter with nothing typed
// (blank counts as nothing), goes back to the options as they were, and
// what is pressed there chooses an option. (Esc in the options still
// cancels: see TestTUICancel.)
func TestTUIBackFromOther(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, back string }{
		{"Esc", "half" + esc},
		{"empty Enter", enter},
		{"blank Enter", " \u3000\u200b " + enter},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tm := ptytest.New(t, 60, 30)
			a := startAsk(t, tm, false, database, features)
			tm.ExpectScreen("❯ 1. PostgreSQL")
			tm.Send("0")
			tm.ExpectScreen("Your answer:")
			tm.ExpectScreen("Enter or Esc back · Ctrl+C cancel")
			tm.Send(tc.back)
			tm.ExpectScreen("❯ 0. Other")
			tm.ExpectScreen("Esc cancel")
			tm.Send("2")
			tm.ExpectScreen("❯ [ ] 1. Auth")
			// In a multi-select, the ticks stay as they were.
			tm.Send("1" + "0" + enter)
			tm.ExpectScreen("Chosen: Auth")
			tm.Send(tc.back)
			tm.ExpectScreen("❯ [x] 0. Other")
			tm.ExpectScreen("[x] 1. Auth")
			tm.Send("0" + enter)
			a.answer(t, labels("SQLite"), labels("Auth"))
			checkRestored(t, tm)
		})
	}
}

func TestTUIMultiSelectSpaceAndDigits(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, true, features)
	tm.ExpectScreen("❯ [ ] 1. Auth")
	tm.Send("3")
	tm.ExpectScreen("❯ [x] 3. Search")
	tm.Send(up + up)
	tm.ExpectScreen("❯ [ ] 1. Auth")
	tm.Send(" ")
	tm.ExpectScreen("❯ [x] 1. Auth")
	tm.Send("2")
	tm.ExpectScreen("❯ [x] 2. Billing")
	tm.Send("2") // digits toggle off again
	tm.ExpectScreen("❯ [ ] 2. Billing")
	tm.Send(enter)
	a.answer(t, labels("Auth", "Search")) // option order, not the order chosen
	checkRestored(t, tm)
}

func TestTUIMultiSelectNeedsAChoice(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, false, features)
	tm.ExpectScreen("❯ [ ] 1. Auth")
	tm.Send(enter)
	tm.ExpectScreen("Choose at least one")
	tm.Send(down)
	tm.ExpectScreen("❯ [ ] 2. Billing")
	tm.Send(" ")
	tm.ExpectScreen("❯ [x] 2. Billing")
	if strings.Contains(tm.Screen(), "Choose at least one") {
		t.Error("the reason stays after an option was chosen")
	}
	tm.Send(enter)
	a.answer(t, labels("Billing"))
}

func TestTUIMultiSelectWithOther(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, true, features)
	tm.ExpectScreen("❯ [ ] 1. Auth")
	tm.Send("1")
	tm.ExpectScreen("[x] 1. Auth")
	tm.Send("0")
	tm.ExpectScreen("❯ [x] 0. Other")
	tm.Send(enter)
	tm.ExpectScreen("Chosen: Auth")
	tm.Send("Audit log" + enter)
	a.answer(t, prompt.Answer{Labels: []string{"Auth"}, Other: "Audit log"})
}

func TestTUIProgressOverTwoQuestions(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, true, database, features)
	tm.ExpectScreen("Database   Question 1 of 2\nWhich database should we use?")
	tm.Send("2")
	tm.ExpectScreen("Features   Question 2 of 2\nWhich features should we enable?")
	if s := tm.Screen(); strings.Contains(s, "Database") {
		t.Errorf("the first question is still on screen:\n%s", s)
	}
	tm.Send(" " + enter)
	a.answer(t, labels("SQLite"), labels("Auth"))
	checkRestored(t, tm)
}

func TestTUIOneQuestionHasNoProgress(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, false, database)
	tm.ExpectScreen("[Database]\nWhich database should we use?")
	if strings.Contains(tm.Screen(), "Question 1 of 1") {
		t.Error("progress shown for a single question")
	}
	tm.Send(enter)
	a.answer(t, labels("PostgreSQL (Recommended)"))
}

func TestTUICancel(t *testing.T) {
	t.Parallel()
	for _, where := range []string{"list", "multi-select list", "Other prompt"} {
		for _, k := range []struct{ name, key string }{{"Esc", esc}, {"Ctrl+C", ctrlC}} {
			t.Run(k.name+" in "+where, func(t *testing.T) {
				t.Parallel()
				tm := ptytest.New(t, 60, 30)
				q := database
				if where == "multi-select list" {
					q = features
				}
				a := startAsk(t, tm, true, q)
				tm.ExpectScreen("Esc cancel")
				if where == "Other prompt" {
					tm.Send("0")
					tm.ExpectScreen("Your answer:")
					tm.Send("half")
					tm.ExpectScreen("Your answer: half")
				}
				if where == "Other prompt" && k.key == esc {
					// Esc there goes back to the options, where it cancels.
					tm.Send(esc)
					tm.ExpectScreen("❯ 0. Other")
				}
				tm.Send(k.key)
				if _, err := a.wait(t); !errors.Is(err, prompt.ErrCancelled) {
					t.Errorf("Ask error = %v, want ErrCancelled", err)
				}
				checkRestored(t, tm)
			})
		}
	}
}

func TestTUIContextCancelled(t *testing.T) {
	t.Parallel()
	for _, where := range []string{"list", "Other prompt"} {
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			tm := ptytest.New(t, 60, 30)
			a := startAsk(t, tm, true, database)
			tm.ExpectScreen("❯ 1. PostgreSQL")
			if where == "Other prompt" {
				tm.Send("0")
				tm.ExpectScreen("Your answer:")
			}
			if echo, canonical := tm.LineMode(); echo || canonical {
				t.Errorf("while asking: echo %v, line editing %v; want raw mode", echo, canonical)
			}
			timedOut := errors.New("timed out")
			a.cancel(timedOut)
			if _, err := a.wait(t); err != timedOut {
				t.Errorf("Ask error = %v, want the context's cause", err)
			}
			checkRestored(t, tm)
		})
	}
}

func TestTUIContextAlreadyDone(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("stop")
	cancel(stop)
	_, err := tui.New(tui.Options{In: tm.Tty(), Out: tm.Tty()}).Ask(ctx, []schema.Question{database})
	if err != stop {
		t.Errorf("Ask error = %v, want %v", err, stop)
	}
	checkRestored(t, tm)
}

func TestTUIRestoreFromAnotherGoroutine(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, true, database)
	tm.ExpectScreen("❯ 1. PostgreSQL")
	if err := a.tui.Restore(); err != nil {
		t.Fatalf("Restore: %v", err)
	}
	if echo, canonical := tm.LineMode(); !echo || !canonical {
		t.Errorf("after Restore: echo %v, line editing %v", echo, canonical)
	}
	if err := a.tui.Restore(); err != nil {
		t.Errorf("second Restore: %v", err)
	}
	a.cancel(context.Canceled)
	if _, err := a.wait(t); err != context.Canceled {
		t.Errorf("Ask error = %v, want %v", err, context.Canceled)
	}
	if echo, canonical := tm.LineMode(); !echo || !canonical {
		t.Errorf("after Ask: echo %v, line editing %v", echo, canonical)
	}
	tm.Drain()
	if !tm.CursorVisible() {
		t.Error("cursor left hidden")
	}
	// The question stays on screen, with the cursor below it for the
	// caller's message.
	if s := tm.Screen(); !strings.Contains(s, "Which database") {
		t.Errorf("question erased:\n%s", s)
	}
}

func TestTUIColourOff(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, false, database, features)
	tm.ExpectScreen("❯ 1. PostgreSQL")
	tm.Send("0")
	tm.ExpectScreen("Your answer:")
	tm.Send("x" + enter)
	tm.ExpectScreen("❯ [ ] 1. Auth")
	tm.Send(enter)
	tm.ExpectScreen("Choose at least one")
	tm.Send("1" + enter)
	a.answer(t, prompt.Answer{Other: "x"}, labels("Auth"))
	tm.Drain()
	if sgr := regexp.MustCompile(`\x1b\[[0-9;]*m`).FindAllString(tm.Raw(), -1); len(sgr) > 0 {
		t.Errorf("colour off, yet the output has %q", sgr)
	}
}

func TestTUIColourOn(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, true, database)
	tm.ExpectScreen("❯ 1. PostgreSQL")
	tm.Send(enter)
	a.answer(t, labels("PostgreSQL (Recommended)"))
	tm.Drain()
	raw := tm.Raw()
	for _, want := range []string{"\x1b[1;7m Database \x1b[0m", "\x1b[32;1mPostgreSQL (Recommended)\x1b[0m"} {
		if !strings.Contains(raw, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestTUIScreenShowsDescriptionsAndPreview(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, true, database)
	tm.ExpectScreen(strings.Join([]string{
		"❯ 1. PostgreSQL (Recommended)",
		"     Relational, rich features",
		"  2. SQLite",
		"     Embedded, zero configuration",
		"  0. Other",
		"     Type your own answer",
		"",
		"│ CREATE TABLE users (",
		"│   id bigserial",
		"│ );",
	}, "\n"))
	tm.Send(down)
	tm.ExpectScreen("❯ 2. SQLite")
	tm.ExpectScreen("│ sqlite3 app.db\n│\n│\n")
	tm.Send(down)
	tm.ExpectScreen("│ (no preview)")
	tm.Send(esc)
	if _, err := a.wait(t); !errors.Is(err, prompt.ErrCancelled) {
		t.Errorf("Ask error = %v, want ErrCancelled", err)
	}
}

// long has text longer than a 60-column line everywhere.
var long = schema.Question{
	Question: strings.Repeat("A question that goes on and on. ", 8) + "Which one?",
	Header:   "Very long",
	Options: []schema.Option{
		{Label: "An option label that is exactly fifty characters!", Description: strings.Repeat("A description that wraps. ", 7)},
		{Label: "Short", Description: "Short", Preview: strings.Repeat("a preview line far wider than the terminal it is shown on, ", 3) + "\n" + strings.Repeat("more\n", 30)},
		{Label: "宽字符标签宽字符标签宽字符标签宽字符标签宽字符标签宽字符标签", Description: "Wide characters"},
	},
}

func TestTUILongTextFitsAndDoesNotClimb(t *testing.T) {
	t.Parallel()
	for _, size := range []struct{ cols, rows int }{{60, 30}, {60, 12}, {120, 30}, {30, 8}} {
		t.Run("", func(t *testing.T) {
			t.Parallel()
			tm := ptytest.New(t, size.cols, size.rows)
			a := startAsk(t, tm, true, long, database)
			tm.ExpectScreen("Question 1 of 2")
			steps := []struct{ key, want string }{
				{down, "❯ 2. Short"},
				{down, "❯ 3. 宽字"},
				{down, "❯ 0. Other"},
				{up, "❯ 3. 宽字"},
				{"j", "❯ 0. Other"},
				{"k", "❯ 3. 宽字"},
				{"k", "❯ 2. Short"},
			}
			for _, step := range steps {
				tm.Send(step.key)
				tm.ExpectScreen(step.want)
				if s := tm.Screen(); strings.Count(s, "Question 1 of 2") != 1 || strings.Count(s, "❯") != 1 {
					t.Fatalf("after %q, not exactly one frame:\n%s", step.key, s)
				}
			}
			for i, l := range strings.Split(tm.Screen(), "\n") {
				if n := len([]rune(l)); n >= size.cols {
					t.Errorf("line %d is %d characters wide: %q", i, n, l)
				}
			}
			// Everything drawn must have fitted: the first line of the frame
			// is at the top of the screen, nothing scrolled.
			if first := strings.SplitN(tm.Screen(), "\n", 2)[0]; !strings.Contains(first, "Very long") {
				t.Errorf("the frame scrolled; its first line is %q", first)
			}
			tm.Send(enter)
			tm.ExpectScreen("Question 2 of 2")
			if s := tm.Screen(); strings.Count(s, "Very long") != 0 || strings.Count(s, "Question") != 1 {
				t.Errorf("the first question left something behind:\n%s", s)
			}
			tm.Send(enter)
			a.answer(t, labels("Short"), labels("PostgreSQL (Recommended)"))
			checkRestored(t, tm)
		})
	}
}

func TestTUINoQuestions(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	got, err := tui.New(tui.Options{In: tm.Tty(), Out: tm.Tty()}).Ask(context.Background(), nil)
	if got != nil || err != nil {
		t.Errorf("Ask(no questions) = %v, %v", got, err)
	}
	tm.Drain()
	if raw := tm.Raw(); raw != "" {
		t.Errorf("wrote %q", raw)
	}
}

func TestTUINotATerminal(t *testing.T) {
	t.Parallel()
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = tui.New(tui.Options{In: f, Out: f}).Ask(context.Background(), []schema.Question{database})
	if err == nil {
		t.Error("Ask on a file succeeded")
	}
}

var name = schema.Question{
	Question:    "What should the new component be called?",
	Header:      "Name",
	Kind:        schema.KindText,
	Placeholder: "UserCard",
}

func TestTUITextQuestion(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, false, name)
	tm.ExpectScreen("[Name]\nWhat should the new component be called?\n\nYour answer: e.g. UserCard")
	tm.Send("Card" + "\x1b[H" + "User") // Home, then more at the start
	tm.ExpectScreen("Your answer: UserCard\n")
	tm.Send("\x1b[3~" + enter) // Delete
	a.answer(t, prompt.Answer{Other: "Userard"})
	checkRestored(t, tm)
}

func TestTUIReviewChangesAnAnswer(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	ctx := context.Background()
	ui := tui.New(tui.Options{In: tm.Tty(), Out: tm.Tty(), Review: true})
	done := make(chan struct{})
	var got []prompt.Answer
	var err error
	go func() {
		defer close(done)
		got, err = ui.Ask(ctx, []schema.Question{database, name})
	}()
	tm.ExpectScreen("Question 1 of 2")
	tm.Send("0")
	tm.ExpectScreen("Your answer:")
	tm.Send("MariaDB" + enter)
	tm.ExpectScreen("Question 2 of 2")
	tm.Send("Card" + enter)
	tm.ExpectScreen("  Database  MariaDB\n  Name      Card\n\n❯ 1. Submit")
	tm.Send("2") // change the database: the list starts on Other, its text kept
	tm.ExpectScreen("❯ 0. Other")
	tm.Send(enter)
	tm.ExpectScreen("Your answer: MariaDB")
	tm.Send("\x7f\x7f" + enter)
	tm.ExpectScreen("  Database  Maria\n")
	tm.Send(enter)
	select {
	case <-done:
	case <-time.After(ptytest.Timeout):
		t.Fatal("Ask did not return")
	}
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	if want := []prompt.Answer{{Other: "Maria"}, {Other: "Card"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Ask = %#v, want %#v", got, want)
	}
	checkRestored(t, tm)
}

func TestTUIConfirmAndInput(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	ui := tui.New(tui.Options{In: tm.Tty(), Out: tm.Tty()})
	ctx := context.Background()
	type result struct {
		yes, text []prompt.Answer
		err       error
	}
	results := make(chan result)
	go func() {
		var r result
		if r.yes, r.err = ui.Ask(ctx, []schema.Question{schema.ConfirmQuestion("Deploy?", false)}); r.err == nil {
			r.text, r.err = ui.Ask(ctx, []schema.Question{schema.InputQuestion("Branch?", "", "main")})
		}
		results <- r
	}()
	tm.ExpectScreen("Deploy?\n\n  Yes   ❯ No")
	tm.Send("\x1b[D") // ←
	tm.ExpectScreen("❯ Yes     No")
	tm.Send(enter)
	tm.ExpectScreen("Branch?\n\nYour answer:\n\nEnter for \"main\" · Esc cancel")
	tm.Send(enter)
	var r result
	select {
	case r = <-results:
	case <-time.After(ptytest.Timeout):
		t.Fatal("Confirm and Input did not return")
	}
	if r.err != nil || !reflect.DeepEqual(r.yes, []prompt.Answer{{Labels: []string{"Yes"}}}) || !reflect.DeepEqual(r.text, []prompt.Answer{{Other: "main"}}) {
		t.Errorf("Confirm, Input = %+v, %+v, %v; want Yes, \"main\", nil", r.yes, r.text, r.err)
	}
	checkRestored(t, tm)
}

// Text from the input is drawn through Display: escape sequences and
// bidirectional overrides are shown, not obeyed, and what draws nothing is
// shown by its code point, so that "SQ\u200bLite" cannot pass for
// "SQLite"; typed answers go through CheckOther.
func TestTUIHostileTextIsShownNotObeyed(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 80, 30)
	q := schema.Question{
		Question: "Which \x1b]0;pwned\x07database?",
		Header:   "DB\u202e",
		Options: []schema.Option{
			{Label: "Postgre\x1b[31mSQL", Description: "one\ntwo\x1b]52;c;aGk=\x07"},
			{Label: "SQ\u200bLite", Description: "Embedded\ufeff"},
		},
	}
	a := startAsk(t, tm, false, q)
	tm.ExpectScreen(`1. Postgre\x1b[31mSQL`)
	tm.ExpectScreen("2. SQ⟨U+200B⟩Lite\n     Embedded⟨U+FEFF⟩")
	tm.ExpectScreen(`two\x1b]52;c;aGk=\x07`)
	tm.ExpectScreen(`Which \x1b]0;pwned\x07database?`)
	tm.ExpectScreen(`DB\u202e`)
	tm.Send("0")
	tm.ExpectScreen("Your answer:")
	// What is typed (or pasted) is drawn by the same rule while it is
	// typed, the cursor after it.
	tm.Send("Maria\u202eDB\u2028\u2066x\u2060\x1b[D")
	tm.ExpectScreen(`Your answer: Maria\u202eDB\u2028\u2066x⟨U+2060⟩`)
	tm.Send(enter)
	a.answer(t, prompt.Answer{Other: "MariaDB x\u2060"})
	if echo, canonical := tm.LineMode(); !echo || !canonical {
		t.Errorf("terminal left with echo %v, line editing %v", echo, canonical)
	}
	tm.Drain()
	raw := tm.Raw()
	for _, bad := range []string{"\x1b]0;", "\x1b]52;", "\x1b[31m", "\u202e", "\u2028", "\u2066", "\x07", "\u200b", "\ufeff", "\u2060"} {
		if strings.Contains(raw, bad) {
			t.Errorf("the terminal was sent %q", bad)
		}
	}
}

// 0 is Other, as on the line prompt, and Other is shown as 0.
func TestTUIZeroChoosesOther(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 80, 30)
	a := startAsk(t, tm, false, database, features)
	tm.ExpectScreen("Enter or 1-2 choose · 0 Other")
	tm.ExpectScreen("  2. SQLite\n     Embedded, zero configuration\n  0. Other\n     Type your own answer")
	// 3 names no option: Other is numbered 0, and chosen with 0, as on
	// the line prompt and the web page.
	tm.Send("3" + down)
	tm.ExpectScreen("❯ 2. SQLite")
	tm.Send("0")
	tm.ExpectScreen("Your answer:")
	tm.Send("MariaDB" + enter)
	tm.ExpectScreen("Space or 1-3 toggle · 0 Other")
	tm.Send("0")
	tm.ExpectScreen("❯ [x] 0. Other")
	tm.Send(enter)
	tm.ExpectScreen("Your answer:")
	tm.Send("Audit" + enter)
	a.answer(t, prompt.Answer{Other: "MariaDB"}, prompt.Answer{Other: "Audit"})
	checkRestored(t, tm)
}

// n writes a note on the answer, which comes back with it; Esc leaves the
// note as it was.
func TestTUINoteOnTheAnswer(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 80, 30)
	a := startAsk(t, tm, false, database, features)
	tm.ExpectScreen("n note")
	tm.Send("n")
	tm.ExpectScreen("Note:")
	tm.Send("Fits" + enter)
	tm.ExpectScreen("Note: Fits")
	tm.Send("n")
	tm.ExpectScreen("Enter save · Esc back")
	tm.Send("more" + esc) // back: the note as it was
	tm.ExpectScreen("❯ 1. PostgreSQL")
	tm.Send("0")
	tm.ExpectScreen("Your answer:")
	tm.Send("MariaDB" + enter)
	tm.ExpectScreen("❯ [ ] 1. Auth")
	tm.Send("1" + enter)
	a.answer(t, prompt.Answer{Other: "MariaDB", Note: "Fits"}, labels("Auth"))
	checkRestored(t, tm)
}

// The note's screen says what the note goes with: the question, and the
// option under the cursor (single-select) or those ticked (multi-select).
func TestTUINoteSaysWhatItGoesWith(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 80, 30)
	a := startAsk(t, tm, false, database, features)
	tm.ExpectScreen("n note")
	tm.Send(down + "n")
	tm.ExpectScreen("For: SQLite")
	tm.ExpectScreen("Which database should we use?")
	tm.Send("Small" + enter)
	tm.ExpectScreen("Note: Small")
	tm.Send(enter)
	tm.ExpectScreen("❯ [ ] 1. Auth")
	tm.Send("13n")
	tm.ExpectScreen("For: Auth, Search")
	tm.ExpectScreen("Which features should we enable?")
	tm.Send(enter + enter)
	a.answer(t, prompt.Answer{Labels: []string{"SQLite"}, Note: "Small"}, labels("Auth", "Search"))
	checkRestored(t, tm)
}

// TestEveryKind asks a question of every kind of schema's kind table, as
// a person answers it here.
func TestEveryKind(t *testing.T) {
	t.Parallel()
	keys := map[schema.Gesture]string{schema.GesturePick: down + enter, schema.GestureYesNo: "y", schema.GestureType: "typed" + enter}
	for _, c := range testutil.KindCases(t) {
		t.Run(c.Question.Kind.String(), func(t *testing.T) {
			in, ok := keys[c.Question.Kind.Gesture()]
			if !ok {
				t.Fatalf("the terminal UI cannot answer a %s question", c.Question.Kind)
			}
			tm := ptytest.New(t, 60, 30)
			a := startAsk(t, tm, false, c.Question)
			tm.ExpectScreen(c.Question.Question)
			tm.Send(in)
			a.answer(t, c.Answer)
		})
	}
}

// When the window is resized, the screen is laid out again for its new
// width.
func TestTUIRedrawsOnResize(t *testing.T) {
	tm := ptytest.New(t, 60, 30)
	a := startAsk(t, tm, false, database)
	tm.ExpectScreen("❯ 1. PostgreSQL")
	if err := pty.Setsize(tm.Tty(), &pty.Winsize{Cols: 20, Rows: 30}); err != nil {
		t.Fatal(err)
	}
	// Every prompter in this process is told; the others draw their
	// screens again as they were.
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGWINCH); err != nil {
		t.Fatal(err)
	}
	tm.ExpectScreenFunc("the question wrapped at 19 columns", func(s string) bool {
		return strings.Contains(s, "Which database\nshould we use?")
	})
	tm.Send(enter)
	a.answer(t, labels("PostgreSQL (Recommended)"))
	checkRestored(t, tm)
}
