//go:build heavy

package agents

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "write the matrix of this run to docs/reach.md")

// reachDoc is the matrix the suite writes.
const reachDoc = "../../docs/reach.md"

// waiting is what askuser says on stderr while the inbox has its questions.
const waiting = "Waiting for an answer in the inbox (askuser inbox) at $INBOX…"

// The CLIs' own policies, where the model is told the truth by them or
// by askuser rather than reaching the person.
const (
	noShellTool = "no shell tool" // headless Gemini CLI leaves it out
	sandboxed   = "sandbox"       // Codex's sandbox refuses the inbox's socket
	redirection = "redirection"   // Gemini CLI's policy rules stop at a redirection
)

// policy is the CLI's own policy that keeps the model from the person in
// a cell, or "" where the person must be reached.
func policy(c cli, m mode, p path) string {
	switch {
	case (c.name == gemini.name || c.name == qwen.name) && m == defaultMode && p.shell():
		return noShellTool
	case c.name == gemini.name && p == stdinPath && m != interactiveMode:
		return redirection
	case c.name == codex.name && m == defaultMode && p.shell():
		return sandboxed
	}
	return ""
}

// cell is one run's place in the matrix.
type cell struct {
	text string
}

// reach holds the cell of each run of TestReach, by runKey, for
// docs/reach.md; a cell's text is "" until its run has ended.
var reach = struct {
	sync.Mutex
	cells map[string]cell
}{cells: map[string]cell{}}

// TestReach runs every CLI by every path in each of its modes (a fork only
// in its own cells: see ownCell), with the person answering where the
// questions show, and checks the exact tool result the model received.
// The runs wait on their CLIs more than they work, so they run side by
// side, as many as go test's -parallel (the number of cores); -update
// writes docs/reach.md once every test has ended (see writeReach).
func TestReach(t *testing.T) {
	results := reach.cells
	mu := &reach.Mutex
	for _, c := range runnable {
		for _, m := range modes {
			if c.modes[m] == "" {
				continue
			}
			for _, p := range paths {
				key := runKey(c, m, p)
				if _, dup := results[key]; dup || !c.ownCell(m, p) {
					continue
				}
				results[key] = cell{}
				t.Run(strings.ReplaceAll(key, " ", "_"), func(t *testing.T) {
					t.Parallel()
					got := cell{text: "✗ the run failed"}
					defer func() {
						mu.Lock()
						defer mu.Unlock()
						results[key] = got
					}()
					got = checkRun(t, c, m, p)
				})
			}
		}
	}
}

// runKey names the run that fills a cell of the matrix. README's set-up
// adds to the default only on the shell routes, so its MCP cell is the
// default's run.
func runKey(c cli, m mode, p path) string {
	if m == readmeMode && p == mcpPath {
		m = defaultMode
	}
	return c.name + "/" + string(m) + "/" + string(p)
}

// checkRun runs one cell and checks it; it returns the matrix's text.
func checkRun(t *testing.T, c cli, m mode, p path) cell {
	o := runCLI(t, c, m, p)
	for _, n := range c.noise {
		if strings.Contains(o.output, n) {
			t.Errorf("%s found fault with askuser's tool (%q)\n%s", c.name, n, o.describe())
		}
	}
	if p == mcpPath && !o.mock.Sent().IsZero() {
		checkPatterns(t, c, o.mock.Schema())
	}
	if q := c.questionTool; q != "" && m != interactiveMode && o.mock.Offers(q) {
		t.Errorf("%s offered its own %s in a run without a person\n%s", c.name, q, o.describe())
	}
	if pol := policy(c, m, p); pol != "" {
		return checkPolicy(t, c, pol, o)
	}
	text := fmt.Sprintf("✗ %s", firstLine(o.result))
	if !o.got {
		text = "✗ no tool result"
	}
	if !o.asked {
		t.Errorf("the questions never showed %s\n%s", o.at, o.describe())
		return cell{text: text}
	}
	if s := c.session; m == interactiveMode && o.at != s.at[p] {
		t.Errorf("the questions showed %s, want %s\n%s", o.at, s.at[p], o.describe())
		return cell{text: text}
	}
	want := c.shellResult
	if p == mcpPath {
		want = c.mcpResult
	}
	if s := c.session; m == interactiveMode && s.results[p] != "" {
		want = s.results[p]
	}
	got := c.normalize(o.result, o.addr)
	if c.linesInAnyOrder {
		got, want = sortLines(got), sortLines(want)
	}
	if o.isError || got != want {
		t.Errorf("the model got (error %v):\n%s\nwant:\n%s\n\n%s", o.isError, got, want, o.describe())
		return cell{text: text}
	}
	t.Logf("the questions were on screen %s after the call", o.shown)
	return cell{text: fmt.Sprintf("✓ %s, on screen %.1f s after the call", o.at, o.shown.Seconds())}
}

// checkPolicy checks a cell where the CLI's own policy keeps the model
// from the person: the model must be told the truth.
func checkPolicy(t *testing.T, c cli, pol string, o outcome) cell {
	t.Helper()
	switch pol {
	case noShellTool:
		if !o.mock.Sent().IsZero() {
			t.Fatalf("%s offered its shell tool, which headless runs leave out\n%s", c.name, o.describe())
		}
		return cell{text: "– no shell tool without `--approval-mode yolo` or a policy (its choice)"}
	case sandboxed:
		for _, want := range []string{"sandbox", "askuser mcp", "sandbox_workspace_write.network_access"} {
			if !strings.Contains(o.result, want) {
				t.Errorf("the model was not told %q; it got:\n%s", want, o.describe())
			}
		}
		if o.asked || !o.got {
			t.Errorf("in the sandbox, the questions showed %v, a result came %v", o.asked, o.got)
		}
		return cell{text: "✗ the sandbox refuses the inbox; askuser's error names it and the ways through"}
	case redirection:
		const want = `Tool execution for "Shell" requires user confirmation, which is not supported in non-interactive mode.`
		if !o.isError || o.result != want || o.asked {
			t.Errorf("the model got (error %v):\n%s\nwant the error:\n%s\n\n%s", o.isError, o.result, want, o.describe())
		}
		return cell{text: "– a policy rule does not cover `<`, and headless runs cannot confirm (its choice; `askuser -f questions.json` runs)"}
	}
	t.Fatalf("no check for the policy %q", pol)
	return cell{}
}

// checkPatterns checks that each pattern of askuser's tool that reached
// the model is one askuser advertises: a CLI may leave a keyword out
// (Codex does), but one that rewrites characters in a schema (Claude Code
// turns some spaces and invisible characters into plain spaces) can leave
// a regular expression the model's API refuses.
func checkPatterns(t *testing.T, c cli, offered json.RawMessage) {
	t.Helper()
	out, err := exec.Command(askuserBin, "tool", "--format", "mcp").Output()
	if err != nil {
		t.Fatalf("askuser tool --format mcp: %v", err)
	}
	var tool struct{ InputSchema any }
	var got any
	if err := json.Unmarshal(out, &tool); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(offered, &got); err != nil {
		t.Fatalf("%s offered the tool with the schema %q: %v", c.name, offered, err)
	}
	want := patterns(tool.InputSchema)
	for _, p := range patterns(got) {
		if !slices.Contains(want, p) {
			t.Errorf("%s changed a pattern of the schema on the way to the model:\n%q\nwant one of askuser tool --format mcp's:\n%q", c.name, p, want)
		}
	}
}

// patterns are the values of every "pattern" keyword in a schema.
func patterns(schema any) []string {
	var found []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, sub := range v {
				if s, ok := sub.(string); ok && k == "pattern" {
					found = append(found, s)
				}
				walk(sub)
			}
		case []any:
			for _, sub := range v {
				walk(sub)
			}
		}
	}
	walk(schema)
	return found
}

// sortLines puts the lines of s in order.
func sortLines(s string) string {
	lines := strings.Split(s, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(line) > 100 {
		line = line[:100] + "…"
	}
	return strings.ReplaceAll(line, "|", `\|`)
}

// normalize puts placeholders where a tool result differs from run to
// run: the inbox's address, and what the CLI's varying patterns match.
func (c cli) normalize(result, addr string) string {
	s := strings.ReplaceAll(strings.TrimSpace(result), addr, "$INBOX")
	for re, with := range c.varying {
		s = regexp.MustCompile(re).ReplaceAllString(s, with)
	}
	return s
}

// version is what the CLI's --version says, and the npm package's version
// when it differs (the Agent SDK bundles Claude Code).
func version(c cli) string {
	v, _ := versions.LoadOrStore(c.name, sync.OnceValue(func() string {
		out, err := exec.Command(filepath.Join(binDir, c.command), "--version").Output()
		v, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		if err != nil || v == "" {
			v = "unknown"
		}
		if p := packageVersion(c.pkg); !strings.Contains(v, p) {
			v += " (" + c.pkg + " " + p + ")"
		}
		return "`" + v + "`"
	}))
	return v.(func() string)()
}

// versions holds version's answer by the CLI's name: the page names each
// CLI in several rows, and some take a second to say.
var versions sync.Map

// askuserVersion is what askuser --version says.
func askuserVersion() string {
	out, err := exec.Command(askuserBin, "--version").Output()
	if err != nil {
		return "askuser (version unknown)"
	}
	return strings.TrimSpace(string(out))
}

// unmeasured stands in docs/reach.md for what this run did not measure
// (a test left out by -run).
const unmeasured = "\x00"

// writeReach writes docs/reach.md from the whole suite's run: the
// matrix of TestReach, how late the person answered in
// TestPastTimeLimits, and when the agent tools' own questions showed.
func writeReach() error {
	page := matrix()
	if strings.Contains(page, unmeasured) {
		return fmt.Errorf("-update writes docs/reach.md from the whole suite, and part of it did not run: leave out -run")
	}
	return os.WriteFile(reachDoc, []byte(page), 0o644)
}

// checkReach fails when docs/reach.md says other than what this run
// measured: each line the run measured in full must be the page's, but for
// the times things took to show, which vary with the machine's load, and
// the date and build the page was written with.
func checkReach() error {
	b, err := os.ReadFile(reachDoc)
	if err != nil {
		return err
	}
	got, want := strings.Split(string(b), "\n"), strings.Split(matrix(), "\n")
	if len(got) != len(want) {
		return fmt.Errorf("%s has %d lines, and this run's page %d: write it with go test -tags heavy -timeout 30m ./e2e/agents -update", reachDoc, len(got), len(want))
	}
	var differ []string
	for i, w := range want {
		if !strings.Contains(w, unmeasured) && varies(got[i]) != varies(w) {
			differ = append(differ, fmt.Sprintf("line %d:\n  the page: %s\n  this run: %s", i+1, got[i], w))
		}
	}
	if len(differ) > 0 {
		return fmt.Errorf("%s says other than this run, which it should say (go test -tags heavy -timeout 30m ./e2e/agents -update writes it):\n%s", reachDoc, strings.Join(differ, "\n"))
	}
	return nil
}

// varying is what docs/reach.md may say differently from run to run.
var varying = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`on screen \d+\.\d s`), "on screen … s"},
	{regexp.MustCompile(`\| \d+\.\d s \|`), "| … s |"},
	{regexp.MustCompile("^\\d{4}-\\d\\d-\\d\\d, with `[^`]*`\\.$"), "…, with …."},
}

// varies puts placeholders in a line of docs/reach.md where it may differ
// from run to run.
func varies(line string) string {
	for _, v := range varying {
		line = v.re.ReplaceAllString(line, v.with)
	}
	return line
}

// matrix is docs/reach.md for the results of this run, with unmeasured
// where they are missing.
func matrix() string {
	reach.Lock()
	defer reach.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, `# Reaching the person from each agent tool

Written by %[1]sgo test -tags heavy ./e2e/agents -update%[1]s from its last run, on
%[2]s, with %[1]s%[3]s%[1]s.

Each CLI ran against a scripted model on 127.0.0.1 that made one call: its shell tool running
%[1]saskuser '<json>'%[1]s or %[1]saskuser < questions.json%[1]s, or askuser's MCP tool from %[1]saskuser mcp%[1]s.
The person answered where the questions showed (in %[1]saskuser inbox%[1]s, in the CLI's own form, or
in askuser's terminal UI inside the CLI's screen), with keys typed into that terminal, and the
suite checked the exact tool result the model got. The time is from the call leaving the model
(or from the person's approval of it, where the CLI asks for one) to the questions on screen: it
includes the CLI's own work before it runs the command or the MCP call, and the load of the
machine.

"default" is the CLI's own non-interactive run with askuser set up as
[the set-up page](setup.md) says; "README" adds what README recommends for
that route (nothing, for MCP: that cell is the default run's). "interactive" is the CLI's own session in a terminal (tmux), set up as README says
for each route but for %[1]sASKUSER_UI=inbox%[1]s, so that askuser goes by what the CLI gives a command;
the person approves what the CLI asks them to approve. Qwen Code and Copilot CLI have question
tools of their own (%[1]sask_user_question%[1]s, %[1]sask_user%[1]s), which their non-interactive runs leave out, as
the suite checks: there, askuser is how the model reaches the person. Kilo Code is OpenCode's
fork, with the same tools and plugin, and its configuration's shape under its own names: the suite
runs it by the MCP server of its own configuration, and its cells "as OpenCode's" are OpenCode's
runs. The agent tools' own questions, and their approvals, are in the sections after the matrix.

| tool | mode | shell: %[1]saskuser '<json>'%[1]s | shell: %[1]saskuser < questions.json%[1]s | MCP: %[1]saskuser mcp%[1]s |
|---|---|---|---|---|
`, "`", time.Now().UTC().Format("2006-01-02"), askuserVersion())
	for _, c := range runnable {
		for _, m := range modes {
			if c.modes[m] == "" {
				continue
			}
			fmt.Fprintf(&b, "| %s %s | %s: %s |", c.name, version(c), m, c.modes[m])
			for _, p := range paths {
				text := reach.cells[runKey(c, m, p)].text
				if !c.ownCell(m, p) {
					text = asOriginal(*c.forkOf, m, p)
				}
				if text == "" {
					text = unmeasured
				}
				fmt.Fprintf(&b, " %s |", text)
			}
			b.WriteString("\n")
		}
	}
	for _, n := range notRunnable {
		fmt.Fprintf(&b, "| %s %s | – %s | – | – | – |\n", n.name, n.version(), n.why)
	}
	b.WriteString(lateText)
	for _, c := range runnable {
		text, ok := late.Load(c.name)
		if !ok {
			text = unmeasured
		}
		fmt.Fprintf(&b, "| %s %s | %s |\n", c.name, version(c), text)
	}
	b.WriteString(ownQuestionsText)
	for _, o := range ownQuestions {
		shown := "–"
		if d, ok := ownShown.Load(o.tool); ok {
			shown = fmt.Sprintf("%.1f s", d.(time.Duration).Seconds())
		} else if o.timed {
			shown = unmeasured
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", o.tool, o.offers, o.askuser, shown)
	}
	return b.String() + approvals
}

// asOriginal is a fork's cell that its original's run of m and p stands
// for: the mark of the original's cell and its name, or "" when that run
// did not end. The caller holds reach.
func asOriginal(original cli, m mode, p path) string {
	text := reach.cells[runKey(original, m, p)].text
	if text == "" {
		return ""
	}
	mark, _, _ := strings.Cut(text, " ")
	return mark + " as " + original.name + "'s"
}

// runnable are the CLIs the suite runs, in the matrix's order.
var runnable = []cli{claude, codex, gemini, opencode, qwen, copilot, kilo}
