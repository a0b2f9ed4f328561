//go:build unix

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/natsinbox"
	"github.com/askuser/askuser/internal/natstest"
)

// BenchmarkInboxAskers puts many askers into one askuser inbox, over the
// Unix socket and over NATS, and reports how long each set took from its
// asker's start to its arrival in the inbox (p50, p95), the inbox's peak
// RSS, and, over NATS, what each waiting asker costs the server a second
// (messages and bytes it takes in and sends out, from its monitoring port,
// over 10 s once every set has arrived):
//
//	go test ./e2e -run '^$' -bench InboxAskers -benchtime 1x
//
// BENCH_ASKERS (1000) askers start at BENCH_RATE (200) a second; each is
// the asker's side of askuser (inbox.Dial, then Ask) in this process, so
// that the figure is the transport's and the inbox's, not the start of a
// thousand processes. The inbox is the built askuser inbox, answered on its
// page only (--web, with no terminal), which logs a line for each set
// that arrives: the benchmark reads its stderr, and a set's arrival is
// when the line naming it comes.
// The NATS server is nats-server, built from the version go.mod requires
// and run beside them, with JetStream on disk.
//
// Each transport is measured with every build of inboxBuilds in turn: with
// BENCH_COMPARE, a change is measured beside the revision it changes, in
// one run.
func BenchmarkInboxAskers(b *testing.B) {
	n := envInt("BENCH_ASKERS", 1000)
	rate := envInt("BENCH_RATE", 200)
	for _, transport := range []string{"socket", "nats"} {
		b.Run(transport, func(b *testing.B) {
			for _, build := range inboxBuilds() {
				b.Run(build.name, func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						r := benchAskers(b, build.path, transport, n, rate)
						b.ReportMetric(ms(r.p50), "p50-ms")
						b.ReportMetric(ms(r.p95), "p95-ms")
						b.ReportMetric(float64(r.rssKiB)/1024, "inbox-peak-RSS-MiB")
						if r.load != nil {
							// What each waiting asker costs the server, a
							// second: messages and bytes in, and out.
							b.ReportMetric(r.load[0], "server-in-msgs/asker/s")
							b.ReportMetric(r.load[1], "server-in-B/asker/s")
							b.ReportMetric(r.load[2], "server-out-msgs/asker/s")
							b.ReportMetric(r.load[3], "server-out-B/asker/s")
						}
					}
				})
			}
		})
	}
}

// inboxBuild is an askuser program whose inbox a benchmark runs.
type inboxBuild struct{ name, path string }

// inboxBuilds are the askuser programs that the inbox's benchmarks run:
// the one built from the work tree, named work-tree, and each that
// BENCH_COMPARE lists (paths separated by commas, such as a revision built
// as scripts/bench.sh builds one), named by its file name.
func inboxBuilds() []inboxBuild {
	builds := []inboxBuild{{"work-tree", askuserBin}}
	for _, path := range strings.Split(os.Getenv("BENCH_COMPARE"), ",") {
		if path != "" {
			builds = append(builds, inboxBuild{filepath.Base(path), path})
		}
	}
	return builds
}

// percentile is the p-th percentile of ds.
func percentile(ds []time.Duration, p int) time.Duration {
	ds = slices.Sorted(slices.Values(ds))
	return ds[min(len(ds)-1, len(ds)*p/100)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// confirmDeploy is the question each asker of the benchmark sends.
var confirmDeploy = json.RawMessage(`[{"type":"confirm","question":"Deploy?","header":"Confirm","default":"Yes"}]`)

// benchResult is what one round measured: the percentiles of the sets'
// arrival, the inbox's peak RSS in KiB, and, over NATS, what the server
// took in and sent out for each waiting asker, a second (messages and
// bytes in, messages and bytes out), measured over loadSpan once every
// set had arrived.
type benchResult struct {
	p50, p95 time.Duration
	rssKiB   int
	load     []float64
}

const loadSpan = 10 * time.Second

// benchAskers runs one round.
func benchAskers(b *testing.B, askuser, transport string, n, rate int) benchResult {
	b.StopTimer()
	dir := b.TempDir()
	addr, askers, server := benchAddr(b, transport, dir)
	a, err := inbox.ParseAddr(askers, natsinbox.Remote())
	if err != nil {
		b.Fatal(err)
	}
	arrived := make([]time.Time, n)
	read := make(chan error, 1)
	cmd, screen := startBenchInbox(b, askuser, addr, dir, func(log io.Reader) { read <- readArrivals(log, arrived) })
	waitReady(b, screen, a)
	b.StartTimer()
	started, failed, stop := startAskers(a, n, rate, func(i int) *inbox.Request {
		return &inbox.Request{Questions: confirmDeploy, From: fmt.Sprintf("asker-%d", i)}
	})
	select {
	case err := <-read:
		if err != nil {
			b.Fatal(err)
		}
	case err := <-failed:
		// Such as the server refusing a connection past the agents'
		// account's max_connections: the sets would never all arrive.
		b.Fatal(err)
	case <-time.After(2 * time.Minute):
		b.Fatalf("the sets did not all arrive; the inbox shows:\n%s", screen)
	}
	b.StopTimer()
	r := benchResult{rssKiB: peakRSS(b, cmd.Process.Pid)}
	if server != nil {
		// The askers are the agents' of the page's configuration, each a
		// connection of the account that holds no streams, within its
		// max_connections.
		if got := server.Connections(b, "alice-agents"); got != n {
			b.Fatalf("the server holds %d connections of alice's agents' account, for %d askers", got, n)
		}
		before := server.Traffic(b)
		time.Sleep(loadSpan)
		after := server.Traffic(b)
		per := func(d int64) float64 { return float64(d) / loadSpan.Seconds() / float64(n) }
		r.load = []float64{per(after.InMsgs - before.InMsgs), per(after.InBytes - before.InBytes), per(after.OutMsgs - before.OutMsgs), per(after.OutBytes - before.OutBytes)}
	}
	if err := stop(); err != nil {
		b.Fatal(err)
	}

	waits := make([]time.Duration, n)
	for i := range n {
		waits[i] = arrived[i].Sub(started[i])
	}
	r.p50, r.p95 = percentile(waits, 50), percentile(waits, 95)
	return r
}

// benchAddr is the address of a benchmark's inbox over transport, and its
// askers': a socket in dir, or alice's queue on nats-server with the
// shared server's configuration of docs/across-machines.md (the inbox with
// its account's user, the askers with the agents'), run as a program of
// its own (the askers' connections and the server's ends of them would be
// more files than one process may open), which it returns too. The
// askers go without to=: the server is on this machine.
func benchAddr(b *testing.B, transport, dir string) (inboxAddr, askers string, _ *natstest.Process) {
	if transport == "nats" {
		p := natstest.StartProcess(b, readmeServerConf(b))
		return fmt.Sprintf("nats://alice-inbox:ALICE-INBOX-PASSWORD@%s/alice", p.HostPort()),
			fmt.Sprintf("nats://alice-agent:ALICE-AGENT-PASSWORD@%s/alice", p.HostPort()), p
	}
	addr := "unix:" + filepath.Join(dir, "inbox.sock")
	return addr, addr, nil
}

// startAskers starts n askers, rate a second, each the asker's side of
// askuser putting req(i) to the inbox at a, and returns when each started.
// They wait until stop, which withdraws their sets, waits until every one
// has ended, and returns the error of the first that ended before, unless
// failed gave it first.
func startAskers(a inbox.Addr, n, rate int, req func(i int) *inbox.Request) (started []time.Time, failed <-chan error, stop func() error) {
	started = make([]time.Time, n)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	first := make(chan error, 1)
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	for i := range n {
		<-tick.C
		started[i] = time.Now()
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, err := a.Dial().Ask(ctx, req(i), nil)
			if ctx.Err() != nil {
				return
			}
			select {
			case first <- fmt.Errorf("asker %d ended before the benchmark did: %+v, %w", i, e, err):
			default:
			}
		}()
	}
	return started, first, func() error {
		cancel()
		wg.Wait()
		select {
		case err := <-first:
			return err
		default:
			return nil
		}
	}
}

// startBenchInbox starts the inbox of the program askuser at addr,
// answered on its web page only, and has read read its log (stderr) as it
// is written; the inbox quits when the benchmark ends.
func startBenchInbox(b *testing.B, askuser, addr, dir string, read func(log io.Reader)) (*exec.Cmd, *screenOut) {
	cmd := exec.Command(askuser, "inbox", "--web")
	cmd.Env = append(os.Environ(), "ASKUSER_INBOX="+addr, "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir, "NO_COLOR=1")
	log, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	screen := newScreenOut()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	go read(io.TeeReader(log, screen))
	b.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	return cmd, screen
}

// arrivedLine is the inbox's log line for a set that arrives.
var arrivedLine = regexp.MustCompile(`^Arrived: questions from asker-(\d+) `)

// readArrivals stamps the arrival of each set named asker-I in arrived[I],
// as the inbox's log says, until every one has arrived. It reads the rest
// of the log after, whatever it returns: an inbox whose stderr is not
// read stops at its next line, and would not quit.
func readArrivals(log io.Reader, arrived []time.Time) error {
	defer func() { go func() { _, _ = io.Copy(io.Discard, log) }() }()
	sc := bufio.NewScanner(log)
	for got := 0; got < len(arrived); {
		if !sc.Scan() {
			return fmt.Errorf("the inbox's log ended after %d arrivals of %d (%v)", got, len(arrived), sc.Err())
		}
		m := arrivedLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		i, err := strconv.Atoi(m[1])
		switch {
		case err != nil || i >= len(arrived):
			return fmt.Errorf("an arrival of no asker of the benchmark: %q", sc.Text())
		case !arrived[i].IsZero():
			return fmt.Errorf("asker-%d's set arrived twice (it was asked again): %q", i, sc.Text())
		}
		arrived[i] = time.Now()
		got++
	}
	return nil
}

// waitReady waits until the inbox takes askers: for NATS, until it has
// printed its address and shown what waited before it.
func waitReady(b *testing.B, screen *screenOut, a inbox.Addr) {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if !a.Durable() {
			if _, err := a.Dial().Probe(context.Background()); err == nil {
				return
			}
		} else if strings.Contains(screen.String(), "Askers anywhere reach this inbox") {
			time.Sleep(2 * time.Second)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.Fatalf("the inbox is not ready:\n%s", screen)
}

// peakRSS is a process's peak resident set, in KiB (VmHWM).
func peakRSS(b testing.TB, pid int) int {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kib, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kib
		}
	}
	b.Fatal("no VmHWM")
	return 0
}
