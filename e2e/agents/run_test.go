//go:build heavy

package agents

import (
	"bytes"
	"context"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// path is how the model reaches askuser.
type path string

const (
	shellPath path = "shell" // the CLI's shell tool runs askuser '<json>'
	stdinPath path = "stdin" // the CLI's shell tool runs askuser < questions.json
	mcpPath   path = "MCP"   // askuser mcp is the CLI's MCP server
)

// paths are the matrix's columns.
var paths = []path{shellPath, stdinPath, mcpPath}

// shell reports whether the path goes through the CLI's shell tool.
func (p path) shell() bool { return p != mcpPath }

// mode is how the CLI is set up for a run.
type mode string

const (
	defaultMode mode = "default" // the CLI's own defaults, run non-interactively
	readmeMode  mode = "README"  // the set-up README.md recommends
)

// cli is one agent CLI as the suite runs it.
type cli struct {
	name    string
	command string          // its program's name
	pkg     string          // the npm package, for its version
	modes   map[mode]string // how each mode runs it, for the matrix
	api     func(*mock) http.Handler
	// shellCall is the call of the CLI's shell tool that runs command.
	shellCall func(command string) toolCall
	// mcpTool is askuser's MCP tool as the CLI names it to the model, and
	// mcpExtra what the model adds to its arguments for the CLI.
	mcpTool  string
	mcpExtra map[string]any
	// deferred: the CLI offers MCP tools only through tool_search and
	// the bridge (Qwen Code).
	deferred bool
	// setup writes the CLI's configuration for a run into r.home (and
	// r.dir) and returns its command line.
	setup func(t *testing.T, r *runCtx) []string
	// shellResult and mcpResult are the tool results the model must get
	// when the person answered, with $INBOX for the inbox's address;
	// varying replaces what differs from run to run.
	shellResult, mcpResult string
	varying                map[string]string
	// linesInAnyOrder: the CLI reads the command's stdout and stderr apart
	// and joins them as they arrive, so their lines come in either order.
	linesInAnyOrder bool
	// noise is what the CLI prints when it finds fault with askuser's
	// tool, which a run must not show.
	noise []string
	// questionTool is the CLI's own tool for asking the person, which its
	// non-interactive runs leave out; "" for none checked.
	questionTool string
	// session is how the CLI's interactive session goes for the person;
	// nil for a CLI the suite runs only non-interactively.
	session *session
	// forkOf is the CLI this one is a fork of, with the same tools,
	// plugin and configuration under its own names; nil for none. The
	// suite runs a fork only where it is its own (see ownCell), and
	// docs/reach.md gives the original's runs for its other cells.
	forkOf *cli
}

// ownCell reports whether the matrix's cell of m and p is the CLI's own
// run: every cell of a CLI but a fork, whose own is the MCP server of its
// own configuration, in its default run (README's MCP cell is that run).
// The shell routes and the interactive session are the original's code
// under the fork's name, and each run of those costs half a minute or
// more of a two-core machine.
func (c cli) ownCell(m mode, p path) bool {
	return c.forkOf == nil || p == mcpPath && m != interactiveMode
}

// readmeShell reports whether the run's shell route takes README's
// settings for it: in README's mode, and in the interactive session.
func (r *runCtx) readmeShell() bool {
	return r.path.shell() && (r.mode == readmeMode || r.mode == interactiveMode)
}

// runCtx is one run of a CLI: its own home, working directory, model API
// and inbox.
type runCtx struct {
	mode mode
	path path
	home string // HOME, with the CLI's configuration
	dir  string // the working directory, a project of one file
	api  string // the mock model API's base address
	env  []string
}

// prompt is the task given to each CLI; the mock ignores it.
const prompt = "Ask the person which database to use, with askuser."

// baseEnv is the environment every run starts from: nothing of the
// machine's own but PATH (askuser first), and no network beyond the mock.
func baseEnv(home string) []string {
	return []string{
		"HOME=" + home,
		"PATH=" + binDir + string(os.PathListSeparator) + os.Getenv("PATH"),
		"LANG=C.UTF-8",
		"TERM=dumb",
		"SHELL=/bin/bash",
		"NO_COLOR=1",
		"TMPDIR=" + filepath.Join(home, "tmp"),
	}
}

// mcpArgs are the arguments of the MCP call.
func mcpArgs() map[string]any {
	var v map[string]any
	mustUnmarshal(questions, &v)
	return v
}

// outcome is what one run showed.
type outcome struct {
	result  string        // the tool result the model received
	isError bool          // the CLI marked it as an error
	got     bool          // a tool result came at all
	shown   time.Duration // from the tool call to the questions on screen
	asked   bool          // the questions showed where the person answers
	output  string        // the CLI's stdout and stderr, for failures
	addr    string        // the inbox's address
	at      place         // where the questions showed
	mock    *mock
}

// runCLI runs c once in mode m by path p, with the person at an inbox.
func runCLI(t *testing.T, c cli, m mode, p path) outcome {
	t.Helper()
	if m == interactiveMode {
		return runInteractive(t, c, p)
	}
	r := newRun(t, m, p)
	mk := scripted(t, c, r)
	in := startInbox(t, baseEnv(t.TempDir()))
	r.env = append(baseEnv(r.home), "ASKUSER_INBOX="+in.addr)
	if m == readmeMode && p.shell() {
		r.env = append(r.env, exports(t, "shell")...)
	}
	args := c.setup(t, r)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, args[0]), args[1:]...)
	cmd.Dir, cmd.Env = r.dir, r.env
	var out bytes.Buffer // stdin stays /dev/null, as agents are run
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", c.name, err)
	}
	ended := make(chan struct{})
	go func() { cmd.Wait(); close(ended) }()
	o := outcome{mock: mk, addr: in.addr, at: atInbox}
	o.shown, o.asked = in.answer(mk, ended)
	<-ended
	o.output = out.String()
	o.result, o.isError, o.got = mk.Result()
	return o
}

// scripted starts the mock model that makes the run's one call, and
// writes the file the call reads.
func scripted(t *testing.T, c cli, r *runCtx) *mock {
	t.Helper()
	call := toolCall{Name: c.mcpTool, Args: mcpArgs()}
	maps.Copy(call.Args, c.mcpExtra)
	if c.deferred {
		call = toolCall{Name: bridge, Args: map[string]any{"name": call.Name, "arguments": call.Args}}
	}
	switch r.path {
	case shellPath:
		call = c.shellCall("askuser '" + questions + "'")
	case stdinPath:
		writeFile(t, filepath.Join(r.dir, "questions.json"), questions+"\n")
		call = c.shellCall("askuser < questions.json")
	}
	mk := newMock(t, call, c.api)
	r.api = mk.URL()
	return mk
}

// newRun makes a run's home and its project, a directory of one file.
func newRun(t *testing.T, m mode, p path) *runCtx {
	t.Helper()
	home := t.TempDir()
	r := &runCtx{mode: m, path: p, home: home, dir: filepath.Join(home, "project")}
	for _, d := range []string{r.dir, filepath.Join(home, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(r.dir, "README.md"), "# project\n")
	// Login shells (Codex runs bash -lc) set PATH again from the system's
	// profile, and then from the person's, which puts askuser on it.
	writeFile(t, filepath.Join(home, ".profile"), "export PATH=\""+binDir+":$PATH\"\n")
	return r
}

// describe is what a failing run reports.
func (o outcome) describe() string {
	return "tool result (error " + boolText(o.isError) + "):\n" + o.result +
		"\n\nCLI output:\n" + o.output + "\nrequests to the model API:\n" + o.mock.Requests()
}

func boolText(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// shell runs a set-up snippet with the run's environment.
func shell(t *testing.T, r *runCtx, script string) {
	t.Helper()
	cmd := exec.Command("sh", "-ec", script)
	cmd.Dir, cmd.Env = r.dir, r.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}
