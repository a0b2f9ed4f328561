//go:build unix

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The askuser command of the package (askuser.js) is met here as npm
// installs it, in node_modules beside the platform packages, with a shell
// script in place of the program of this platform. The real program is
// run through the packed and installed packages by the heavy suite
// (e2e/npm_test.go).

// install builds the packages with program as this platform's askuser
// and lays them out as npm installs them, and returns the command.
func install(t *testing.T, program string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the tests of the npm package's askuser command need Node.js 18 or later")
	}
	programs := allPlatforms()
	programs[runtime.GOOS+"/"+runtime.GOARCH] = "#!/bin/sh\n" + program
	modules := filepath.Join(t.TempDir(), "node_modules")
	if err := build(fakeDist(t, "1.2.3", programs), modules); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(modules, "askuser", "bin", "askuser")
}

// hostPackage is the package of this platform.
func hostPackage(t *testing.T) string {
	for _, p := range platforms {
		if p.goos == runtime.GOOS && p.goarch == runtime.GOARCH {
			return p.pkg()
		}
	}
	t.Fatalf("askuser is not built for %s/%s", runtime.GOOS, runtime.GOARCH)
	return ""
}

// run runs the command with args and stdin, and returns its stdout, its
// stderr and how it ended.
func run(t *testing.T, command, stdin string, env []string, args ...string) (string, string, *os.ProcessState) {
	t.Helper()
	cmd := exec.Command(command, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), cmd.ProcessState
}

func TestShimPassesEverythingThrough(t *testing.T) {
	shim := install(t, `printf 'args:'; printf ' [%s]' "$@"; echo; cat; echo "to stderr $ASKUSER_X" >&2; exit 65`)
	stdout, stderr, state := run(t, shim, "from stdin\n", []string{"ASKUSER_X=set"}, "a b", "", "--ui=line")
	if want := "args: [a b] [] [--ui=line]\nfrom stdin\n"; stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	if want := "to stderr set\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	if state.ExitCode() != 65 {
		t.Errorf("exit code %d, want the program's 65", state.ExitCode())
	}
}

// A program that dies of a signal has the command die of it too, as the
// shell would see of the program itself.
func TestShimDiesOfTheProgramsSignal(t *testing.T) {
	shim := install(t, `kill -TERM $$`)
	_, stderr, state := run(t, shim, "", nil)
	ws := state.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("ended %v, want killed by SIGTERM; stderr %q", state, stderr)
	}
}

// Signals sent to the command reach the program, and the command waits
// for the program's own exit code.
func TestShimForwardsSignals(t *testing.T) {
	for _, s := range []struct {
		sig  syscall.Signal
		name string
		code int
	}{{syscall.SIGTERM, "TERM", 143}, {syscall.SIGINT, "INT", 130}, {syscall.SIGHUP, "HUP", 129}} {
		t.Run(s.name, func(t *testing.T) {
			shim := install(t, `trap 'echo "got $1"; exit $2' "$1"
echo ready
while :; do sleep 0.05; done`)
			cmd := exec.Command(shim, s.name, strconv.Itoa(s.code))
			lines := startLines(t, cmd)
			if line := nextLine(t, lines); line != "ready" {
				t.Fatalf("the program did not start: %q", line)
			}
			if err := cmd.Process.Signal(s.sig); err != nil {
				t.Fatal(err)
			}
			if line := nextLine(t, lines); line != "got "+s.name {
				t.Fatalf("the program saw %q, want got %s", line, s.name)
			}
			if err := cmd.Wait(); cmd.ProcessState.ExitCode() != s.code {
				t.Errorf("ended %v, want exit %d", err, s.code)
			}
		})
	}
}

// Without this platform's package (npm install --omit=optional), the
// command says so in one line, with another way to install.
func TestShimWithoutThePlatformPackage(t *testing.T) {
	shim := install(t, "exit 0")
	pkg := hostPackage(t)
	if err := os.RemoveAll(filepath.Join(filepath.Dir(shim), "..", "..", filepath.FromSlash(pkg))); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, state := run(t, shim, "", nil, "version")
	platform := strings.TrimPrefix(pkg, "@askuser/")
	want := "askuser: " + pkg + ", the program for " + platform + ", is not installed (left out by --omit=optional or --no-optional?): " +
		"install askuser again with its optional dependencies, or install askuser another way: go install github.com/askuser/askuser@latest, " +
		"or an archive from https://github.com/askuser/askuser/releases\n"
	if stdout != "" || stderr != want || state.ExitCode() != 1 {
		t.Errorf("exit %d, stdout %q, stderr:\n%q\nwant exit 1 and:\n%q", state.ExitCode(), stdout, stderr, want)
	}
}

// On a platform that has no package, the command says so in one line.
func TestShimOnAnotherPlatform(t *testing.T) {
	shim := install(t, "exit 0")
	manifest := filepath.Join(filepath.Dir(shim), "..", "package.json")
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	pkg := hostPackage(t)
	writeFile(t, manifest, strings.ReplaceAll(string(b), `"`+pkg+`"`, `"@askuser/elsewhere"`), 0o644)
	_, stderr, state := run(t, shim, "", nil)
	want := "askuser: there is no npm package of askuser for " + strings.TrimPrefix(pkg, "@askuser/") + "; install askuser another way: " +
		"go install github.com/askuser/askuser@latest, or an archive from https://github.com/askuser/askuser/releases\n"
	if stderr != want || state.ExitCode() != 1 {
		t.Errorf("exit %d, stderr:\n%q\nwant exit 1 and:\n%q", state.ExitCode(), stderr, want)
	}
}

// ASKUSER_BINARY_PATH runs another program, and a program that cannot be
// run is an error of one line.
func TestShimBinaryPathOverride(t *testing.T) {
	shim := install(t, "echo packaged")
	other := filepath.Join(t.TempDir(), "other")
	writeFile(t, other, "#!/bin/sh\necho other \"$@\"\n", 0o755)
	if stdout, _, state := run(t, shim, "", []string{"ASKUSER_BINARY_PATH=" + other}, "x"); stdout != "other x\n" || !state.Success() {
		t.Errorf("with ASKUSER_BINARY_PATH: %v, stdout %q; want other's output", state, stdout)
	}
	missing := filepath.Join(t.TempDir(), "missing")
	_, stderr, state := run(t, shim, "", []string{"ASKUSER_BINARY_PATH=" + missing})
	if want := "askuser: cannot run " + missing + ": spawn " + missing + " ENOENT\n"; stderr != want || state.ExitCode() != 1 {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q", state.ExitCode(), stderr, want)
	}
}

// startLines starts cmd in a process group of its own, which is killed
// when the test ends, and returns the lines of its stdout.
func startLines(t *testing.T, cmd *exec.Cmd) <-chan string {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	lines := make(chan string)
	go func() {
		defer close(lines)
		for sc := bufio.NewScanner(stdout); sc.Scan(); {
			lines <- sc.Text()
		}
	}()
	return lines
}

// nextLine is the next line of lines, or "" after ten seconds without one.
func nextLine(t *testing.T, lines <-chan string) string {
	t.Helper()
	select {
	case l := <-lines:
		return l
	case <-time.After(10 * time.Second):
		t.Log("no line for ten seconds")
		return ""
	}
}
