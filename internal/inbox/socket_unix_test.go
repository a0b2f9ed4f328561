//go:build unix

package inbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// nobody is the user the tests hand files to, as another user of the
// machine would have made them.
const nobody = 65534

// giveAway makes path (not what it links to) another user's.
func giveAway(t *testing.T, path string) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("making a file of another user's needs root")
	}
	if err := os.Lchown(path, nobody, nobody); err != nil {
		t.Fatal(err)
	}
}

// fallbackPath is the inbox's address without XDG_RUNTIME_DIR, in a
// temporary directory of the test's that everyone may write in (as /tmp).
func fallbackPath(t *testing.T) (tmp, path string) {
	t.Helper()
	tmp = t.TempDir()
	if err := os.Chmod(tmp, 0o1777); err != nil {
		t.Fatal(err)
	}
	a := defaultAddr(Where{TempDir: tmp}, t.TempDir(), os.Getuid())
	return tmp, string(a)
}

// Another user who makes the fallback directory's name a link, before the
// inbox starts, chooses nothing: the link is refused, and nothing is made
// or changed where it leads.
func TestSocketDirLinkRefused(t *testing.T) {
	tmp, path := fallbackPath(t)
	target := filepath.Join(tmp, "target")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(target, "victim")
	if err := os.WriteFile(victim, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(path)
	if err := os.Symlink(target, dir); err != nil {
		t.Fatal(err)
	}
	giveAway(t, dir)
	ln, err := ListenSocket(path)
	if err == nil {
		ln.Close()
		t.Fatal("the inbox listened through another user's link")
	}
	want := "the inbox's directory " + dir + " is a symbolic link made by uid 65534"
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "remove the link, or set ASKUSER_INBOX") {
		t.Errorf("error %q; want it to say %q and what to do", err, want)
	}
	entries, _ := os.ReadDir(target)
	if len(entries) != 1 {
		t.Errorf("the link's target holds %d entries, want only the victim", len(entries))
	}
	if fi, _ := os.Stat(victim); fi.Mode().Perm() != 0o644 {
		t.Errorf("the victim's mode changed to %04o", fi.Mode().Perm())
	}
}

// A real directory of another user's at the fallback's name is refused,
// with a message that names it, its owner and what to do.
func TestSocketDirOfAnotherUser(t *testing.T) {
	_, path := fallbackPath(t)
	dir := filepath.Dir(path)
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	giveAway(t, dir)
	_, err := ListenSocket(path)
	want := "the inbox's directory " + dir + " belongs to another user (uid 65534"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "set XDG_RUNTIME_DIR to your own runtime directory, or ASKUSER_INBOX to a path in a directory of your own") {
		t.Errorf("error %v; want it to say %q and what to do", err, want)
	}
	if _, err := os.Lstat(path); err == nil {
		t.Error("a socket was made in another user's directory")
	}
}

// The lock file beside the socket gets the same care: a link there is not
// followed, and a file of another user's is refused.
func TestSocketLockFile(t *testing.T) {
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, lock, victim string)
		want  string
	}{
		{"a link", func(t *testing.T, lock, victim string) {
			if err := os.Symlink(victim, lock); err != nil {
				t.Fatal(err)
			}
			giveAway(t, lock)
		}, "is a symbolic link: remove it"},
		{"another user's file", func(t *testing.T, lock, _ string) {
			if err := os.WriteFile(lock, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			giveAway(t, lock)
		}, "belongs to another user (uid " + strconv.Itoa(nobody)},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "inbox.sock")
			victim := filepath.Join(t.TempDir(), "victim")
			if err := os.WriteFile(victim, []byte("kept"), 0o644); err != nil {
				t.Fatal(err)
			}
			c.plant(t, path+".lock", victim)
			ln, err := ListenSocket(path)
			if err == nil {
				ln.Close()
				t.Fatal("the inbox listened")
			}
			if !strings.Contains(err.Error(), "the inbox's lock file "+path+".lock "+c.want) {
				t.Errorf("error %q; want %q", err, c.want)
			}
			if got, _ := os.ReadFile(victim); string(got) != "kept" {
				t.Errorf("the victim holds %q", got)
			}
		})
	}
}
