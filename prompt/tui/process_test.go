//go:build unix

package tui_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"

	"github.com/askuser/askuser/internal/ptytest"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/tui"
	"github.com/askuser/askuser/schema"
)

// With ASKUSER_TUI_CALLER set, the test binary is a small program that
// uses the terminal UI the way the command does: on its controlling
// terminal, with signals cancelling the context.
func TestMain(m *testing.M) {
	if os.Getenv("ASKUSER_TUI_CALLER") != "" {
		os.Exit(caller())
	}
	os.Exit(m.Run())
}

// signalled is the cause of a context cancelled by a signal.
type signalled struct{ sig syscall.Signal }

func (s signalled) Error() string { return "got " + s.sig.String() }

func caller() int {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer tty.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		sig := <-sigs
		cancel(signalled{sig.(syscall.Signal)})
	}()
	qs := []schema.Question{database}
	ui := tui.New(tui.Options{In: tty, Out: tty, Color: true})
	answers, err := ui.Ask(ctx, qs)
	err = ui.Finish(ctx, err, prompt.Summarize(qs, answers))
	s, isSignal := errors.AsType[signalled](err)
	switch {
	case isSignal:
		fmt.Fprintf(tty, "Error: %v\n", err)
		return 128 + int(s.sig)
	case err != nil:
		fmt.Fprintf(tty, "Error: %v\n", err)
		return 1
	}
	fmt.Println(answers[0])
	return 0
}

func startCaller(t *testing.T, tm *ptytest.Term) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ASKUSER_TUI_CALLER=1")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := tm.Start(cmd); err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd, &stdout
}

func TestTUIInAProcessAnswered(t *testing.T) {
	t.Parallel()
	tm := ptytest.New(t, 60, 30)
	cmd, stdout := startCaller(t, tm)
	tm.ExpectScreen("❯ 1. PostgreSQL")
	tm.Send(down + enter)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("caller: %v", err)
	}
	if got, want := stdout.String(), "SQLite\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
	if echo, canonical := tm.LineMode(); !echo || !canonical {
		t.Errorf("terminal left with echo %v, line editing %v", echo, canonical)
	}
	tm.Drain()
	if got, want := tm.Screen(), "✔ Database: SQLite"; got != want {
		t.Errorf("screen:\n%s\nwant:\n%s", got, want)
	}
	if !tm.CursorVisible() {
		t.Error("cursor left hidden")
	}
}

func TestTUIInAProcessSignalled(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			tm := ptytest.New(t, 60, 30)
			cmd, stdout := startCaller(t, tm)
			tm.ExpectScreen("❯ 1. PostgreSQL")
			tm.Send("0")
			tm.ExpectScreen("Your answer:")
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 128+int(sig) {
				t.Errorf("caller: %v, want exit code %d", err, 128+int(sig))
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			if echo, canonical := tm.LineMode(); !echo || !canonical {
				t.Errorf("terminal left with echo %v, line editing %v", echo, canonical)
			}
			tm.Drain()
			if !tm.CursorVisible() {
				t.Error("cursor left hidden")
			}
			if got, want := tm.Screen(), "Error: got "+sig.String(); !strings.HasPrefix(got, want) {
				t.Errorf("screen:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
