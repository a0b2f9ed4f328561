//go:build unix

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/natsinbox"
)

// BenchmarkInboxRedraw measures how soon the inbox's terminal screen
// follows a key while many sets wait:
//
//	go test ./e2e -run '^$' -bench InboxRedraw -benchtime 1x
//
// askuser inbox runs on a pseudo-terminal of 80×24, as the terminal UI
// does in scripts/benchrun, and shows the first set: one question of two
// options and Other. ↓ is typed 20 to 40 ms apart (key repeat, or a fast
// typist), BENCH_KEYS (300) times, each timed from writing the key to
// reading the end of the frame that moves the focus. That is done with
// the set alone, the baseline, and again once BENCH_ASKERS (1000) sets
// wait, started at BENCH_RATE (200) a second as in BenchmarkInboxAskers;
// the benchmark reports both 95th percentiles and their ratio, and the
// inbox's peak RSS, for each build of inboxBuilds, over each transport.
func BenchmarkInboxRedraw(b *testing.B) {
	n := envInt("BENCH_ASKERS", 1000)
	rate := envInt("BENCH_RATE", 200)
	keys := envInt("BENCH_KEYS", 300)
	for _, transport := range []string{"socket", "nats"} {
		b.Run(transport, func(b *testing.B) {
			for _, build := range inboxBuilds() {
				b.Run(build.name, func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						alone, many, rss := benchRedraw(b, build.path, transport, n, rate, keys)
						b.ReportMetric(ms(percentile(alone, 50)), "alone-p50-ms")
						b.ReportMetric(ms(percentile(alone, 95)), "alone-p95-ms")
						b.ReportMetric(ms(percentile(many, 50)), "p50-ms")
						b.ReportMetric(ms(percentile(many, 95)), "p95-ms")
						b.ReportMetric(float64(percentile(many, 95))/float64(percentile(alone, 95)), "p95/alone")
						b.ReportMetric(float64(rss)/1024, "inbox-peak-RSS-MiB")
					}
				})
			}
		})
	}
}

// redrawQuestions is the set the benchmark's askers send.
var redrawQuestions = json.RawMessage(`[{"question":"Which database should we use?","header":"Database","options":[` +
	`{"label":"PostgreSQL (Recommended)","description":"Relational, rich features"},` +
	`{"label":"SQLite","description":"Embedded, zero configuration"}],"multiSelect":false}]`)

// benchRedraw times keys presses of ↓ on the inbox of the program
// askuser with one set waiting, then with n, and returns the inbox's peak
// RSS in KiB.
func benchRedraw(b *testing.B, askuser, transport string, n, rate, keys int) (alone, many []time.Duration, rssKiB int) {
	b.StopTimer()
	dir := b.TempDir()
	addr, askers, _ := benchAddr(b, transport, dir)
	a, err := inbox.ParseAddr(askers, natsinbox.Remote())
	if err != nil {
		b.Fatal(err)
	}
	s := startRedrawInbox(b, askuser, addr, dir)
	if _, err := s.waitFor("the idle screen", time.Minute, func(out string) bool { return strings.Contains(out, "Waiting for questions") }); err != nil {
		b.Fatal(err)
	}
	req := func(i int) *inbox.Request {
		return &inbox.Request{From: fmt.Sprintf("asker-%d", i), Questions: redrawQuestions}
	}
	_, _, stopFirst := startAskers(a, 1, rate, req)
	if _, err := s.waitFor("the first set, taking keys", time.Minute, func(out string) bool {
		return strings.Contains(out, "From asker-0") && !strings.Contains(out[strings.LastIndex(out, "From asker-0"):], "⏸")
	}); err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
	if alone, err = s.redraws(keys); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	_, _, stop := startAskers(a, n-1, rate, func(i int) *inbox.Request { return req(i + 1) })
	// The askers take n/rate seconds to start.
	if _, err := s.waitFor("every set", time.Minute+time.Duration(n)*time.Second/time.Duration(rate), func(out string) bool { return strings.Contains(out, fmt.Sprintf(" %d more waiting", n-1)) }); err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
	if many, err = s.redraws(keys); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	rssKiB = peakRSS(b, s.pid)
	for _, stop := range []func() error{stop, stopFirst} {
		if err := stop(); err != nil {
			b.Fatal(err)
		}
	}
	return alone, many, rssKiB
}

// redrawTerm is askuser inbox on a pseudo-terminal: stdin and stderr on
// it. What it draws is read as soon as it is written, and kept until it
// is looked at, so that the inbox never waits on a full terminal.
type redrawTerm struct {
	ptm *os.File
	pid int

	mu      sync.Mutex
	pending []redrawChunk // read, not yet looked at
	ended   bool
	wake    chan struct{} // a receive when pending grows or the terminal ends

	since []byte // what it drew since the last key
	all   []byte // the end of what it drew, for errors
	focus int    // the option the focus is on, from 0
}

// redrawChunk is one read from the terminal, and when it returned.
type redrawChunk struct {
	b  []byte
	at time.Time
}

func startRedrawInbox(b *testing.B, askuser, addr, dir string) *redrawTerm {
	ptm, tty, err := pty.Open()
	if err != nil {
		b.Fatal(err)
	}
	// The child has its own copy of the terminal's end.
	defer tty.Close()
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 80, Rows: 24}); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(askuser, "inbox")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1", "ASKUSER_INBOX="+addr, "XDG_CONFIG_HOME="+dir)
	cmd.Stdin, cmd.Stderr = tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	s := &redrawTerm{ptm: ptm, pid: cmd.Process.Pid, wake: make(chan struct{}, 1)}
	go s.read()
	b.Cleanup(func() {
		// Ctrl+C quits the inbox.
		_, _ = ptm.WriteString("\x03")
		done := make(chan struct{})
		go func() {
			_ = cmd.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		_ = ptm.Close()
	})
	return s
}

func (s *redrawTerm) read() {
	buf := make([]byte, 64<<10)
	for {
		n, err := s.ptm.Read(buf)
		at := time.Now()
		s.mu.Lock()
		if n > 0 {
			s.pending = append(s.pending, redrawChunk{bytes.Clone(buf[:n]), at})
		}
		s.ended = err != nil
		s.mu.Unlock()
		select {
		case s.wake <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

// take returns the chunks read and not yet looked at, and whether the
// terminal has ended.
func (s *redrawTerm) take() ([]redrawChunk, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	chunks := s.pending
	s.pending = nil
	return chunks, s.ended
}

// mark forgets what was drawn so far: what is looked at from now on was
// drawn after it.
func (s *redrawTerm) mark() {
	s.take()
	s.since = s.since[:0]
}

// lookBack is how much of what was drawn waitFor looks at: several of
// the inbox's frames. Looking at all of it would take time that grows
// with every frame, from the cores the inbox runs on, while thousands of
// sets arrive.
const lookBack = 16 << 10

// waitFor waits, at most within, until ok holds for the end of what was
// drawn since the last mark, escape sequences removed, and returns when
// the read that made it so returned.
func (s *redrawTerm) waitFor(what string, within time.Duration, ok func(string) bool) (time.Time, error) {
	timeout := time.After(within)
	for {
		chunks, ended := s.take()
		for _, c := range chunks {
			s.since = append(s.since, c.b...)
			s.since = s.since[max(0, len(s.since)-lookBack):]
			s.all = append(s.all, c.b...)
			s.all = s.all[max(0, len(s.all)-4096):]
			if ok(stripEscapes(s.since)) {
				return c.at, nil
			}
		}
		if ended {
			return time.Time{}, fmt.Errorf("askuser inbox ended before %s; it drew:\n%s", what, stripEscapes(s.all))
		}
		select {
		case <-s.wake:
		case <-timeout:
			return time.Time{}, fmt.Errorf("no %s within %s; askuser inbox drew:\n%s", what, within, stripEscapes(s.all))
		}
	}
}

// focusFrame is the end of a frame with the focus on option N: its line,
// and the key hints that end each frame after it.
var focusFrame = regexp.MustCompile(`❯ (\d)\. (?s:.*?)Ctrl\+C quit`)

// redraws types ↓ keys times, and returns how long each took to move the
// focus on screen.
func (s *redrawTerm) redraws(keys int) ([]time.Duration, error) {
	var lat []time.Duration
	// The numbers of the first set's options, and of Other after them.
	numbers := []string{"1", "2", "0"}
	for range keys {
		time.Sleep(20*time.Millisecond + rand.N(20*time.Millisecond))
		s.focus = (s.focus + 1) % len(numbers)
		want := numbers[s.focus]
		s.mark()
		sent := time.Now()
		if _, err := s.ptm.WriteString("\x1b[B"); err != nil {
			return nil, err
		}
		at, err := s.waitFor("frame with the focus on option "+want, time.Minute, func(out string) bool {
			m := focusFrame.FindAllStringSubmatch(out, -1)
			return len(m) > 0 && m[len(m)-1][1] == want
		})
		if err != nil {
			return nil, err
		}
		lat = append(lat, at.Sub(sent))
	}
	return lat, nil
}

// escapes are the terminal's escape sequences: CSI, OSC and two-byte ones.
var escapes = regexp.MustCompile(`\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[^\[\]])`)

func stripEscapes(b []byte) string { return escapes.ReplaceAllString(string(b), "") }
