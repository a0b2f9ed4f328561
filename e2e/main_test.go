// Package e2e holds the suites that start the built askuser program and
// meet it as a person, a script or a browser would: in a pseudo-terminal,
// over real pipes, over HTTP and in headless Chromium, and many times over
// on generated questions. The golden tests of the command line are
// testscript scripts at the repository's root.
package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// askuserBin is the askuser program that TestMain built for the tests.
var askuserBin string

// raceBuild is set in a test binary built with -race, so that the program
// under test is built with it too (see race_test.go).
var raceBuild bool

// TestMain builds askuser once, with the go command on PATH, into a
// directory removed when the tests are done.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "askuser-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
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
