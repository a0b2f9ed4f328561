package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/testutil"
)

// The testscript commands of the inbox's scripts (inbox_*.txtar).

// cmdAgent runs a program as an agent harness does, without a terminal (in
// a session of its own) and with stdin /dev/null, an open socket that never
// sends, an open pipe that is never written, a file of the script's
// (file:NAME), a pipe that gives NAME and closes (piped:NAME), or one that
// closes only a while after giving NAME (late:NAME), and checks its exact
// exit code:
//
//	agent null 66 askuser -f questions.json
//
// Its stdout and stderr become the script's stdout and stderr.
func cmdAgent(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: agent null|socket|pipe|file:NAME|piped:NAME|late:NAME CODE program [args...]")
	}
	want, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("agent: bad code %q", args[1])
	}
	path, err := exec.LookPath(args[2])
	ts.Check(err)
	cmd := exec.Command(path, args[3:]...)
	cmd.Dir = ts.Getenv("WORK")
	cmd.Env = scriptEnv(ts)
	testutil.Detach(cmd)
	stdin, closeStdin := agentStdin(ts, args[0])
	defer closeStdin()
	cmd.Stdin = stdin
	r := &running{cmd: cmd, done: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = &r.stdout, &r.stderr
	ts.Check(cmd.Start())
	go func() { r.done <- cmd.Wait() }()
	r.finish(ts, want, "")
}

// agentStdin opens the stdin that cmdAgent's spec names, and returns it
// with what closes it once the program has ended.
func agentStdin(ts *testscript.TestScript, spec string) (*os.File, func()) {
	kind, name, _ := strings.Cut(spec, ":")
	switch kind {
	case "null":
		f, err := os.Open(os.DevNull)
		ts.Check(err)
		return f, func() { f.Close() }
	case "file":
		f, err := os.Open(ts.MkAbs(name))
		ts.Check(err)
		return f, func() { f.Close() }
	case "socket":
		fds, err := socketpair()
		ts.Check(err)
		return fds[0], func() { fds[0].Close(); fds[1].Close() }
	case "pipe":
		r, w, err := os.Pipe()
		ts.Check(err)
		return r, func() { r.Close(); w.Close() }
	case "piped", "late":
		r, w, err := os.Pipe()
		ts.Check(err)
		data := ts.ReadFile(name)
		go func() {
			defer w.Close()
			_, _ = io.WriteString(w, data)
			if kind == "late" {
				// Longer than askuser looks for the end before it asks.
				time.Sleep(time.Second)
			}
		}()
		return r, func() { r.Close() }
	}
	ts.Fatalf("agent: unknown stdin %q", spec)
	return nil, nil
}

// cmdFreeport sets NAME to a TCP port of 127.0.0.1 that nothing listens
// on, for an inbox over TCP whose address the askers must know before it
// starts:
//
//	freeport PORT
func cmdFreeport(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: freeport NAME")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := ln.Addr().(*net.TCPAddr).Port
	ts.Check(ln.Close())
	ts.Setenv(args[0], strconv.Itoa(port))
}

// socketpair returns the two ends of a connected Unix socket, as files.
func socketpair() ([2]*os.File, error) {
	dir, err := os.MkdirTemp("", "sp")
	if err != nil {
		return [2]*os.File{}, err
	}
	defer os.RemoveAll(dir)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: dir + "/s", Net: "unix"})
	if err != nil {
		return [2]*os.File{}, err
	}
	defer ln.Close()
	c, err := net.DialUnix("unix", nil, ln.Addr().(*net.UnixAddr))
	if err != nil {
		return [2]*os.File{}, err
	}
	defer c.Close()
	s, err := ln.AcceptUnix()
	if err != nil {
		return [2]*os.File{}, err
	}
	defer s.Close()
	a, err := c.File()
	if err != nil {
		return [2]*os.File{}, err
	}
	b, err := s.File()
	if err != nil {
		a.Close()
		return [2]*os.File{}, err
	}
	return [2]*os.File{a, b}, nil
}

// cmdWaitinbox waits until an inbox answers at the script's ASKUSER_INBOX:
// one started in the background with exec ... &name&.
//
//	waitinbox
func cmdWaitinbox(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: waitinbox")
	}
	waitInbox(ts)
}

func waitInbox(ts *testscript.TestScript) {
	a, err := inbox.Where{Inbox: ts.Getenv("ASKUSER_INBOX"), RuntimeDir: ts.Getenv("XDG_RUNTIME_DIR"), TempDir: ts.Getenv("TMPDIR")}.Addr()
	ts.Check(err)
	c := a.Dial()
	deadline := time.Now().Add(patience)
	for {
		_, err := c.Probe(context.Background())
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("no inbox answers at %s within %s: %v", a, patience, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// inboxes are the inboxes that scripts started with "inbox start".
var inboxes sync.Map // *testscript.TestScript → *running

// cmdInbox runs askuser inbox in the background with a stdin that stays
// open, for the person's answers to be typed when the script says:
//
//	inbox start [args...]    start it, and wait until it answers
//	inbox type TEXT          type a line
//	inbox shows REGEXP       wait until its stderr matches
//	inbox stop CODE          end its input, wait for it to exit, check the
//	                         code; its stdout and stderr become the script's
//	inbox kill SIGNAL CODE   send it KILL or TERM, then as stop
func cmdInbox(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: inbox start|type|shows|stop|kill ...")
	}
	if args[0] == "start" {
		r := startOpen(ts, "askuser", append([]string{"inbox"}, args[1:]...))
		inboxes.Store(ts, r)
		ts.Defer(func() {
			if _, ok := inboxes.LoadAndDelete(ts); ok {
				r.cmd.Process.Kill()
				<-r.done
			}
		})
		waitInbox(ts)
		return
	}
	v, ok := inboxes.Load(ts)
	if !ok {
		ts.Fatalf("inbox %s: no inbox started", args[0])
	}
	r := v.(*running)
	switch {
	case args[0] == "type" && len(args) == 2:
		_, err := fmt.Fprintln(r.stdin, args[1])
		ts.Check(err)
	case args[0] == "shows" && len(args) == 2:
		re, err := regexp.Compile("(?m)" + args[1])
		ts.Check(err)
		deadline := time.Now().Add(patience)
		for !re.MatchString(r.stderr.String()) {
			if time.Now().After(deadline) {
				ts.Fatalf("the inbox did not show %q within %s; stderr:\n%s", args[1], patience, r.stderr.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	case args[0] == "stop" && len(args) == 2:
		want, err := strconv.Atoi(args[1])
		ts.Check(err)
		inboxes.Delete(ts)
		r.stdin.Close()
		r.finish(ts, want, "")
	case args[0] == "kill" && len(args) == 3:
		sig := map[string]os.Signal{"KILL": os.Kill, "TERM": syscall.SIGTERM}[args[1]]
		if sig == nil {
			ts.Fatalf("inbox kill: unknown signal %q", args[1])
		}
		want, err := strconv.Atoi(args[2])
		ts.Check(err)
		inboxes.Delete(ts)
		ts.Check(r.cmd.Process.Signal(sig))
		defer r.stdin.Close()
		r.finish(ts, want, " after SIG"+args[1])
	default:
		ts.Fatalf("usage: inbox start|type|shows|stop|kill ...")
	}
}
