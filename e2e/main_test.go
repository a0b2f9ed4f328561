// Package e2e holds the suites that start the built askuser program and
// meet it as a person, a script or a browser would: in a pseudo-terminal,
// over real pipes, over HTTP and in headless Chromium, and many times over
// on generated questions. The golden tests of the command line are
// testscript scripts at the repository's root; a suite here runs them
// against the Windows build, under Wine.
package e2e

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// askuserBin is the askuser program that TestMain built for the tests.
var askuserBin string

// raceBuild is set in a test binary built with -race, so that the program
// under test is built with it too (see race_test.go).
var raceBuild bool

// recordProgramFiles stats every file the program is built from, once per
// run. The program is built apart from this test binary, so go test, which
// keys a cached result on the test binary and on the files its tests
// touched, would otherwise reuse the results of a run before the program
// changed.
var recordProgramFiles = sync.OnceFunc(func() {
	_ = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && path != "..":
			switch d.Name() {
			case ".git", ".ci", "docs", "e2e", "scripts", "testdata":
				return filepath.SkipDir
			}
		case !d.IsDir() && isProgramFile(d.Name()):
			_, _ = os.Stat(path)
		}
		return nil
	})
})

// isProgramFile reports whether a file of this name can go into the
// program: Go code other than tests, the module files, and what is
// embedded.
func isProgramFile(name string) bool {
	if strings.HasSuffix(name, "_test.go") {
		return false
	}
	for _, ext := range []string{".go", ".mod", ".sum", ".json", ".tmpl", ".html", ".css", ".js"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// TestMain builds askuser once, with the go command on PATH, into a
// directory removed when the tests are done.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "askuser-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The askuser runs of the tests never reach an inbox of the person
	// running them: the tests of the inbox give their own address.
	os.Setenv("ASKUSER_INBOX", filepath.Join(dir, "no-inbox.sock"))
	// Nor do their inboxes keep their history in the person's.
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	askuserBin, err = buildAskuser(dir)
	code := 1
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildAskuser builds the askuser program into dir. The packages come from
// the build cache that go test has just filled.
func buildAskuser(dir string) (string, error) {
	bin := filepath.Join(dir, "askuser")
	args := []string{"build", "-o", bin}
	if raceBuild {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, "github.com/askuser/askuser")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build askuser: %v\n%s", err, out)
	}
	return bin, nil
}
