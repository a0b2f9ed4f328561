//go:build unix

package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// labels are the options of small, and the Other choice after them, as
// both askuser and gum list them.
var labels = []string{"PostgreSQL (Recommended)", "SQLite", "Other"}

// A tui is a program that asks small's question in a terminal.
type tui struct {
	cmd command
	// ready reports whether the screen (what was written since the
	// program started, escape sequences removed) shows the first frame.
	ready func(screen string) bool
	// focused reports whether the output since a key was sent holds the
	// whole frame that puts the focus on option i (from 0).
	focused func(out string, i int) bool
	// want is stdout after ↓ Enter.
	want string
}

// askuserTUI is askuser's terminal UI: a frame is one write that ends with
// the key hint, and the focused option starts with ❯.
func askuserTUI(path, qfile string) tui {
	const hint = "Esc cancel"
	return tui{
		cmd:   command{path: path, args: []string{"--ui", "tui", "-f", qfile}},
		ready: func(s string) bool { return strings.Contains(s, hint) },
		focused: func(s string, i int) bool {
			_, after, ok := strings.Cut(s, fmt.Sprintf("❯ %d. ", i+1))
			return ok && strings.Contains(after, hint)
		},
		want: smallWant,
	}
}

// gumChoose is gum choose with the same options (Other as a plain one). It
// draws only the lines that changed, in one write; the focused one starts
// with "> ".
func gumChoose(path string) tui {
	return tui{
		cmd:   command{path: path, args: append([]string{"choose"}, labels...)},
		ready: func(s string) bool { return strings.Contains(s, "> "+labels[0]) && strings.Contains(s, labels[2]) },
		focused: func(s string, i int) bool {
			return strings.Contains(s, "> "+labels[i])
		},
		want: labels[1] + "\n",
	}
}

// A session is a program running on a pseudo-terminal of 80×24: stdin and
// stderr on the terminal, stdout on a pipe.
type session struct {
	p     tui
	cmd   *exec.Cmd
	ptm   *os.File
	start time.Time
	out   bytes.Buffer // stdout
	reads chan chunk
	all   []byte // everything the program drew
	since []byte // what it drew since the last mark
}

// chunk is one read from the terminal and when it returned.
type chunk struct {
	b  []byte
	at time.Time
}

const termTimeout = 10 * time.Second

func startSession(p tui) (*session, error) {
	ptm, tty, err := pty.Open()
	if err != nil {
		return nil, err
	}
	// The child has its own copy of the terminal's end.
	defer func() { _ = tty.Close() }()
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 80, Rows: 24}); err != nil {
		_ = ptm.Close()
		return nil, err
	}
	s := &session{p: p, ptm: ptm, reads: make(chan chunk, 64)}
	s.cmd = exec.Command(p.cmd.path, p.cmd.args...)
	s.cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	s.cmd.Stdin, s.cmd.Stderr, s.cmd.Stdout = tty, tty, &s.out
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	s.start = time.Now()
	if err := s.cmd.Start(); err != nil {
		_ = ptm.Close()
		return nil, err
	}
	go s.read()
	return s, nil
}

// read passes on what the program draws, as soon as it is read, and
// answers the queries that a terminal answers.
func (s *session) read() {
	defer close(s.reads)
	var seen []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := s.ptm.Read(buf)
		at := time.Now()
		if n > 0 {
			b := bytes.Clone(buf[:n])
			seen = s.answer(append(seen, b...))
			s.reads <- chunk{b, at}
		}
		if err != nil {
			return
		}
	}
}

// replies are what a terminal sends back to the queries a program may
// make at start-up (gum asks for the background colour and the cursor
// position); unanswered, the program would wait for them.
var replies = []struct{ query, reply string }{
	{"\x1b]11;?", "\x1b]11;rgb:0000/0000/0000\x1b\\"},
	{"\x1b]10;?", "\x1b]10;rgb:ffff/ffff/ffff\x1b\\"},
	{"\x1b[6n", "\x1b[1;1R"},
	{"\x1b[c", "\x1b[?62;22c"},
}

// answer replies to every query in b and returns the end of b that may
// hold the start of one.
func (s *session) answer(b []byte) []byte {
	for {
		first, which := -1, 0
		for i, r := range replies {
			if j := bytes.Index(b, []byte(r.query)); j >= 0 && (first < 0 || j < first) {
				first, which = j, i
			}
		}
		if first < 0 {
			break
		}
		// A reply that cannot be written shows as a frame that never comes.
		_, _ = s.ptm.WriteString(replies[which].reply)
		b = b[first+len(replies[which].query):]
	}
	if len(b) > 8 {
		b = b[len(b)-8:]
	}
	return bytes.Clone(b)
}

// waitFor waits until ok holds for what was drawn since the last mark,
// escape sequences removed, and returns when the read that made it so
// returned.
func (s *session) waitFor(what string, ok func(string) bool) (time.Time, error) {
	timeout := time.After(termTimeout)
	for {
		select {
		case c, open := <-s.reads:
			if !open {
				return time.Time{}, fmt.Errorf("%s ended before %s; it drew:\n%s", s.p.cmd, what, tail(s.all))
			}
			s.all = append(s.all, c.b...)
			s.since = append(s.since, c.b...)
			if ok(stripEscapes(s.since)) {
				return c.at, nil
			}
		case <-timeout:
			return time.Time{}, fmt.Errorf("%s: no %s within %v; it drew:\n%s", s.p.cmd, what, termTimeout, tail(s.all))
		}
	}
}

func (s *session) mark() { s.since = s.since[:0] }

func (s *session) send(keys string) (time.Time, error) {
	s.mark()
	at := time.Now()
	_, err := s.ptm.WriteString(keys)
	return at, err
}

// finish chooses the second option (↓ from the first, then Enter), waits
// for the program to end and checks its output.
func (s *session) finish() (time.Time, error) {
	if _, err := s.send("\x1b[B\r"); err != nil {
		return time.Time{}, err
	}
	werr := make(chan error, 1)
	go func() { werr <- s.cmd.Wait() }()
	// Drain what the program draws as it ends, so that it never blocks
	// on a full terminal.
	go func() {
		for range s.reads {
		}
	}()
	select {
	case err := <-werr:
		end := time.Now()
		if err != nil {
			return end, fmt.Errorf("%s: %v", s.p.cmd, err)
		}
		if got := s.out.String(); got != s.p.want {
			return end, fmt.Errorf("%s printed %q, want %q", s.p.cmd, got, s.p.want)
		}
		return end, nil
	case <-time.After(termTimeout):
		s.kill()
		return time.Time{}, fmt.Errorf("%s did not end within %v of ↓ Enter", s.p.cmd, termTimeout)
	}
}

func (s *session) kill() {
	// Ending a run that has failed already: nothing more to report.
	_ = s.cmd.Process.Kill()
	_ = s.ptm.Close()
}

func (s *session) close() { _ = s.ptm.Close() }

// terminalRun times a whole answered run in a terminal: from the start to
// the first frame, and to the answer on stdout after ↓ Enter sent as soon
// as the first frame is there, as the quickest person would.
func terminalRun(p tui) (first, total time.Duration, err error) {
	s, err := startSession(p)
	if err != nil {
		return 0, 0, err
	}
	defer s.close()
	at, err := s.waitFor("first frame", p.ready)
	if err != nil {
		s.kill()
		return 0, 0, err
	}
	end, err := s.finish()
	if err != nil {
		return 0, 0, err
	}
	return at.Sub(s.start), end.Sub(s.start), nil
}

// redraws times n presses of ↓ in one run: from writing the key to reading
// the end of the frame that moves the focus. The keys come 20 to 40 ms
// apart, as from a fast typist or key repeat, so that they fall anywhere
// in a program's frame timer if it has one.
func redraws(p tui, n int) ([]time.Duration, error) {
	s, err := startSession(p)
	if err != nil {
		return nil, err
	}
	defer s.close()
	if _, err := s.waitFor("first frame", p.ready); err != nil {
		s.kill()
		return nil, err
	}
	var lat []time.Duration
	focus := 0
	for range n {
		time.Sleep(20*time.Millisecond + rand.N(20*time.Millisecond))
		focus = (focus + 1) % len(labels)
		sent, err := s.send("\x1b[B")
		if err != nil {
			s.kill()
			return nil, err
		}
		at, err := s.waitFor(fmt.Sprintf("frame with the focus on %q", labels[focus]), func(out string) bool { return p.focused(out, focus) })
		if err != nil {
			s.kill()
			return nil, err
		}
		lat = append(lat, at.Sub(sent))
	}
	// Back to the first option, so that ↓ Enter chooses the second.
	for focus != 0 {
		focus = (focus + 1) % len(labels)
		if _, err := s.send("\x1b[B"); err != nil {
			s.kill()
			return nil, err
		}
		if _, err := s.waitFor("frame", func(out string) bool { return p.focused(out, focus) }); err != nil {
			s.kill()
			return nil, err
		}
	}
	if _, err := s.finish(); err != nil {
		return nil, err
	}
	return lat, nil
}

// stripEscapes removes the terminal's escape sequences (CSI, OSC and
// two-byte ones) from b.
func stripEscapes(b []byte) string {
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		if b[i] != 0x1b {
			out.WriteByte(b[i])
			continue
		}
		if i+1 >= len(b) {
			break
		}
		switch b[i+1] {
		case '[':
			j := i + 2
			for j < len(b) && (b[j] < 0x40 || b[j] > 0x7e) {
				j++
			}
			i = j
		case ']':
			j := i + 2
			for j < len(b) && b[j] != 0x07 && !(b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\') {
				j++
			}
			if j < len(b) && b[j] == 0x1b {
				j++
			}
			i = j
		default:
			i++
		}
	}
	return out.String()
}

func tail(b []byte) string {
	s := stripEscapes(b)
	if len(s) > 800 {
		s = "…" + s[len(s)-800:]
	}
	return s
}
