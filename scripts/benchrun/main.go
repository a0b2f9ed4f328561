// Command benchrun times whole runs of askuser against a hello-world Go
// program, the floor for any Go command: each askuser run validates one
// question, reads the answer from a pipe and prints the JSON. Runs of the
// programs are interleaved so that a change in machine load affects all of
// them alike. It reports wall time (median and mean), CPU time, the ratio
// to hello-world, peak RSS and file size. scripts/bench.sh builds the
// binaries and runs it.
//
// Peak RSS is read by GNU time (/usr/bin/time -f %M), which forks before it
// runs the program. The rusage that Go's os/exec gets back is not used for
// it: Go starts children with vfork semantics (CLONE_VM), so the child's
// high-water mark includes this harness's own memory from before exec.
//
//	go run ./scripts/benchrun [-n 300] HELLO ASKUSER [ASKUSER...]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

const questions = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL (Recommended)","description":"Relational, rich features"},{"label":"SQLite","description":"Embedded, zero configuration"}],"multiSelect":false}]}`

const want = `{"answers":{"Database":"SQLite"}}` + "\n"

type sample struct {
	wall, cpu time.Duration
}

type program struct {
	name  string
	path  string
	args  []string
	check bool // its output must be want
	runs  []sample
}

func main() {
	n := flag.Int("n", 300, "timed runs of each program")
	warmup := flag.Int("warmup", 20, "untimed runs of each program first")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchrun [-n RUNS] HELLO ASKUSER [ASKUSER...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 2 {
		flag.Usage()
		os.Exit(2)
	}
	dir, err := os.MkdirTemp("", "benchrun")
	if err != nil {
		fail(err)
	}
	// Left behind only when a run fails, and then it holds what failed.
	defer func() { _ = os.RemoveAll(dir) }()
	qfile := filepath.Join(dir, "questions.json")
	if err := os.WriteFile(qfile, []byte(questions), 0o644); err != nil {
		fail(err)
	}

	progs := []*program{{name: "hello", path: flag.Arg(0)}}
	for _, p := range flag.Args()[1:] {
		progs = append(progs, &program{name: filepath.Base(p), path: p, args: []string{"-f", qfile, "--ui", "line"}, check: true})
	}
	for i := 0; i < *warmup+*n; i++ {
		for _, p := range progs {
			s, err := p.run()
			if err != nil {
				fail(err)
			}
			if i >= *warmup {
				p.runs = append(p.runs, s)
			}
		}
	}

	base := median(progs[0].runs, wallOf)
	baseMean := mean(progs[0].runs, wallOf)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	if _, err := fmt.Fprintln(tw, "program\twall median\twall mean\tcpu median\tratio (median)\tratio (mean)\tmax RSS\tsize\t"); err != nil {
		fail(err)
	}
	for _, p := range progs {
		info, err := os.Stat(p.path)
		if err != nil {
			fail(err)
		}
		rss, err := p.maxRSS(dir)
		if err != nil {
			fail(err)
		}
		rssText := "n/a"
		if rss >= 0 {
			rssText = fmt.Sprintf("%.1f MiB", float64(rss)/1024)
		}
		wm := median(p.runs, wallOf)
		if _, err := fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f\t%.2f\t%s\t%.2f MB\t\n", p.name,
			ms(wm), ms(mean(p.runs, wallOf)), ms(median(p.runs, cpuOf)),
			float64(wm)/float64(base), float64(mean(p.runs, wallOf))/float64(baseMean),
			rssText, float64(info.Size())/1e6); err != nil {
			fail(err)
		}
	}
	if err := tw.Flush(); err != nil {
		fail(err)
	}
	fmt.Printf("%d timed runs each, interleaved, after %d warm-up runs\n", *n, *warmup)
}

// run runs p once with the answer "2" on a pipe, as an agent's shell would
// give it.
func (p *program) run() (sample, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return sample{}, err
	}
	cmd := exec.Command(p.path, p.args...)
	var stdout bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, &stdout, io.Discard
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	// The child has its own copy of the read end.
	_ = r.Close()
	_, werr := io.WriteString(w, "2\n")
	if cerr := w.Close(); werr == nil {
		werr = cerr
	}
	err = cmd.Wait()
	if werr != nil {
		return sample{}, fmt.Errorf("%s: write the answer: %v", p.name, werr)
	}
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %v", p.name, err)
	}
	if p.check && stdout.String() != want {
		return sample{}, fmt.Errorf("%s printed %q, want %q", p.name, stdout.String(), want)
	}
	return sample{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}, nil
}

// maxRSS runs p a few times under GNU time and returns its largest peak
// RSS in KiB, or -1 when /usr/bin/time is not there.
func (p *program) maxRSS(dir string) (int64, error) {
	const gnuTime = "/usr/bin/time"
	if _, err := os.Stat(gnuTime); err != nil {
		return -1, nil
	}
	out := filepath.Join(dir, "rss")
	var peak int64
	for i := 0; i < 5; i++ {
		cmd := exec.Command(gnuTime, append([]string{"-f", "%M", "-o", out, p.path}, p.args...)...)
		cmd.Stdin = strings.NewReader("2\n")
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Run(); err != nil {
			return 0, fmt.Errorf("%s under %s: %v", p.name, gnuTime, err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			return 0, err
		}
		var kib int64
		if _, err := fmt.Sscan(string(data), &kib); err != nil {
			return 0, fmt.Errorf("%s: %q", gnuTime, data)
		}
		peak = max(peak, kib)
	}
	return peak, nil
}

func wallOf(s sample) time.Duration { return s.wall }
func cpuOf(s sample) time.Duration  { return s.cpu }

func median(ss []sample, f func(sample) time.Duration) time.Duration {
	ds := make([]time.Duration, len(ss))
	for i, s := range ss {
		ds[i] = f(s)
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func mean(ss []sample, f func(sample) time.Duration) time.Duration {
	var sum time.Duration
	for _, s := range ss {
		sum += f(s)
	}
	return sum / time.Duration(len(ss))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/1e6) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchrun:", err)
	os.Exit(1)
}
