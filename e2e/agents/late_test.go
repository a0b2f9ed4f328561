//go:build heavy

package agents

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// A person may answer long after the question came. Each CLI's MCP route,
// set up as README says, with the person answering only once the CLI's own
// time limit for a call has passed: the model still gets the answer.

// late holds what each CLI's case showed, by the CLI's name, for
// docs/reach.md.
var late sync.Map

// lateCase is one CLI's run of that kind.
type lateCase struct {
	c     cli
	after time.Duration // from the call to the person's answer
	// limit says what the CLI's time limit is, and how the run gets past
	// it, for docs/reach.md.
	limit string
	// tweak lowers a limit that is a setting, for a short run.
	tweak func(t *testing.T, r *runCtx)
	// again: the CLI ends the call at its limit whatever comes, and the
	// model calls again with the same questions, as askuser's description
	// tells it to, until it gets the answer.
	again bool

	mk    *mock
	addr  string // the inbox's
	x     *tmux
	cmd   *exec.Cmd
	out   bytes.Buffer
	ended chan struct{}
}

// lateCases are the CLIs' runs, in the matrix's order.
func lateCases() []*lateCase {
	lower := func(ms int) func(*testing.T, *runCtx) {
		return func(t *testing.T, r *runCtx) { setMCPTimeout(t, r, ms) }
	}
	return []*lateCase{
		{c: claude, after: 45 * time.Second, limit: "30 minutes without progress (`CLAUDE_CODE_MCP_TOOL_IDLE_TIMEOUT`, lowered to 30 s for the run): askuser's progress every 20 s keeps the call",
			tweak: func(_ *testing.T, r *runCtx) { r.env = append(r.env, "CLAUDE_CODE_MCP_TOOL_IDLE_TIMEOUT=30000") }},
		{c: codex, after: 65 * time.Second, limit: "none met: the call waited"},
		{c: gemini, after: 15 * time.Second, again: true, tweak: lower(10000),
			limit: "the server's `timeout` (10 minutes by default; README's snippet sets a day; lowered to 10 s for the run), which progress does not move: past it, the model calls again with the same questions and gets the answer"},
		{c: opencode, after: 65 * time.Second, limit: "60 s without progress: askuser's progress every 20 s keeps the call"},
		{c: qwen, after: 15 * time.Second, again: true, tweak: lower(10000),
			limit: "as Gemini CLI's: the server's `timeout`, lowered to 10 s for the run; past it, the model calls again and gets the answer"},
		{c: copilot, after: 65 * time.Second, limit: "60 s without progress: askuser's progress every 20 s keeps the call"},
		{c: kilo, after: 65 * time.Second, limit: "60 s without progress, as OpenCode's: askuser's progress keeps the call"},
	}
}

// setMCPTimeout sets the timeout of askuser's entry in Gemini CLI's or
// Qwen Code's settings, in milliseconds.
func setMCPTimeout(t *testing.T, r *runCtx, ms int) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(r.home, ".*", "settings.json"))
	if len(files) != 1 {
		t.Fatalf("settings: %v", files)
	}
	var settings map[string]any
	b, err := os.ReadFile(files[0])
	if err != nil || json.Unmarshal(b, &settings) != nil {
		t.Fatalf("%s: %v", files[0], err)
	}
	settings["mcpServers"].(map[string]any)["askuser"].(map[string]any)["timeout"] = ms
	b, _ = json.Marshal(settings)
	writeFile(t, files[0], string(b))
}

// start starts the CLI by its MCP route, with the inbox in tmux.
func (l *lateCase) start(t *testing.T) {
	t.Helper()
	r := newRun(t, defaultMode, mcpPath)
	l.mk = scripted(t, l.c, r)
	if l.again {
		for range 3 {
			l.mk.then = append(l.mk.then, l.mk.call)
		}
		l.mk.done = func(text string) bool { return strings.Contains(text, answers) }
	}
	addr := filepath.Join(t.TempDir(), "inbox.sock")
	l.addr = addr
	r.env = append(baseEnv(r.home), "ASKUSER_INBOX="+addr)
	args := l.c.setup(t, r)
	if l.tweak != nil {
		l.tweak(t, r)
	}
	l.x = newTmux(t, &runCtx{env: append(interactiveEnv(r.home), "ASKUSER_INBOX="+addr)})
	l.x.start("inbox", t.TempDir(), askuserBin, "inbox")
	l.x.wait("inbox", "Waiting for questions at", 10*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	l.cmd = exec.CommandContext(ctx, filepath.Join(binDir, args[0]), args[1:]...)
	l.cmd.Dir, l.cmd.Env = r.dir, r.env
	l.cmd.Stdout, l.cmd.Stderr = &l.out, &l.out
	l.cmd.WaitDelay = 5 * time.Second
	if err := l.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", l.c.name, err)
	}
	l.ended = make(chan struct{})
	go func() { l.cmd.Wait(); close(l.ended) }()
}

// finish has the person answer in the inbox no sooner than l.after from
// the call, and checks what the model got.
func (l *lateCase) finish(t *testing.T) {
	t.Helper()
	describe := func() string {
		return fmt.Sprintf("results %+v\n\nCLI output:\n%s\ninbox:\n%s\nrequests:\n%s", l.mk.Results(), l.out.String(), l.x.screen("inbox"), l.mk.Requests())
	}
	for end := time.Now().Add(3 * time.Minute); !asks(l.x.screen("inbox")); time.Sleep(100 * time.Millisecond) {
		select {
		case <-l.ended:
			t.Fatalf("%s ended before its questions showed\n%s", l.c.name, describe())
		default:
		}
		if time.Now().After(end) {
			t.Fatalf("the questions never showed\n%s", describe())
		}
	}
	time.Sleep(time.Until(l.mk.Sent().Add(l.after)))
	if !asks(l.x.screen("inbox")) {
		t.Fatalf("the questions left the inbox before the person answered\n%s", describe())
	}
	l.x.send("inbox", "2")
	select {
	case <-l.ended:
	case <-time.After(3 * time.Minute):
		t.Fatalf("%s did not end\n%s", l.c.name, describe())
	}
	results := l.mk.Results()
	if len(results) == 0 || len(results) > 1 && !l.again {
		t.Fatalf("%d tool results\n%s", len(results), describe())
	}
	for _, r := range results[:len(results)-1] {
		if !strings.Contains(strings.ToLower(r.text), "timed out") {
			t.Errorf("a call ended with %q, want the CLI's time limit", r.text)
		}
	}
	last := results[len(results)-1]
	if got := l.c.normalize(last.text, l.addr); last.isError || got != l.c.mcpResult {
		t.Errorf("answered %s after the call, the model got (error %v):\n%s\nwant:\n%s\n\n%s", l.after, last.isError, got, l.c.mcpResult, describe())
	}
}

// TestPastTimeLimits runs every CLI's case at once, each in its own
// process, so that their waits overlap: the whole takes about the longest
// wait. Each person answers as late as the case says, the model gets the
// answer, and -update writes what each case showed to docs/reach.md.
func TestPastTimeLimits(t *testing.T) {
	t.Parallel()
	cases := lateCases()
	for _, l := range cases {
		l.start(t)
	}
	// The soonest answers first, while the later ones wait.
	slices.SortStableFunc(cases, func(a, b *lateCase) int { return cmp.Compare(a.after, b.after) })
	for _, l := range cases {
		t.Run(strings.ReplaceAll(l.c.name, " ", "_"), func(t *testing.T) {
			l.finish(t)
			if !t.Failed() {
				late.Store(l.c.name, fmt.Sprintf("✓ answered %.0f s after the call: %s", l.after.Seconds(), l.limit))
			}
		})
	}
}
