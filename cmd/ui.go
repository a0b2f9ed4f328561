package cmd

import (
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/line"
	"github.com/askuser/askuser/prompt/tui"
	"github.com/askuser/askuser/schema"
)

// uiMode is how questions are asked.
type uiMode string

const (
	uiAuto uiMode = "auto"
	uiTUI  uiMode = "tui"
	uiLine uiMode = "line"
	// uiWeb is never picked by auto: it opens a port, which only the
	// caller can decide to do.
	uiWeb uiMode = "web"
)

func parseUI(s string) (uiMode, error) {
	switch m := uiMode(s); m {
	case uiAuto, uiTUI, uiLine, uiWeb:
		return m, nil
	}
	return "", usageErrorf("invalid --ui %q: must be auto, tui, line or web", s)
}

// asker is the chosen way of asking, with the streams it opened.
type asker struct {
	fullAsker
	out     io.Writer // where the prompts are drawn
	tui     bool      // the terminal UI, rather than line prompts
	color   bool
	closers []io.Closer
}

// fullAsker asks questions, yes/no questions and for text.
type fullAsker interface {
	prompt.Asker
	prompt.Confirmer
	prompt.Inputter
}

func (a *asker) close() {
	for _, c := range a.closers {
		c.Close()
	}
}

// summarize shows every answer once the terminal UI is done, the ones
// given in advance included; line prompts already show what was typed.
func (a *asker) summarize(qs []schema.Question, answers []prompt.Answer) {
	if a.tui {
		tui.Summary(a.out, qs, answers, a.color)
	}
}

// summarizeOne shows the answer to a confirm or input prompt once the
// terminal UI has erased it.
func (a *asker) summarizeOne(asked, answer string) {
	if a.tui {
		tui.SummaryLine(a.out, asked, answer, a.color)
	}
}

// side is one side of the conversation: a stream, and its file when it is
// one (the terminal UI needs the descriptor).
type side struct {
	r   io.Reader
	w   io.Writer
	f   *os.File
	tty bool
}

// newAsker picks how to ask. Answers come from the controlling terminal with
// --tty, else from what followed the questions on stdin, else from stdin.
// Prompts go to the terminal with --tty, else to stderr; never to stdout.
// The terminal UI is used when both are terminals, unless line prompts are
// asked for (--ui line, ACCESSIBLE, TERM=dumb); with review, it shows every
// answer after the last of several questions before they are submitted.
func newAsker(env *Env, mode uiMode, useTTY, review bool, src *source) (*asker, error) {
	a := &asker{}
	in := side{r: env.IO.In, f: env.IO.InFile, tty: env.IO.InTTY}
	out := side{w: env.IO.ErrOut, f: env.IO.ErrFile, tty: env.IO.ErrTTY}
	switch {
	case useTTY:
		tin, tout, err := openTTY()
		if err != nil {
			return nil, err
		}
		a.closers = append(a.closers, tin, tout)
		in = side{r: tin, f: tin, tty: true}
		out = side{w: tout, f: tout, tty: true}
	case src.rest != nil:
		// The questions came on stdin; the answers are what follows them,
		// already partly read into a buffer.
		in = side{r: src.rest}
	}
	terminals := in.tty && out.tty && in.f != nil && out.f != nil
	switch mode {
	case uiTUI:
		if !terminals {
			a.close()
			return nil, fmt.Errorf("--ui tui needs a terminal, and stdin or stderr is not one: use --tty to ask on the controlling terminal, or --ui line")
		}
		a.tui = true
	case uiAuto:
		a.tui = terminals && !accessible(env.Getenv)
	}
	a.out = out.w
	if !a.tui {
		a.fullAsker = line.New(in.r, out.w, !in.tty)
		return a, nil
	}
	a.color = tui.ColorEnabled(env.Getenv, true)
	a.fullAsker = tui.New(tui.Options{In: in.f, Out: out.f, Color: a.color, Review: review})
	return a, nil
}

// accessible reports whether the person asked for plain line prompts, for
// a screen reader or a terminal without cursor control.
func accessible(getenv func(string) string) bool {
	a := getenv("ACCESSIBLE")
	return (a != "" && a != "0") || getenv("TERM") == "dumb"
}

// openTTY opens the controlling terminal for reading and writing.
func openTTY() (in, out *os.File, err error) {
	inName, outName := "/dev/tty", "/dev/tty"
	if runtime.GOOS == "windows" {
		inName, outName = "CONIN$", "CONOUT$"
	}
	in, err = os.OpenFile(inName, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("--tty: no controlling terminal to ask on: %w", err)
	}
	out, err = os.OpenFile(outName, os.O_RDWR, 0)
	if err != nil {
		in.Close()
		return nil, nil, fmt.Errorf("--tty: no controlling terminal to ask on: %w", err)
	}
	return in, out, nil
}
