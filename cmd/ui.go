package cmd

import (
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/askuser/askuser/prompt"
)

// uiMode is how questions are asked.
type uiMode string

const (
	uiAuto uiMode = "auto"
	uiTUI  uiMode = "tui"
	uiLine uiMode = "line"
)

func parseUI(s string) (uiMode, error) {
	switch m := uiMode(s); m {
	case uiAuto, uiTUI, uiLine:
		return m, nil
	}
	return "", usageErrorf("invalid --ui %q: must be auto, tui or line", s)
}

// asker is a prompt.Asker with the streams it opened.
type asker struct {
	fullAsker
	out     io.Writer // where the prompts are drawn
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

// newAsker picks how to ask. Answers come from the controlling terminal with
// --tty, else from what followed the questions on stdin, else from stdin.
// Prompts go to the terminal with --tty, else to stderr; never to stdout.
func newAsker(env *Env, mode uiMode, useTTY bool, src *source) (*asker, error) {
	a := &asker{}
	var in io.Reader = env.IO.In
	var out io.Writer = env.IO.ErrOut
	echo := !env.IO.InTTY
	if useTTY {
		tin, tout, err := openTTY()
		if err != nil {
			return nil, err
		}
		a.closers = append(a.closers, tin, tout)
		in, out, echo = tin, tout, false
	} else if src.rest != nil {
		in = src.rest
	}
	a.fullAsker = prompt.NewLine(in, out, echo)
	a.out = out
	return a, nil
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
