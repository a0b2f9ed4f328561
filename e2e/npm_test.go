//go:build heavy && unix

package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/ptytest"
	"github.com/askuser/askuser/internal/testutil"
)

// The release, built as a person would build it: a goreleaser snapshot of
// this tree, its npm packages made by scripts/npm, packed with npm pack
// and installed with npm from the tarballs, offline, into a project of
// their own. askuser is then run through npx with no Go on PATH, and
// whatever it does there is compared with what the program that
// goreleaser built does itself. Run with go test -tags heavy -run
// 'TestNPM|TestReleaseArchives' ./e2e: building the snapshot takes half a
// minute with a warm build cache, and several the first time.

// goreleaser is the goreleaser that builds releases, as README names it.
const goreleaser = "github.com/goreleaser/goreleaser/v2@v2.15.1"

// The snapshot is built from a copy of the tree tagged snapshotTag, so its
// version is the next patch's.
const (
	snapshotTag     = "v0.9.0"
	snapshotVersion = "0.9.1-next"
)

// release is a snapshot with its npm packages installed.
type release struct {
	root    string // the copy of the tree it was built from
	dist    string
	program string // the askuser built for this machine
	project string // where npm installed the packages
	env     []string
}

var (
	releaseOnce sync.Once
	built       *release
	buildErr    error
)

// snapshot builds the release once for all the tests that need it, in the
// directory that TestMain removes.
func snapshot(t *testing.T) *release {
	t.Helper()
	askuserPath(t)
	releaseOnce.Do(func() {
		start := time.Now()
		built, buildErr = buildRelease(filepath.Join(filepath.Dir(askuserBin), "release"))
		fmt.Fprintf(os.Stderr, "the snapshot and its npm packages took %s\n", time.Since(start).Round(time.Second))
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

func buildRelease(dir string) (*release, error) {
	r := &release{root: filepath.Join(dir, "src"), project: filepath.Join(dir, "project")}
	r.dist = filepath.Join(r.root, "dist")
	if err := copyTree(r.root); err != nil {
		return nil, err
	}
	path, err := pathWithoutGo()
	if err != nil {
		return nil, err
	}
	r.env = append(os.Environ(), "PATH="+path, "TERM=xterm-256color",
		// npm reaches no registry: everything it installs is a tarball here.
		"npm_config_offline=true", "npm_config_cache="+filepath.Join(dir, "npm-cache"),
		"npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
	steps := [][]string{
		{"go", "run", goreleaser, "release", "--snapshot", "--clean"},
		{"go", "run", "./scripts/npm"},
	}
	for _, step := range steps {
		if err := runIn(r.root, os.Environ(), step...); err != nil {
			return nil, err
		}
	}
	programs, _ := filepath.Glob(filepath.Join(r.dist, "askuser_"+runtime.GOOS+"_"+runtime.GOARCH+"*", "askuser"))
	if len(programs) != 1 {
		return nil, fmt.Errorf("the snapshot built %d programs for this machine: %v", len(programs), programs)
	}
	r.program = programs[0]
	if err := r.install(); err != nil {
		return nil, err
	}
	return r, nil
}

// install packs every package of dist/npm and installs askuser and this
// platform's package from the tarballs into a project of their own.
func (r *release) install() error {
	packs := filepath.Join(filepath.Dir(r.project), "packs")
	packages, _ := filepath.Glob(filepath.Join(r.dist, "npm", "@askuser", "*"))
	packages = append(packages, filepath.Join(r.dist, "npm", "askuser"))
	if len(packages) != 7 {
		return fmt.Errorf("scripts/npm wrote %d packages, want askuser and six platforms': %v", len(packages), packages)
	}
	if err := os.MkdirAll(packs, 0o755); err != nil {
		return err
	}
	if err := runIn(r.root, r.env, append([]string{"npm", "pack", "--loglevel=error", "--pack-destination", packs}, packages...)...); err != nil {
		return err
	}
	if err := os.MkdirAll(r.project, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(r.project, "package.json"), []byte(`{"name":"uses-askuser","private":true}`+"\n"), 0o644); err != nil {
		return err
	}
	platform := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	return runIn(r.project, r.env, "npm", "install", "--loglevel=error",
		filepath.Join(packs, "askuser-"+snapshotVersion+".tgz"),
		filepath.Join(packs, "askuser-"+runtime.GOOS+"-"+platform+"-"+snapshotVersion+".tgz"))
}

// copyTree copies the files of the tree that git would commit, changed or
// not, into dst, and commits them there as a repository of their own
// tagged snapshotTag, with the origin of the real one. The copy's
// goreleaser configuration does not run the tests, as CI has.
func copyTree(dst string) error {
	out, err := exec.Command("git", "-C", "..", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return fmt.Errorf("list the tree's files: %w", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		fi, err := os.Lstat(filepath.Join("..", name))
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted, not yet committed
		} else if err != nil {
			return err
		}
		b, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, name)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, name), b, fi.Mode().Perm()); err != nil {
			return err
		}
	}
	config := filepath.Join(dst, ".goreleaser.yaml")
	b, err := os.ReadFile(config)
	if err != nil {
		return err
	}
	const testHook = "    - go test ./...\n"
	if !strings.Contains(string(b), testHook) {
		return fmt.Errorf(".goreleaser.yaml has no hook %q for the copy to leave out", testHook)
	}
	if err := os.WriteFile(config, []byte(strings.Replace(string(b), testHook, "", 1)), 0o644); err != nil {
		return err
	}
	git := "git -c user.name=askuser -c user.email=askuser@example.com -c init.defaultBranch=main"
	for _, step := range []string{
		git + " init -q",
		git + " add -A",
		git + " commit -q -m snapshot",
		git + " tag " + snapshotTag,
		git + " remote add origin https://github.com/askuser/askuser.git",
	} {
		if err := runIn(dst, os.Environ(), strings.Fields(step)...); err != nil {
			return err
		}
	}
	return nil
}

// pathWithoutGo is PATH less every directory that holds a go command, and
// fails if that leaves no node, npm or npx.
func pathWithoutGo() (string, error) {
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "go")); err == nil {
			continue
		}
		keep = append(keep, dir)
	}
	path := strings.Join(keep, string(filepath.ListSeparator))
	for _, tool := range []string{"node", "npm", "npx"} {
		if !onPath(path, tool) {
			return "", fmt.Errorf("%s is not on PATH, or only beside go: %s", tool, os.Getenv("PATH"))
		}
	}
	return path, nil
}

// onPath reports whether an executable name is in a directory of path.
func onPath(path, name string) bool {
	for _, dir := range filepath.SplitList(path) {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return true
		}
	}
	return false
}

// runIn runs a command in dir with env, and returns its output in the
// error when it fails.
func runIn(dir string, env []string, args ...string) error {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// npx is askuser run as npx askuser ARGS in the project, with its env.
func (r *release) npx(args ...string) *exec.Cmd {
	cmd := exec.Command("npx", append([]string{"askuser"}, args...)...)
	cmd.Dir, cmd.Env = r.project, r.env
	return cmd
}

// direct is the program that goreleaser built, run with the same env.
func (r *release) direct(args ...string) *exec.Cmd {
	cmd := exec.Command(r.program, args...)
	cmd.Dir, cmd.Env = r.project, r.env
	return cmd
}

// runResult is what a run left: its output and exit code.
type runResult struct {
	stdout, stderr string
	code           int
}

func runFor(t *testing.T, cmd *exec.Cmd, stdin string) runResult {
	t.Helper()
	var stdout, stderr strings.Builder
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		t.Fatal(err)
	}
	return runResult{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
}

// With no Go on PATH, npx askuser asks the example question on line
// prompts, and each runResult — answers, bad input, usage errors, input that
// ends — has the program's own output and exit code.
func TestNPMLinePrompts(t *testing.T) {
	r := snapshot(t)
	if onPath(pathOf(r.env), "go") {
		t.Fatal("go is on the PATH the npm package is run with")
	}
	example, err := filepath.Abs("../docs/examples/database.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, stdin string
		args        []string
		code        int
	}{
		{"answered", "2\n", []string{"-f", example}, 0},
		{"questions and answers on stdin", questions(qDatabase) + "\n1\n", nil, 0},
		{"version", "", []string{"version"}, 0},
		{"schema", "", []string{"schema"}, 0},
		{"invalid", "", []string{"validate", `{"questions":[]}`}, 65},
		{"usage", "", []string{"--bogus"}, 64},
		{"input ended", "", []string{questions(qDatabase)}, 66},
		{"inbox, its input ended", "", []string{"inbox"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := runFor(t, r.direct(c.args...), c.stdin)
			got := runFor(t, r.npx(c.args...), c.stdin)
			if want.code != c.code {
				t.Fatalf("the program itself exits %d, want %d\nstderr: %s", want.code, c.code, want.stderr)
			}
			if got != want {
				t.Errorf("npx askuser:\n%+v\nthe program itself:\n%+v", got, want)
			}
		})
	}
	if got := runFor(t, r.npx("-f", example), "2\n"); got.stdout != `{"answers":{"Database":"SQLite"}}`+"\n" {
		t.Errorf("npx askuser -f database.json answered 2: stdout %q", got.stdout)
	}
}

// pathOf is the PATH of env.
func pathOf(env []string) string {
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	return path
}

// startOnTerminal starts cmd on a 60×30 terminal, with stdout a pipe of
// its own, as startTUI starts askuser.
func startOnTerminal(t *testing.T, cmd *exec.Cmd) *tuiRun {
	t.Helper()
	r := &tuiRun{t: t, tm: ptytest.New(t, 60, 30)}
	cmd.Stdout = &r.stdout
	r.process = startProcess(t, cmd, r.tm.Start)
	return r
}

// In a terminal, npx askuser is the program's terminal UI: keys reach it,
// Ctrl+C cancels with 130 and leaves the terminal as it found it, and the
// screen ends as the program's own does.
func TestNPMTerminal(t *testing.T) {
	r := snapshot(t)
	answer := `{"answers":{"Database":"PostgreSQL (Recommended)"}}` + "\n"
	for _, c := range []struct {
		name   string
		args   []string
		keys   func(*tuiRun)
		code   int
		stdout string
		// lastLineMayGo: npm, the terminal's first process, dies of the
		// signal, and the terminal hangs up on the program as it writes
		// its last line, which then may never show.
		lastLineMayGo bool
	}{
		{"Enter", []string{questions(qDatabase)}, func(tr *tuiRun) {
			tr.expect("❯ 1. PostgreSQL")
			tr.send(keyEnter)
		}, 0, answer, false},
		{"Ctrl+C", []string{questions(qDatabase)}, func(tr *tuiRun) {
			tr.expect("❯ 1. PostgreSQL")
			tr.send(keyCtrlC)
		}, 130, "", false},
		{"Ctrl+C in the text of Other", []string{questions(qDatabase)}, func(tr *tuiRun) {
			tr.expect("❯ 1. PostgreSQL")
			tr.send("0")
			tr.expect("Your answer:")
			tr.send("half" + keyCtrlC)
		}, 130, "", false},
		{"inbox", []string{"inbox"}, func(tr *tuiRun) {
			tr.expect("q quit")
			tr.send("q")
		}, 0, "", false},
		{"line prompt", []string{"--ui", "line", questions(qDatabase)}, func(tr *tuiRun) {
			tr.expect("Enter a number")
			tr.send("1" + keyEnter)
		}, 0, answer, false},
		// On a line prompt the terminal turns Ctrl+C into SIGINT, for
		// every process of the foreground group: npm, its shell, the
		// askuser command and the program. npm dies of it at once (the
		// shell shows 130, as it shows the program's 130), and the program
		// finishes as it does alone, but for its last line, which the
		// terminal may lose as it hangs up.
		{"Ctrl+C on a line prompt", []string{"--ui", "line", questions(qDatabase)}, func(tr *tuiRun) {
			tr.expect("Enter a number")
			tr.send(keyCtrlC)
		}, 130, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			direct := startOnTerminal(t, r.direct(c.args...))
			c.keys(direct)
			direct.exit(c.code, c.stdout)
			npx := startOnTerminal(t, r.npx(c.args...))
			c.keys(npx)
			select {
			case <-npx.done:
			case <-time.After(ptytest.Timeout):
				t.Fatalf("npx askuser did not exit\nscreen:\n%s", npx.tm.Screen())
			}
			if code := shellCode(npx.cmd.ProcessState); code != c.code {
				t.Errorf("npx askuser: the shell sees %d (%v), want %d", code, npx.cmd.ProcessState, c.code)
			}
			if npx.stdout.String() != c.stdout {
				t.Errorf("npx askuser: stdout %q, want %q", npx.stdout.String(), c.stdout)
			}
			// The program may outlive npm (see above): its screen is done
			// when it shows what the program's own showed.
			want := direct.tm.Screen()
			if c.lastLineMayGo {
				want = want[:strings.LastIndex(strings.TrimRight(want, "\n"), "\n")+1]
			}
			npx.tm.ExpectScreen(want)
			if echo, canonical := npx.tm.LineMode(); !echo || !canonical {
				t.Errorf("npx askuser left the terminal with echo %v, line editing %v", echo, canonical)
			}
			npx.tm.Drain()
			if !npx.tm.CursorVisible() {
				t.Error("npx askuser left the cursor hidden")
			}
		})
	}
}

// npx -y askuser mcp serves the TypeScript SDK's client as the program
// does: the same tools, forms and results.
func TestNPMMCP(t *testing.T) {
	r := snapshot(t)
	node := nodeSDK(t, nodeDir, true)
	dir := t.TempDir()
	questions := filepath.Join(dir, "questions.json")
	if err := os.WriteFile(questions, []byte(formQuestions), 0o644); err != nil {
		t.Fatal(err)
	}
	// The client starts a command with arguments "mcp": this one is the
	// line of an MCP client's settings, npx -y askuser mcp.
	npx := filepath.Join(dir, "npx-askuser")
	script := fmt.Sprintf("#!/bin/sh\ncd '%s' && exec npx -y askuser \"$@\"\n", r.project)
	if err := os.WriteFile(npx, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(r.env, "ASKUSER_TIMEOUT=", "ASKUSER_ANSWERS=", "ASKUSER_UI=", "ASKUSER_FROM=")
	want := runNodeClient(t, node, r.program, questions, env)
	got := runNodeClient(t, node, npx, questions, env)
	if string(got) != string(want) {
		t.Errorf("the client saw of npx -y askuser mcp:\n%s\nof the program itself:\n%s", got, want)
	}
	if !strings.Contains(string(got), `"structuredContent":{"answers":{"Database":"SQLite"`) {
		t.Errorf("the client's report has no answers: %s", got)
	}
}

// A signal sent to the askuser command of the package, as an MCP client or
// a harness sends it to the process it started, ends the program as it
// ends it sent to the program itself: SIGTERM is 143.
func TestNPMSignal(t *testing.T) {
	r := snapshot(t)
	example, err := filepath.Abs("../docs/examples/database.json")
	if err != nil {
		t.Fatal(err)
	}
	shim := exec.Command(filepath.Join(r.project, "node_modules", ".bin", "askuser"), "-f", example)
	shim.Dir, shim.Env = r.project, r.env
	for _, s := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(s.String(), func(t *testing.T) {
			want := signalled(t, r.direct("-f", example), s)
			got := signalled(t, exec.Command(shim.Path, shim.Args[1:]...), s)
			if got != want {
				t.Errorf("the package's askuser:\n%+v\nthe program itself:\n%+v", got, want)
			}
			if code := map[syscall.Signal]int{syscall.SIGTERM: 143, syscall.SIGINT: 130, syscall.SIGHUP: 129}[s]; want.code != code {
				t.Errorf("exit %d, want %d", want.code, code)
			}
		})
	}
}

// signalled starts cmd with an open stdin that sends nothing, sends it sig
// once the question is asked, and returns how it ended.
func signalled(t *testing.T, cmd *exec.Cmd, sig syscall.Signal) runResult {
	t.Helper()
	if cmd.Env == nil {
		cmd.Env = snapshot(t).env
	}
	stdin, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var stdout strings.Builder
	var stderr testutil.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &stdout, &stderr
	p := startProcess(t, cmd, (*exec.Cmd).Start)
	stdin.Close()
	deadline := time.Now().Add(ptytest.Timeout)
	for !strings.Contains(stderr.String(), "Enter a number") {
		if time.Now().After(deadline) {
			t.Fatalf("no question asked: %q", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(ptytest.Timeout):
		t.Fatalf("still running after %v", sig)
	}
	return runResult{stdout.String(), stderr.String(), p.code()}
}

// shellCode is the exit code a shell shows for a process that ended so:
// 128 and the signal's number for one that a signal ended.
func shellCode(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
