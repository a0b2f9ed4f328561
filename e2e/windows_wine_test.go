//go:build heavy && linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// wineLeftOut says why the golden test name is not run on the Windows
// build under Wine, or "" when it is. Every other script runs: the line
// prompts, confirm and input, the output, validation, presets, the web
// page's usage, and the inbox over TCP.
func wineLeftOut(name string) string {
	switch {
	case strings.HasPrefix(name, "signal_"):
		return "it sends SIGINT, SIGTERM or SIGHUP, which Windows does not have"
	case name == "exit_failure":
		return `its expected output is the Unix error text ("no such file or directory")`
	case name == "history":
		return "its expected output is in the time zone that TZ names, which Go does not read on Windows"
	case strings.HasPrefix(name, "inbox_") && name != "inbox_tcp", name == "doctor":
		return "it uses the inbox's default address, a Unix socket, which Wine cannot create (WSAEAFNOSUPPORT), though Windows 10 and later can"
	}
	return ""
}

// wineScripts is the pattern of -test.run for the golden tests that run
// under Wine.
func wineScripts(t *testing.T) string {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "scripts", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden tests in testdata/scripts: %v", err)
	}
	var names []string
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		if why := wineLeftOut(name); why != "" {
			t.Logf("left out under Wine: %s: %s", name, why)
			continue
		}
		names = append(names, regexp.QuoteMeta(name))
	}
	return "^TestScripts$/^(" + strings.Join(names, "|") + ")$"
}

// TestWindowsUnderWine runs the golden tests (testscript) against the
// Windows build of askuser (GOOS=windows GOARCH=amd64), under Wine: the
// test binary of the repository's root, askuser included, is built for
// Windows and run by Wine in a Wine prefix of its own, in the root. It needs Wine and MinGW-w64, which it installs
// with .ci/install-wine when they are missing. The terminal UI is not
// tested on Windows: that needs a Windows console, which Wine's is not.
func TestWindowsUnderWine(t *testing.T) {
	start := time.Now()
	installWine(t)
	dir := t.TempDir()

	exe := filepath.Join(dir, "askuser.test.exe")
	build := exec.Command("go", "test", "-c", "-o", exe, "..")
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	runOrFail(t, build)

	// A prefix of the test's own, with the DLL that Wine 8 lacks and the
	// Go runtime needs (see .ci/bcryptprimitives.c). Mono and Gecko,
	// which a new prefix offers to install, are not needed.
	env := append(os.Environ(), "WINEPREFIX="+filepath.Join(dir, "prefix"), "WINEDEBUG=-all", "WINEDLLOVERRIDES=mscoree,mshtml=")
	boot := exec.Command("wine", "wineboot", "--init")
	boot.Env = env
	runOrFail(t, boot)
	dll := filepath.Join(dir, "prefix", "drive_c", "windows", "system32", "bcryptprimitives.dll")
	runOrFail(t, exec.Command("x86_64-w64-mingw32-gcc", "-shared", "-O2", "-s", "-o", dll, "../.ci/bcryptprimitives.c", "-ladvapi32"))
	t.Logf("Wine and the Windows build ready after %s", time.Since(start).Round(time.Second))

	scripts := time.Now()
	run := exec.Command("wine", exe, "-test.run", wineScripts(t), "-test.v", "-test.timeout", "10m")
	run.Dir, run.Env = "..", env
	out, err := run.CombinedOutput()
	passed := regexp.MustCompile(`(?m)^    --- PASS: TestScripts/(\S+)`).FindAllStringSubmatch(string(out), -1)
	if err != nil && !onlyCleanupFailed(string(out)) {
		t.Fatalf("the golden tests of the Windows build failed under Wine: %v\n%s", err, failures(string(out)))
	}
	names := map[string]bool{}
	for _, m := range passed {
		names[m[1]] = true
	}
	// The scripts this test is for, by name, so that a change of pattern
	// cannot leave them out unnoticed.
	for _, want := range []string{"line_choices", "line_eof", "line_invalid", "line_prompt_shape", "confirm", "input", "inbox_tcp"} {
		if !names[want] {
			t.Errorf("%s did not pass under Wine; passed: %d scripts", want, len(names))
		}
	}
	t.Logf("%d golden tests passed on the Windows build under Wine in %s (%s in all)",
		len(names), time.Since(scripts).Round(time.Second), time.Since(start).Round(time.Second))
}

// installWine installs Wine and MinGW-w64 with .ci/install-wine when
// either is missing, and fails with instructions when that cannot be
// done.
func installWine(t *testing.T) {
	t.Helper()
	_, wineErr := exec.LookPath("wine")
	_, gccErr := exec.LookPath("x86_64-w64-mingw32-gcc")
	if wineErr == nil && gccErr == nil {
		return
	}
	t.Log("Wine or MinGW-w64 not found: installing them with .ci/install-wine")
	if out, err := exec.Command("sh", "../.ci/install-wine").CombinedOutput(); err != nil {
		t.Fatalf("Wine and MinGW-w64 are needed to run the Windows build, and .ci/install-wine failed: %v\n%s\n"+
			"Install them with: sudo apt-get install -y wine wine64 gcc-mingw-w64-x86-64-win32", err, out)
	}
}

func runOrFail(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
}

// onlyCleanupFailed reports whether a test run that exited non-zero
// passed every test and then failed only to remove testscript's temporary
// directory: Wine cannot delete the copy of the test program that
// testscript links there while it runs ("Invalid function"), and
// testscript then exits 1.
func onlyCleanupFailed(out string) bool {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	return strings.Contains(out, "\nPASS\n") && !strings.Contains(out, "--- FAIL") &&
		strings.Contains(last, "cannot delete temporary directory")
}

// failures is the part of a go test -v output that tells what failed: the
// lines of the failed scripts' logs, else the whole output.
func failures(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "FAIL") || strings.HasPrefix(l, "        ") {
			b.WriteString(l + "\n")
		}
	}
	if b.Len() == 0 {
		return out
	}
	return b.String()
}
