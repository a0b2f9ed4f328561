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
	case c.name == gemini.name && m == defaultMode && p.shell():
		return noShellTool
	case c.name == gemini.name && p == stdinPath:
		return redirection
	case c.name == codex.name && m == defaultMode && p.shell():
		return sandboxed
	}
	return ""
}

// cell is one run's place in the matrix.
type cell struct {
	ok   bool
	text string
}

// TestReach runs every CLI by both paths in both modes, one at a time,
// with the person answering in the inbox, and checks the exact tool
// result the model received.
func TestReach(t *testing.T) {
	results := map[string]cell{}
	for _, c := range []cli{claude, codex, gemini, opencode} {
		for _, m := range []mode{defaultMode, readmeMode} {
			for _, p := range paths {
				key := c.name + "/" + string(m) + "/" + string(p)
				var got cell
				ok := t.Run(strings.ReplaceAll(key, " ", "_"), func(t *testing.T) {
					got = checkRun(t, c, m, p)
				})
				if !ok && got.text == "" {
					got.text = "✗ the run failed"
				}
				got.ok = ok
				results[key] = got
			}
		}
	}
	if *update {
		for key, got := range results {
			if got.text == "" {
				t.Fatalf("-update writes the whole matrix, and %s did not run: leave out -run, or give -run TestReach", key)
			}
		}
		if err := os.WriteFile(reachDoc, []byte(matrix(results)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
	if pol := policy(c, m, p); pol != "" {
		return checkPolicy(t, c, pol, o)
	}
	text := fmt.Sprintf("✗ %s", firstLine(o.result))
	if !o.got {
		text = "✗ no tool result"
	}
	if !o.inInbox {
		t.Errorf("the questions never showed in the inbox\n%s", o.describe())
		return cell{text: text}
	}
	want := c.shellResult
	if p == mcpPath {
		want = c.mcpResult
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
	return cell{text: fmt.Sprintf("✓ via the inbox, on screen %.1f s after the call", o.shown.Seconds())}
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
		if o.inInbox || !o.got {
			t.Errorf("in the sandbox, the questions showed %v, a result came %v", o.inInbox, o.got)
		}
		return cell{text: "✗ the sandbox refuses the inbox; askuser's error names it and the ways through"}
	case redirection:
		const want = `Tool execution for "Shell" requires user confirmation, which is not supported in non-interactive mode.`
		if !o.isError || o.result != want || o.inInbox {
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
	out, err := exec.Command(filepath.Join(binDir, c.command), "--version").Output()
	v, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	if err != nil || v == "" {
		v = "unknown"
	}
	var p struct{ Version string }
	b, err := os.ReadFile(filepath.Join("node_modules", c.pkg, "package.json"))
	if err == nil && json.Unmarshal(b, &p) == nil && !strings.Contains(v, p.Version) {
		v += " (" + c.pkg + " " + p.Version + ")"
	}
	return "`" + v + "`"
}

// askuserVersion is what askuser --version says.
func askuserVersion() string {
	out, err := exec.Command(askuserBin, "--version").Output()
	if err != nil {
		return "askuser (version unknown)"
	}
	return strings.TrimSpace(string(out))
}

// matrix is docs/reach.md for the results of a run.
func matrix(results map[string]cell) string {
	var b strings.Builder
	fmt.Fprintf(&b, `# Reaching the person from each agent tool

Written by %[1]sgo test -tags heavy ./e2e/agents -run TestReach -update%[1]s from its last run, on
%[2]s, with %[1]s%[3]s%[1]s.

Each CLI ran against a scripted model on 127.0.0.1 that made one call: its shell tool running
%[1]saskuser '<json>'%[1]s or %[1]saskuser < questions.json%[1]s, or askuser's MCP tool from %[1]saskuser mcp%[1]s.
The person answered in %[1]saskuser inbox%[1]s, and the suite checked the exact tool result the model
got. The time is from the call leaving the model to the questions on the inbox's screen: it
includes the CLI's own work before it runs the command or the MCP call, and the load of the
machine.

"default" is the CLI's own non-interactive run with askuser set up as
[README](../README.md#set-up-your-agent-tool) says; "README" adds what README recommends for
that route.

| tool | mode | shell: %[1]saskuser '<json>'%[1]s | shell: %[1]saskuser < questions.json%[1]s | MCP: %[1]saskuser mcp%[1]s |
|---|---|---|---|---|
`, "`", time.Now().UTC().Format("2006-01-02"), askuserVersion())
	for _, c := range []cli{claude, codex, gemini, opencode} {
		for _, m := range []mode{defaultMode, readmeMode} {
			key := c.name + "/" + string(m) + "/"
			fmt.Fprintf(&b, "| %s %s | %s: %s |", c.name, version(c), m, c.modes[m])
			for _, p := range paths {
				fmt.Fprintf(&b, " %s |", results[key+string(p)].text)
			}
			b.WriteString("\n")
		}
	}
	return b.String() + approvals
}
