package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// The libraries the design names do their jobs in the program itself, not
// only in its tests: the built binary links each of them. (A module that
// only tests import is not in the binary's build information.)
func TestBinaryLinksTheLibraries(t *testing.T) {
	out, err := exec.Command("go", "version", "-m", askuserBin).CombinedOutput()
	if err != nil {
		t.Fatalf("go version -m: %v\n%s", err, out)
	}
	linked := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		// "\tdep\tPATH\tVERSION\tSUM", or "=>" lines for replacements.
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "dep" {
			linked[f[1]] = true
		}
	}
	for _, mod := range []string{
		"github.com/santhosh-tekuri/jsonschema/v5", // validates every question document
		"github.com/spf13/cobra",                   // the commands and flags
		"github.com/AlecAivazis/survey/v2",         // the terminal UI
		"github.com/mattn/go-isatty",               // which way of asking fits
		"github.com/modelcontextprotocol/go-sdk",   // askuser mcp
	} {
		if !linked[mod] {
			t.Errorf("the binary does not link %s; go version -m says:\n%s", mod, out)
		}
	}
}
