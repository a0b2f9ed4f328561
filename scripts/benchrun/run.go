//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A command is one way of running a program: its arguments, what it is
// given on stdin, and what it must print.
type command struct {
	path  string
	args  []string
	stdin []byte
	// want is the whole of stdout, or "" to take any output.
	want string
}

// run runs c once and returns its wall time, from just before the process
// is started to its exit, with stdout read and checked.
func (c command) run() (time.Duration, error) {
	cmd := exec.Command(c.path, c.args...)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, io.Discard
	var w *os.File
	if c.stdin != nil {
		// A pipe, as an agent's shell gives it, written once the program
		// runs.
		r, pw, err := os.Pipe()
		if err != nil {
			return 0, err
		}
		cmd.Stdin, w = r, pw
		// Closing twice (after the start below) is harmless.
		defer func() { _ = r.Close(); _ = pw.Close() }()
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	if w != nil {
		// The child has its own copy of the read end.
		_ = cmd.Stdin.(*os.File).Close()
		go func() {
			// A program that exits without reading all of its input
			// fails the run by its output, which is checked.
			_, _ = w.Write(c.stdin)
			_ = w.Close()
		}()
	}
	err := cmd.Wait()
	wall := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", c, err)
	}
	if c.want != "" && stdout.String() != c.want {
		return 0, fmt.Errorf("%s printed %q, want %q", c, clip(stdout.String()), clip(c.want))
	}
	return wall, nil
}

func (c command) String() string {
	return strings.Join(append([]string{filepath.Base(c.path)}, c.args...), " ")
}

// gnuTime is GNU time, which reports a child's peak RSS. The rusage that
// os/exec returns is not used for it: Go starts children with vfork
// semantics (CLONE_VM), so the child's high-water mark includes this
// harness's own memory from before exec. GNU time forks first.
const gnuTime = "/usr/bin/time"

// peakRSS runs c under GNU time and returns its peak RSS in bytes.
func (c command) peakRSS(dir string) (int64, error) {
	out := filepath.Join(dir, "rss")
	cmd := exec.Command(gnuTime, append([]string{"-f", "%M", "-o", out, c.path}, c.args...)...)
	cmd.Stdin = bytes.NewReader(c.stdin)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, io.Discard
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s under %s: %v", c, gnuTime, err)
	}
	if c.want != "" && stdout.String() != c.want {
		return 0, fmt.Errorf("%s printed %q, want %q", c, clip(stdout.String()), clip(c.want))
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return 0, err
	}
	var kib int64
	if _, err := fmt.Sscan(string(data), &kib); err != nil {
		return 0, fmt.Errorf("%s: %q", gnuTime, data)
	}
	return kib << 10, nil
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// samples are the measures of one figure for one program.
type samples []float64

func (s samples) sorted() []float64 {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

func (s samples) median() float64 {
	c := s.sorted()
	if len(c) == 0 {
		return math.NaN()
	}
	if len(c)%2 == 1 {
		return c[len(c)/2]
	}
	return (c[len(c)/2-1] + c[len(c)/2]) / 2
}

// p95 is the 95th percentile, nearest rank.
func (s samples) p95() float64 {
	c := s.sorted()
	if len(c) == 0 {
		return math.NaN()
	}
	return c[int(math.Ceil(0.95*float64(len(c))))-1]
}

func (s samples) max() float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	return slices.Max(s)
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// rotate returns the indexes 0..n-1 starting at round mod n, so that no
// program always runs right after the same other one.
func rotate(n, round int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = (round + i) % n
	}
	return idx
}
