//go:build unix

// Command benchrun measures what a person waiting on askuser feels, each
// figure against baselines measured in the same run: start-up and a
// scripted run against a hello-world Go program and gum; a whole run in a
// terminal and the redraw after a key press against gum choose; the time
// from posting the web page's form to the answer on stdout against a
// net/http program that does the least; and the peak RSS for documents at
// the 1 MiB input cap. The runs of the programs compared are interleaved,
// so that a change in the machine's load touches all of them alike.
// scripts/bench.sh builds the programs and runs it.
//
//	benchrun -hello PATH -webfloor PATH [-gum PATH] LABEL=ASKUSER...
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"
)

// The targets (docs/performance.md says why these).
const (
	startupVsGum = 0.25     // askuser's start-up, as a fraction of gum's at most
	frameBudget  = 16.0     // ms: a redraw, and a web answer, at the 95th percentile
	rssBudget    = 32 << 20 // bytes: peak RSS at the 1 MiB input cap
)

const (
	keysPerRun = 30 // key presses in one run of a terminal UI
	warmRounds = 5  // untimed rounds before each timed figure
)

type build struct {
	label string // "09349d5", "work tree"
	path  string
}

// A figure is one line of the table.
type figure struct {
	name, program string
	median, high  string
	ratio         string
	target        string
	result        string
}

func main() {
	runs := flag.Int("runs", 300, "timed runs of each program for start-up and the scripted run")
	termRuns := flag.Int("terminal", 50, "timed runs of each terminal UI, answered")
	keys := flag.Int("keys", 300, "timed key presses in each terminal UI")
	webRuns := flag.Int("web", 300, "timed answers on each web page")
	rssRuns := flag.Int("rss", 6, "runs under GNU time for each peak RSS")
	hello := flag.String("hello", "", "hello-world program (required)")
	webfloor := flag.String("webfloor", "", "scripts/benchrun/webfloor program (required)")
	gum := flag.String("gum", "", "gum program; empty leaves gum out")
	gumLabel := flag.String("gum-label", "gum", "gum's name in the table")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchrun -hello PATH -webfloor PATH [-gum PATH] LABEL=ASKUSER...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *hello == "" || *webfloor == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	var builds []build
	for _, a := range flag.Args() {
		label, path, ok := strings.Cut(a, "=")
		if !ok {
			flag.Usage()
			os.Exit(2)
		}
		builds = append(builds, build{label, path})
	}
	dir, err := os.MkdirTemp("", "benchrun")
	check(err)
	// Removed on the way out; a failure to remove a temporary directory
	// changes no figure.
	defer func() { _ = os.RemoveAll(dir) }()
	b := &bench{dir: dir, hello: *hello, webfloor: *webfloor, gum: *gum, gumLabel: *gumLabel, builds: builds}
	b.small = b.write("small.json", []byte(small))
	qdoc, qwant := questionsDoc()
	b.questions, b.questionsWant = b.write("questions.json", qdoc), qwant
	b.metadata = b.write("metadata.json", metadataDoc())

	began := time.Now()
	load := loadavg()
	b.startup(*runs)
	b.terminal(*termRuns, *keys)
	b.web(*webRuns)
	b.memory(*rssRuns)
	b.sizes()
	b.print(os.Stdout)
	fmt.Printf("\n%d CPUs, load average %s at the start and %s at the end; %s; measured in %s.\n",
		runtime.NumCPU(), load, loadavg(), runtime.Version(), time.Since(began).Round(time.Second))
	fmt.Printf("Runs: %d of each start-up and scripted run, %d answered terminal runs, %d key presses, %d web answers, %d runs under GNU time for each peak RSS; interleaved, after %d untimed rounds.\n",
		*runs, *termRuns, *keys, *webRuns, *rssRuns, warmRounds)
	b.summary(os.Stdout)
}

type bench struct {
	dir                  string
	hello, webfloor, gum string
	gumLabel             string
	builds               []build

	small, questions, metadata string // files
	questionsWant              string

	figures []figure
}

func (b *bench) write(name string, data []byte) string {
	path := filepath.Join(b.dir, name)
	check(os.WriteFile(path, data, 0o644))
	return path
}

func (b *bench) add(f figure) { b.figures = append(b.figures, f) }

// progress says on stderr what is being measured: the whole run takes
// minutes.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "benchrun: "+format+"\n", args...)
}

// timed runs each of cmds once per round, in rotating order, and returns
// the wall times of the rounds after the warm-up, in ms.
func timed(rounds int, cmds []func() (time.Duration, error)) []samples {
	out := make([]samples, len(cmds))
	for r := range warmRounds + rounds {
		for _, i := range rotate(len(cmds), r) {
			d, err := cmds[i]()
			check(err)
			if r >= warmRounds {
				out[i] = append(out[i], ms(d))
			}
		}
	}
	return out
}

func (b *bench) startup(rounds int) {
	progress("start-up and scripted runs, %d of each", rounds)
	answer := []byte("2\n")
	cmds := []command{{path: b.hello, want: "hello, world\n"}}
	gumAt := -1
	if b.gum != "" {
		gumAt = len(cmds)
		cmds = append(cmds, command{path: b.gum, args: []string{"--version"}})
	}
	first := len(cmds)
	for _, bl := range b.builds {
		cmds = append(cmds,
			command{path: bl.path, args: []string{"--version"}},
			command{path: bl.path, args: []string{"validate", "-f", b.small}},
			command{path: bl.path, args: []string{"-f", b.small, "--ui", "line"}, stdin: answer, want: smallWant})
	}
	fns := make([]func() (time.Duration, error), len(cmds))
	for i, c := range cmds {
		fns[i] = c.run
	}
	res := timed(rounds, fns)
	hello := res[0].median()
	gum := -1.0
	if gumAt >= 0 {
		gum = res[gumAt].median()
	}
	ratios := func(s samples) string {
		r := fmt.Sprintf("%.2f× hello", s.median()/hello)
		if gum > 0 {
			r = fmt.Sprintf("%.2f× gum, %s", s.median()/gum, r)
		}
		return r
	}
	b.add(figure{name: "start-up", program: "hello-world", median: msText(hello), high: msText(res[0].p95())})
	if gumAt >= 0 {
		b.add(figure{name: "start-up", program: b.gumLabel + " --version", median: msText(gum), high: msText(res[gumAt].p95()), ratio: fmt.Sprintf("%.2f× hello", gum/hello)})
	}
	judge := func(s samples) (string, string) {
		target := fmt.Sprintf("≤ %.2f× gum", startupVsGum)
		if gum <= 0 {
			return target, "no gum"
		}
		return target, passFail(s.median()/gum <= startupVsGum)
	}
	for j, bl := range b.builds {
		s := res[first+3*j]
		target, result := judge(s)
		b.add(figure{name: "start-up", program: "askuser " + bl.label + " --version", median: msText(s.median()), high: msText(s.p95()), ratio: ratios(s), target: target, result: result})
	}
	for j, bl := range b.builds {
		s := res[first+3*j+1]
		target, result := judge(s)
		b.add(figure{name: "start-up, validate", program: "askuser " + bl.label, median: msText(s.median()), high: msText(s.p95()), ratio: ratios(s), target: target, result: result})
	}
	for j, bl := range b.builds {
		s := res[first+3*j+2]
		b.add(figure{name: "scripted run, 2 on a pipe", program: "askuser " + bl.label, median: msText(s.median()), high: msText(s.p95()), ratio: ratios(s)})
	}
}

func (b *bench) terminal(rounds, keys int) {
	tuis := []tui{}
	names := []string{}
	if b.gum != "" {
		tuis = append(tuis, gumChoose(b.gum))
		names = append(names, b.gumLabel+" choose")
	}
	for _, bl := range b.builds {
		tuis = append(tuis, askuserTUI(bl.path, b.small))
		names = append(names, "askuser "+bl.label)
	}
	first, total := wholeRuns(tuis, rounds)
	lat := redrawRuns(tuis, keys)

	// vsGum is program i's ratio to gum, which is program 0 when it is
	// there.
	vsGum := func(i int, all []samples) string {
		if b.gum == "" || i == 0 {
			return ""
		}
		return fmt.Sprintf("%.2f× gum", all[i].median()/all[0].median())
	}
	for _, fig := range []struct {
		name string
		s    []samples
	}{{"terminal: start to first frame", first}, {"terminal: answered run (↓ Enter)", total}} {
		for i := range tuis {
			b.add(figure{name: fig.name, program: names[i], median: msText(fig.s[i].median()), high: msText(fig.s[i].p95()), ratio: vsGum(i, fig.s)})
		}
	}
	for i := range tuis {
		f := figure{name: "terminal: redraw after ↓", program: names[i], median: msText(lat[i].median()), high: msText(lat[i].p95()), ratio: vsGum(i, lat)}
		if b.gum == "" || i > 0 {
			f.target = fmt.Sprintf("p95 < %.0f ms", frameBudget)
			f.result = passFail(lat[i].p95() < frameBudget)
		}
		b.add(f)
	}
}

// wholeRuns times rounds whole runs of each program in a terminal, after
// warm-up rounds: from start to the first frame, and to the end.
func wholeRuns(tuis []tui, rounds int) (first, total []samples) {
	progress("whole runs in a terminal, %d of each", rounds)
	first = make([]samples, len(tuis))
	total = make([]samples, len(tuis))
	for r := range warmRounds + rounds {
		for _, i := range rotate(len(tuis), r) {
			f, t, err := terminalRun(tuis[i])
			check(err)
			if r >= warmRounds {
				first[i] = append(first[i], ms(f))
				total[i] = append(total[i], ms(t))
			}
		}
	}
	return first, total
}

// redrawRuns times about keys redraws after ↓ of each program, in runs of
// keysPerRun, after one run to warm up.
func redrawRuns(tuis []tui, keys int) []samples {
	sessions := max(1, (keys+keysPerRun-1)/keysPerRun)
	progress("redraws after ↓, %d in each of %d runs of each", keysPerRun, sessions)
	lat := make([]samples, len(tuis))
	for r := range 1 + sessions {
		for _, i := range rotate(len(tuis), r) {
			ds, err := redraws(tuis[i], keysPerRun)
			check(err)
			if r == 0 {
				continue // warm-up
			}
			for _, d := range ds {
				lat[i] = append(lat[i], ms(d))
			}
		}
	}
	return lat
}

func (b *bench) web(rounds int) {
	progress("answers on the web page, %d of each", rounds)
	cmds := []command{{path: b.webfloor, want: smallWant}}
	for _, bl := range b.builds {
		cmds = append(cmds, command{path: bl.path, args: []string{"--ui", "web", "-f", b.small}, want: smallWant})
	}
	fns := make([]func() (time.Duration, error), len(cmds))
	for i, c := range cmds {
		fns[i] = func() (time.Duration, error) { return webAnswer(c) }
	}
	res := timed(rounds, fns)
	floor := res[0].median()
	b.add(figure{name: "web: POST to stdout", program: "net/http floor", median: msText(floor), high: msText(res[0].p95())})
	for j, bl := range b.builds {
		s := res[1+j]
		b.add(figure{name: "web: POST to stdout", program: "askuser " + bl.label, median: msText(s.median()), high: msText(s.p95()),
			ratio:  fmt.Sprintf("%.2f× floor", s.median()/floor),
			target: fmt.Sprintf("p95 < %.0f ms", frameBudget), result: passFail(s.p95() < frameBudget)})
	}
}

func (b *bench) memory(rounds int) {
	progress("peak RSS, %d runs of each", rounds)
	const mib = 1 << 20
	type rssCase struct {
		figure, program string
		cmds            []command // alternated; the peak is over all of them
		judged          bool
	}
	cases := []rssCase{{figure: "peak RSS, --version", program: "hello-world", cmds: []command{{path: b.hello}}}}
	if b.gum != "" {
		cases = append(cases, rssCase{figure: "peak RSS, --version", program: b.gumLabel + " --version", cmds: []command{{path: b.gum, args: []string{"--version"}}}})
	}
	for _, bl := range b.builds {
		cases = append(cases, rssCase{figure: "peak RSS, --version", program: "askuser " + bl.label, cmds: []command{{path: bl.path, args: []string{"--version"}}}})
	}
	// Each large document from a file and on stdin (followed by the
	// answers, as an agent pipes them): the peak is the larger.
	answers := []byte(strings.Repeat("2\n", maxQuestions))
	doc := func(name, file, want string, n int) {
		data, err := os.ReadFile(file)
		check(err)
		for _, bl := range b.builds {
			cases = append(cases, rssCase{figure: name, program: "askuser " + bl.label, judged: true, cmds: []command{
				{path: bl.path, args: []string{"-f", file, "--ui", "line"}, stdin: answers[:2*n], want: want},
				{path: bl.path, args: []string{"--ui", "line"}, stdin: append(append(data, '\n'), answers[:2*n]...), want: want},
			}})
		}
	}
	doc("peak RSS, 1 MiB of questions", b.questions, b.questionsWant, maxQuestions)
	doc("peak RSS, 1 MiB of metadata", b.metadata, smallWant, 1)

	peaks := make([]samples, len(cases))
	for r := range rounds {
		for _, i := range rotate(len(cases), r) {
			for _, c := range cases[i].cmds {
				rss, err := c.peakRSS(b.dir)
				check(err)
				peaks[i] = append(peaks[i], float64(rss))
			}
		}
	}
	hello := peaks[0].max()
	for i, c := range cases {
		f := figure{name: c.figure, program: c.program, median: mibText(peaks[i].median()), high: mibText(peaks[i].max())}
		if i > 0 {
			f.ratio = fmt.Sprintf("%.1f× hello", peaks[i].max()/hello)
		}
		if c.judged {
			f.target = fmt.Sprintf("max ≤ %d MiB", rssBudget/mib)
			f.result = passFail(peaks[i].max() <= rssBudget)
		}
		b.add(f)
	}
}

func (b *bench) sizes() {
	size := func(path string) float64 {
		fi, err := os.Stat(path)
		check(err)
		return float64(fi.Size())
	}
	hello := size(b.hello)
	gum := -1.0
	b.add(figure{name: "stripped binary", program: "hello-world", median: mbText(hello)})
	if b.gum != "" {
		gum = size(b.gum)
		b.add(figure{name: "stripped binary", program: b.gumLabel, median: mbText(gum), ratio: fmt.Sprintf("%.1f× hello", gum/hello)})
	}
	for _, bl := range b.builds {
		s := size(bl.path)
		r := fmt.Sprintf("%.1f× hello", s/hello)
		if gum > 0 {
			r = fmt.Sprintf("%.2f× gum, %s", s/gum, r)
		}
		b.add(figure{name: "stripped binary", program: "askuser " + bl.label, median: mbText(s), ratio: r})
	}
}

func (b *bench) print(w *os.File) {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	_, _ = fmt.Fprintln(tw, "figure\tprogram\tmedian\tp95 / max\tratio\ttarget\tresult")
	prev := ""
	for _, f := range b.figures {
		name := f.name
		if name == prev {
			name = "" // the figure's name heads its group of lines
		} else if prev != "" {
			_, _ = fmt.Fprintln(tw, "\t\t\t\t\t\t")
		}
		prev = f.name
		_, _ = fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, f.program, f.median, f.high, f.ratio, f.target, f.result)
	}
	// tw writes to a bytes.Buffer, which does not fail; w is checked below.
	_ = tw.Flush()
	for l := range strings.Lines(buf.String()) {
		_, err := fmt.Fprintln(w, strings.TrimRight(l, " \n"))
		check(err)
	}
	if b.gum != "" {
		_, err := fmt.Fprint(w, "\nStart-up and the scripted run are compared with gum --version: gum has no prompt that takes\n"+
			"its answer from a pipe. The terminal figures are compared with gum choose and the same three options.\n")
		check(err)
	}
}

func (b *bench) summary(w *os.File) {
	var met, judged, skipped int
	var failed []string
	for _, f := range b.figures {
		switch f.result {
		case "pass":
			met++
			judged++
		case "FAIL":
			judged++
			failed = append(failed, f.name+": "+f.program)
		case "no gum":
			skipped++
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "Targets met: %d of %d.", met, judged)
	if skipped > 0 {
		fmt.Fprintf(&out, " %d not judged without gum.", skipped)
	}
	out.WriteString("\n")
	for _, f := range failed {
		fmt.Fprintln(&out, "  not met:", f)
	}
	_, err := io.WriteString(w, out.String())
	check(err)
}

func passFail(ok bool) string {
	if ok {
		return "pass"
	}
	return "FAIL"
}

func msText(v float64) string  { return fmt.Sprintf("%.2f ms", v) }
func mibText(v float64) string { return fmt.Sprintf("%.1f MiB", v/(1<<20)) }
func mbText(v float64) string  { return fmt.Sprintf("%.2f MB", v/1e6) }

func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(1)
	}
}
