package view

import (
	"bufio"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/prompt/line"
)

// The line view's input: the lines typed, read ahead, and the commands
// among them.

// feed is the input of one set's line asker. It takes a line from the
// input only when the asker reads, so that the lines after the set's last
// answer are left for the sets after it; a command is sent on commands
// instead of being read, and ends the asker's reading (errStop): it reads
// no more after an error. Once done is closed, it takes nothing more.
type feed struct {
	in       *lines
	done     <-chan struct{}
	commands chan<- string
	rest     []byte
	// guard, when set, is when the set starts taking lines: one typed
	// before, as it appeared, is refused with a line to out that says so,
	// and the asker asks again (see line.ErrAskAgain). So is a command,
	// but /quit.
	guard time.Time
	out   io.Writer
}

func (f *feed) Read(p []byte) (int, error) {
	for len(f.rest) == 0 {
		// Once done is closed, no line is taken, even one waiting.
		select {
		case <-f.done:
			return 0, errStop
		default:
		}
		next, wake := f.in.next(false)
		if wake != nil {
			// No line yet: wait for one, or for done, and look again.
			select {
			case <-wake:
			case <-f.done:
			}
			continue
		}
		if next == nil {
			return 0, io.EOF
		}
		c := command(next.text)
		if next.at.Before(f.guard) && c != cmdQuit {
			// A failed write shows in the prompt written next.
			_, _ = io.WriteString(f.out, "(A line typed as these questions appeared was not taken: read them, then answer.)\n")
			return 0, line.ErrAskAgain
		}
		if c != "" {
			f.commands <- c
			return 0, errStop
		}
		f.rest = []byte(next.text + "\n")
	}
	n := copy(p, f.rest)
	f.rest = f.rest[n:]
	return n, nil
}

// command returns the command a line is, or "".
func command(text string) string {
	switch c := strings.ToLower(strings.TrimSpace(text)); c {
	case cmdNext, "/skip":
		return cmdNext
	case cmdCancel, cmdQuit:
		return c
	}
	return ""
}

// lines are the lines of the input, read ahead as they come, so that the
// screen can wait for a line and for the queue at once.
type lines struct {
	mu    sync.Mutex
	buf   []typed
	ended bool
	wake  chan struct{} // closed and replaced when a line comes or the input ends
}

// typed is a line of the input, and when it came.
type typed struct {
	text string
	at   time.Time
}

func readLines(r io.Reader) *lines {
	ls := &lines{wake: make(chan struct{})}
	go func() {
		br := bufio.NewReader(r)
		for ls.add(line.ReadLine(br)) {
		}
	}()
	return ls
}

// add keeps a line read, or, with err, the end of the input, and reports
// whether more lines may come.
func (ls *lines) add(text string, err error) bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if err != nil {
		ls.ended = true
	} else {
		ls.buf = append(ls.buf, typed{text, time.Now()})
	}
	close(ls.wake)
	ls.wake = make(chan struct{})
	return err == nil
}

// drop drops the lines read and not yet taken, but /quit, and returns how
// many it dropped.
func (ls *lines) drop() int {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	n := len(ls.buf)
	ls.buf = slices.DeleteFunc(ls.buf, func(l typed) bool { return command(l.text) != cmdQuit })
	return n - len(ls.buf)
}

// next takes the next line, when there is one to take: with keep, while
// no set is shown, only /quit is taken, and other lines, commands too,
// wait for the set they are meant for. Without a line, it returns the
// channel to wait on for one, or none once the input has ended and no
// line is left.
func (ls *lines) next(keep bool) (*typed, <-chan struct{}) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if len(ls.buf) > 0 && (!keep || command(ls.buf[0].text) == cmdQuit) {
		line := ls.buf[0]
		ls.buf = ls.buf[1:]
		return &line, nil
	}
	if ls.ended && len(ls.buf) == 0 {
		return nil, nil
	}
	return nil, ls.wake
}
