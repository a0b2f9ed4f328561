package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"text/template"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/askuser/askuser/cmd"
	"github.com/askuser/askuser/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/scripts from the actual output")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"askuser": main})
}

func TestScripts(t *testing.T) {
	schemaFile, err := filepath.Abs("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	examples, err := filepath.Abs("docs/examples")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/scripts",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			// The scripts run without a terminal and without colour, whatever
			// the environment of the test run.
			env.Setenv("NO_COLOR", "1")
			// A race-enabled askuser sleeps a second before exiting by
			// default; the scripts run it hundreds of times.
			env.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
			// The schema as written, for comparing with "askuser schema".
			env.Setenv("SCHEMA_FILE", schemaFile)
			// The examples of the docs, run as the docs show them.
			env.Setenv("EXAMPLES", examples)
			// The inboxes of the scripts keep their history in the
			// script's own directory.
			env.Setenv("XDG_STATE_HOME", filepath.Join(env.WorkDir, ".state"))
			return nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exits":    cmdExits,
			"gen":      cmdGen,
			"signal":   cmdSignal,
			"waitexit": cmdWaitexit,
			// inbox_test.go
			"agent":     cmdAgent,
			"waitinbox": cmdWaitinbox,
			"inbox":     cmdInbox,
			"freeport":  cmdFreeport,
		},
	})
}

// cmdExits runs a program and checks its exact exit code:
//
//	exits 65 askuser '{"questions":[]}'
//
// stdout and stderr are kept for the commands that follow, as with exec.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exits")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exits CODE program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	got := exitCodeOf(ts, ts.Exec(args[1], args[2:]...))
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

func exitCodeOf(ts *testscript.TestScript, err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		return ee.ExitCode()
	}
	ts.Fatalf("run: %v", err)
	return -1
}

// cmdSignal starts askuser with a stdin that stays open, waits until it
// shows a prompt, sends it a signal and checks the exit code:
//
//	signal TERM 143 askuser '{"questions":[...]}'
//
// Its stdout and stderr become the script's stdout and stderr.
func cmdSignal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: signal INT|TERM|HUP CODE askuser [args...]")
	}
	sig := map[string]syscall.Signal{"INT": syscall.SIGINT, "TERM": syscall.SIGTERM, "HUP": syscall.SIGHUP}[args[0]]
	if sig == 0 {
		ts.Fatalf("signal: unknown signal %q", args[0])
	}
	want, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("signal: bad code %q", args[1])
	}
	r := startOpen(ts, args[2], args[3:])
	defer r.stdin.Close()
	deadline := time.Now().Add(patience)
	for !strings.HasSuffix(r.stderr.String(), ": ") {
		if time.Now().After(deadline) {
			r.cmd.Process.Kill()
			ts.Fatalf("signal: no prompt within %s; stderr:\n%s", patience, r.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	ts.Check(r.cmd.Process.Signal(sig))
	r.finish(ts, want, " after SIG"+args[0])
}

// cmdWaitexit starts askuser with a stdin that stays open and never sends
// anything on it, waits for it to exit by itself and checks the exit code:
//
//	waitexit 124 askuser --timeout 50ms '{"questions":[...]}'
//
// Its stdout and stderr become the script's stdout and stderr.
func cmdWaitexit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: waitexit CODE askuser [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("waitexit: bad code %q", args[0])
	}
	r := startOpen(ts, args[1], args[2:])
	defer r.stdin.Close()
	r.finish(ts, want, "")
}

// patience is how long a started program may take to prompt or to exit. It
// only bounds a failure: a race-enabled binary on a busy machine can take
// seconds to start.
const patience = time.Minute

// running is a program started with a stdin that stays open.
type running struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout bytes.Buffer
	stderr testutil.Buffer
	done   chan error
}

// startOpen starts a program in the script's directory and environment with
// a stdin pipe that it keeps open.
func startOpen(ts *testscript.TestScript, name string, args []string) *running {
	path, err := exec.LookPath(name)
	ts.Check(err)
	r := &running{cmd: exec.Command(path, args...), done: make(chan error, 1)}
	r.cmd.Dir = ts.Getenv("WORK")
	r.cmd.Env = scriptEnv(ts)
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	r.stdin, err = r.cmd.StdinPipe()
	ts.Check(err)
	ts.Check(r.cmd.Start())
	go func() { r.done <- r.cmd.Wait() }()
	return r
}

// finish waits for the program to exit, at most patience, hands its output to
// the script and checks its exit code.
func (r *running) finish(ts *testscript.TestScript, want int, after string) {
	var err error
	select {
	case err = <-r.done:
	case <-time.After(patience):
		r.cmd.Process.Kill()
		<-r.done
		ts.Fatalf("%s did not exit within %s; stderr:\n%s", filepath.Base(r.cmd.Path), patience, r.stderr.String())
	}
	got := exitCodeOf(ts, err)
	fmt.Fprint(ts.Stdout(), r.stdout.String())
	fmt.Fprint(ts.Stderr(), r.stderr.String())
	if got != want {
		ts.Fatalf("%s exited %d%s, want %d\nstderr:\n%s", filepath.Base(r.cmd.Path), got, after, want, r.stderr.String())
	}
}

// scriptEnv is the part of the script's environment that askuser reads,
// so that a program started outside exec sees what exec would show it.
func scriptEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range append([]string{"PATH", "HOME", "WORK", "GORACE"}, cmd.VariableNames()...) {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// cmdGen writes OUT from the text/template TEMPLATE, for inputs too large
// to keep in a script: {{repeat "x" 4001}} is 4001 x's.
//
//	gen big.tmpl big.json
func cmdGen(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: gen TEMPLATE OUT")
	}
	t, err := template.New(args[0]).Funcs(template.FuncMap{"repeat": strings.Repeat}).Parse(ts.ReadFile(args[0]))
	ts.Check(err)
	var b bytes.Buffer
	ts.Check(t.Execute(&b, nil))
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), b.Bytes(), 0o666))
}
