// What stdin tells of the person, for the command line's route in auto
// mode: whether it is a terminal, /dev/null, a silent socket, or an input
// that has already ended.

package ask

import (
	"bufio"
	"cmp"
	"errors"
	"io"
	"os"
	"time"

	"github.com/askuser/askuser/internal/iostreams"
)

// endGrace is how long a stdin that is not a terminal is given to show
// whether it has ended, before the line prompts are drawn: a file answers
// at once, and a pipe whose writer is done closes within it.
const endGrace = 100 * time.Millisecond

// noPerson says why nobody could answer on stdin (a *noPersonError),
// which is not a terminal (the route asks it only then), or returns nil
// when somebody may. It reads stdin (rest, when the questions came on it)
// to see whether it has already ended, and then returns the reader to
// read the answers on from.
func noPerson(s *iostreams.Streams, rest io.Reader) (io.Reader, error) {
	kind := StdinKind(s.InFile, false)
	if rest == nil && (kind == "/dev/null" || kind == "a socket") {
		return nil, &noPersonError{Stdin: kind, Silent: kind == "a socket"}
	}
	r := cmp.Or(rest, s.In)
	if r == nil {
		return nil, nil
	}
	read, ended := endedAlready(r, endGrace)
	switch {
	case !ended:
		return read, nil
	case rest == nil:
		return read, &noPersonError{Stdin: "it was empty"}
	}
	// The questions were given where the answers should follow: a
	// person at a terminal can give them otherwise.
	return read, &noPersonError{Stdin: "it held only the questions", Terminal: terminalExists()}
}

// endedAlready reports whether r ends within grace without giving a byte,
// and returns the reader to read r on from: what was read to tell is not
// lost, and a read that is still waiting is waited for.
func endedAlready(r io.Reader, grace time.Duration) (io.Reader, bool) {
	// A *bufio.Reader (the rest of stdin, after the questions) is its own.
	br := bufio.NewReader(r)
	// The peek's error is read once peeked is closed; a later read of br
	// returns it again, so afterPeek need not keep it.
	var err error
	peeked := make(chan struct{})
	go func() {
		_, err = br.Peek(1)
		close(peeked)
	}()
	select {
	case <-peeked:
		return br, errors.Is(err, io.EOF)
	case <-time.After(grace):
		return &afterPeek{peeked: peeked, r: br}, false
	}
}

// afterPeek reads r once the peek that is reading it has returned, so that
// two reads of one bufio.Reader never run at once.
type afterPeek struct {
	peeked <-chan struct{}
	r      io.Reader
}

func (a *afterPeek) Read(p []byte) (int, error) {
	<-a.peeked // at once, once closed
	return a.r.Read(p)
}

// terminalExists reports whether askuser has a controlling terminal, where
// --tty could ask.
func terminalExists() bool {
	_, done, err := openTTY(iostreams.Streams{})
	if err != nil {
		return false
	}
	done()
	return true
}

// StdinKind names what stdin is, where that tells that nobody can answer
// on it: "/dev/null", "a socket"; else "".
func StdinKind(f *os.File, tty bool) string {
	fi, err := f.Stat() // a nil f's fails
	if err != nil || tty {
		return ""
	}
	switch {
	case fi.Mode()&os.ModeSocket != 0:
		return "a socket"
	case fi.Mode()&os.ModeCharDevice != 0:
		// Only a device can be it: on Windows (Wine, at least), a file
		// or a pipe is the same file as NUL to os.SameFile.
		if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(fi, null) {
			return "/dev/null"
		}
	}
	return ""
}
