//go:build heavy

// Package agents runs the real agent CLIs (Claude Code, Codex, Gemini CLI,
// OpenCode, Qwen Code, Copilot CLI, Kilo Code), at the versions
// package-lock.json pins, against scripted mock model APIs on 127.0.0.1.
// Each mock asks for one askuser call, by the CLI's shell tool or by
// askuser's MCP tool; the CLIs run non-interactively, and in their
// interactive sessions too, in tmux; the person answers where the
// questions show (askuser inbox, in a pseudo-terminal or in tmux, or the
// CLI's own form); the test checks the exact tool result the model
// received. It reads the set-up snippets from docs/setup.md, and -update writes
// the matrix of its results to docs/reach.md; without -update, the suite
// fails where docs/reach.md says other than its runs measured.
//
// The CLIs are about two gigabytes from npm, installed once per lock file
// in the suite's cache, so the suite only builds with the heavy tag:
// go test -tags heavy -timeout 30m ./e2e/agents
package agents

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// askuserBin is the askuser program under test: $ASKUSER_BIN when set,
// else built from this tree.
var askuserBin string

// binDir holds askuser alone, so that PATH finds it as the snippets say.
var binDir string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "askuser-agents-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = filepath.Join(dir, "bin")
	if snippets, err = readSnippets(readme); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// The interactive sessions run in tmux, as a person's terminal.
	if _, err := exec.LookPath("tmux"); err != nil {
		fmt.Fprintln(os.Stderr, "the interactive sessions run in tmux, which is not installed (sh .ci/install-tmux)")
		return 1
	}
	if cacheDir, err = installCLIs(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if askuserBin, err = installAskuser(binDir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := linkCLIs(binDir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	code := m.Run()
	if code != 0 {
		return code
	}
	check := checkReach
	if *update {
		check = writeReach
	}
	if err := check(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// clis are the programs of the installed packages, by the names people
// type, relative to the suite's cache.
var clis = map[string]string{
	"auggie":   "node_modules/.bin/auggie",
	"claude":   "node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude",
	"codex":    "node_modules/.bin/codex",
	"copilot":  "node_modules/.bin/copilot",
	"gemini":   "node_modules/.bin/gemini",
	"kilo":     "node_modules/.bin/kilo",
	"opencode": "node_modules/.bin/opencode",
	"qwen":     "node_modules/.bin/qwen",
}

// cacheDir is the suite's cache: the CLIs installed from the lock file,
// kept across runs and clones in the user's cache directory, one
// directory per lock file.
var cacheDir string

// linkCLIs puts the CLIs on PATH beside askuser, as a person's are.
func linkCLIs(dir string) error {
	for name, target := range clis {
		if err := os.Symlink(filepath.Join(cacheDir, target), filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// installCLIs installs the pinned CLIs at the versions of the lock file
// in the suite's cache, unless they are there already; it returns the
// cache's directory. It is npm install --no-save rather than npm ci: the
// lock holds the platform packages the registry served when it was
// written (the CLIs ship one per platform as optional dependencies), and
// npm ci refuses a lock without the others.
func installCLIs() (string, error) {
	sum := sha256.New()
	var files [][]byte
	for _, name := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(name)
		if err != nil {
			return "", err
		}
		sum.Write(b)
		files = append(files, b)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("a cache for the agent CLIs: %w", err)
	}
	dir := filepath.Join(base, "askuser", "e2e-agents", hex.EncodeToString(sum.Sum(nil))[:16])
	// One install at a time: two runs of the suite side by side, each
	// running npm in the same directory, left packages half unpacked
	// (Gemini CLI without its policies) that both then took as installed.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("lock the agent CLIs' cache: %w", err)
	}
	done := filepath.Join(dir, "installed")
	if _, err := os.Stat(done); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for i, name := range []string{"package.json", "package-lock.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), files[i], 0o644); err != nil {
			return "", err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install in %s: %v\n%s", dir, err, out)
	}
	// Copilot CLI unpacks itself into its cache the first time it runs:
	// once here, rather than in two runs side by side.
	cmd = exec.CommandContext(ctx, filepath.Join(dir, clis["copilot"]), "--version")
	cmd.Env = append(os.Environ(), "COPILOT_SEA_EXTRACT_ONLY=1", copilotCache(dir))
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("unpack Copilot CLI: %v\n%s", err, out)
	}
	return dir, os.WriteFile(done, nil, 0o644)
}

// installAskuser puts askuser in dir: a copy of $ASKUSER_BIN, or a build
// of this tree.
func installAskuser(dir string) (string, error) {
	bin := filepath.Join(dir, "askuser")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if from := os.Getenv("ASKUSER_BIN"); from != "" {
		b, err := os.ReadFile(from)
		if err != nil {
			return "", fmt.Errorf("ASKUSER_BIN: %w", err)
		}
		return bin, os.WriteFile(bin, b, 0o755)
	}
	args := []string{"build", "-o", bin}
	// The commit names the build in docs/reach.md; GOFLAGS may turn off
	// the stamp that go build would make.
	if head, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output(); err == nil {
		args = append(args, "-ldflags", "-X main.commit="+strings.TrimSpace(string(head)))
	}
	cmd := exec.Command("go", append(args, "github.com/askuser/askuser")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build askuser: %v\n%s", err, out)
	}
	return bin, nil
}
