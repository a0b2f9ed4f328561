//go:build unix

package ptytest_test

import (
	"os/exec"
	"testing"

	"github.com/askuser/askuser/internal/ptytest"
)

func TestStartTypeAndRead(t *testing.T) {
	tm := ptytest.New(t, 40, 10)
	// The shell reads the line from stdin and writes to /dev/tty, which
	// works only if the terminal became its controlling terminal.
	cmd := exec.Command("sh", "-c", `printf 'name? '; read name; printf 'hello %s\n' "$name" > /dev/tty`)
	if err := tm.Start(cmd); err != nil {
		t.Fatal(err)
	}
	tm.Expect("name? ")
	tm.Send("Ada\r")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("sh: %v", err)
	}
	if echo, canonical := tm.LineMode(); !echo || !canonical {
		t.Errorf("echo %v, line editing %v; want both", echo, canonical)
	}
	tm.Drain()
	if got, want := tm.Screen(), "name? Ada\nhello Ada"; got != want {
		t.Errorf("screen:\n%s\nwant:\n%s", got, want)
	}
	if raw := tm.Raw(); raw != "name? Ada\r\nhello Ada\r\n" {
		t.Errorf("raw output = %q", raw)
	}
}

func TestScreenFollowsCursorMovement(t *testing.T) {
	tm := ptytest.New(t, 20, 5)
	cmd := exec.Command("sh", "-c", `printf 'one\ntwo\033[1A\rONE\033[K\n'`)
	if err := tm.Start(cmd); err != nil {
		t.Fatal(err)
	}
	tm.ExpectScreen("ONE\ntwo")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("sh: %v", err)
	}
	tm.Drain()
}
