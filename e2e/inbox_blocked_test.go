//go:build linux

package e2e

import (
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/askuser/askuser/internal/testutil"
)

// These tests run askers as another user (nobody, uid 65534) against an
// inbox or a socket they may not reach, as a person whose agent runs as
// another user, or in a sandbox, would meet it: the error says what kept
// them out and what to do, with the exit code of the way of asking.

const nobodyUID = 65534

// noAnswer is how the no-answer error of an asker with stdin from
// /dev/null begins, before what kept it from the inbox.
const noAnswer = "Error: No answer: the answer input ended before question 1 of 1 (\"Database\") was answered\nNobody can answer on stdin (/dev/null), and "

// askuserForAll copies the program where every user may run it, and
// returns its path.
func askuserForAll(t *testing.T) string {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("running an asker as another user needs root")
	}
	dir := dirForAll(t)
	src, err := os.Open(askuserPath(t))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	bin := filepath.Join(dir, "askuser")
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return bin
}

// dirForAll makes a directory that every user may enter, in one that every
// user may enter, removed when the test ends.
func dirForAll(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "askuser-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runAsNobody runs askuser as uid 65534 with stdin from /dev/null, as an
// agent runs it, and returns its exit code, stdout and stderr.
func runAsNobody(t *testing.T, bin, addr string, args ...string) (int, string, string) {
	t.Helper()
	dir := dirForAll(t)
	if err := os.WriteFile(filepath.Join(dir, "q.json"), []byte(oneQuestionFile), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = inboxEnv(addr)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobodyUID, Gid: nobodyUID}}
	var stdout, stderr testutil.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// The inbox of another user (here root's, in a directory only root may
// enter, or in one all may enter): the asker names whose it is and what to
// do, rather than saying that no inbox answers, with exit 69 for --ui
// inbox, and in auto mode the no-answer error (66) that carries it.
func TestInboxOfAnotherUser(t *testing.T) {
	bin := askuserForAll(t)
	for _, open := range []bool{false, true} {
		dir := dirForAll(t)
		if !open {
			dir = filepath.Join(dir, "private")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
		}
		in := startInboxAt(t, filepath.Join(dir, "inbox.sock"))
		whose := "is another user's (uid 0 (root)), and askuser asks only in an inbox of the user it runs as (uid 65534 (nobody))"
		if !open {
			whose = "is in " + dir + ", a directory of another user's (uid 0 (root)) that this user (uid 65534 (nobody)) may not enter (permission denied)"
		}
		blocked := "the inbox at " + string(in.addr) + " " + whose + ".\nRun 'askuser inbox' as uid 65534 (nobody) and answer there, or run this command as the inbox's user; ASKUSER_INBOX names the inbox (unset, each user has their own).\n"
		code, stdout, stderr := runAsNobody(t, bin, string(in.addr), "--ui", "inbox", "-f", "q.json")
		if want := "Error: T" + blocked[1:]; code != 69 || stdout != "" || stderr != want {
			t.Errorf("--ui inbox (directory open: %v): exit %d, stdout %q, stderr:\n%s\nwant exit 69 and:\n%s", open, code, stdout, stderr, want)
		}
		code, stdout, stderr = runAsNobody(t, bin, string(in.addr), "-f", "q.json")
		if want := noAnswer + blocked; code != 66 || stdout != "" || stderr != want {
			t.Errorf("auto (directory open: %v): exit %d, stdout %q, stderr:\n%s\nwant exit 66 and:\n%s", open, code, stdout, stderr, want)
		}
	}
}

// A socket of the asker's own that the system refuses to connect to (as
// Codex's sandboxes refuse connect with EPERM; here a socket of nobody's
// that even nobody may not write to, which is EACCES): the error says that
// a sandbox or a security policy blocks it, and how to get through.
func TestInboxBlockedBySystem(t *testing.T) {
	bin := askuserForAll(t)
	dir := dirForAll(t)
	path := filepath.Join(dir, "inbox.sock")
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := os.Chown(path, nobodyUID, nobodyUID); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	blocked := "the inbox's socket at " + path + " is there, but this command may not connect to it (connect: permission denied): a sandbox or a security policy around the command blocks it.\nIn Codex, reach the person through askuser's MCP server (askuser mcp), which runs outside the sandbox, or use its workspace-write sandbox (--sandbox workspace-write) with sandbox_workspace_write.network_access = true in ~/.codex/config.toml. With another tool, allow the command to reach this socket, or run it outside the sandbox.\n"
	code, stdout, stderr := runAsNobody(t, bin, path, "--ui", "inbox", "-f", "q.json")
	if want := "Error: T" + blocked[1:]; code != 69 || stdout != "" || stderr != want {
		t.Errorf("--ui inbox: exit %d, stdout %q, stderr:\n%s\nwant exit 69 and:\n%s", code, stdout, stderr, want)
	}
	code, stdout, stderr = runAsNobody(t, bin, path, "-f", "q.json")
	if want := noAnswer + blocked; code != 66 || stdout != "" || stderr != want {
		t.Errorf("auto: exit %d, stdout %q, stderr:\n%s\nwant exit 66 and:\n%s", code, stdout, stderr, want)
	}
}
