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

// asker is a prompt.Asker with the streams it opened.
type asker struct {
	prompt.Asker
	closers []io.Closer
}

func (a *asker) close() {
	for _, c := range a.closers {
		c.Close()
	}
}

// newAsker picks how to ask. Answers come from the controlling terminal with
// --tty, else from what followed the questions on stdin, else from stdin.
// Prompts go to the terminal with --tty, else to stderr; never to stdout.
// With --ui web, answers come from the page, and stderr says where it is.
func newAsker(env *Env, mode uiMode, opts *askOptions, src *source) (*asker, error) {
	if mode == uiWeb {
		return newWebAsker(env, opts)
	}
	a := &asker{}
	var in io.Reader = env.IO.In
	var out io.Writer = env.IO.ErrOut
	echo := !env.IO.InTTY
	if opts.tty {
		tin, tout, err := openTTY()
		if err != nil {
			return nil, err
		}
		a.closers = append(a.closers, tin, tout)
		in, out, echo = tin, tout, false
	} else if src.rest != nil {
		in = src.rest
	}
	a.Asker = prompt.NewLine(in, out, echo)
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
