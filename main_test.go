package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/scripts from the actual output")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"askuser": main})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/scripts",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			// The scripts run without a terminal and without colour, whatever
			// the environment of the test run.
			env.Setenv("NO_COLOR", "1")
			return nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exits":  cmdExits,
			"signal": cmdSignal,
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
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
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
	path, err := exec.LookPath(args[2])
	ts.Check(err)
	cmd := exec.Command(path, args[3:]...)
	cmd.Dir = ts.Getenv("WORK")
	cmd.Env = os.Environ()
	for _, kv := range []string{"NO_COLOR", "HOME", "PATH"} {
		cmd.Env = append(cmd.Env, kv+"="+ts.Getenv(kv))
	}
	var stdout bytes.Buffer
	stderr := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	stdin, err := cmd.StdinPipe()
	ts.Check(err)
	defer stdin.Close()
	ts.Check(cmd.Start())
	deadline := time.Now().Add(10 * time.Second)
	for !strings.HasSuffix(stderr.String(), ": ") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			ts.Fatalf("signal: no prompt within 10s; stderr:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	ts.Check(cmd.Process.Signal(sig))
	got := exitCodeOf(ts, cmd.Wait())
	fmt.Fprint(ts.Stdout(), stdout.String())
	fmt.Fprint(ts.Stderr(), stderr.String())
	if got != want {
		ts.Fatalf("askuser exited %d after SIG%s, want %d\nstderr:\n%s", got, args[0], want, stderr.String())
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
