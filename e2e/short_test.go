//go:build unix

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Under -short, the suite installs nothing: the tests that need Chromium
// or the TypeScript MCP SDK, when they are missing, are skipped instead of
// installing them (with apt and npm).
func TestShortInstallsNothing(t *testing.T) {
	// A PATH with a node and an npm that only say they ran, and no
	// Chromium and no sh (which the installing path would need).
	bin := t.TempDir()
	marker := filepath.Join(t.TempDir(), "npm-ran")
	for name, script := range map[string]string{
		"node": "#!/bin/false\n",
		"npm":  "#!/usr/bin/env -S touch " + marker + "\n",
	} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	t.Setenv("CHROMIUM", "")

	if got := skipReason(t, func(tb testing.TB) { chromiumPath(tb, false) }); !strings.Contains(got, "-short installs nothing") {
		t.Errorf("browser tests: skip reason %q, want one that names -short", got)
	}
	if got := skipReason(t, func(tb testing.TB) { nodeSDK(tb, t.TempDir(), false) }); !strings.Contains(got, "-short installs nothing") {
		t.Errorf("Node client test: skip reason %q, want one that names -short", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("npm ran")
	}
}

// skipRecorder is a testing.TB whose Skip is recorded rather than
// reported, to test what skips.
type skipRecorder struct {
	testing.TB
	reason string
}

func (r *skipRecorder) Helper() {}

func (r *skipRecorder) Skip(args ...any) {
	r.reason = fmt.Sprint(args...)
	runtime.Goexit()
}

// skipReason runs f and returns why it skipped ("" when it did not).
func skipReason(t *testing.T, f func(testing.TB)) string {
	r := &skipRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.reason
}
