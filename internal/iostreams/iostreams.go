// Package iostreams holds the process's standard streams, injected so that
// every command, and the inbox, runs in tests without a real terminal.
package iostreams

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// Streams are the standard streams, and whether each is a terminal.
type Streams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// InFile and ErrFile are In and ErrOut when they are files; the terminal
	// UI needs their descriptors.
	InFile, ErrFile *os.File
	InTTY, ErrTTY   bool
}

// System returns the streams of the process.
func System() *Streams {
	return &Streams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		InFile: os.Stdin, ErrFile: os.Stderr,
		InTTY:  isTerminal(os.Stdin),
		ErrTTY: isTerminal(os.Stderr),
	}
}

func isTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}
