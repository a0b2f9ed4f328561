package natsinbox

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"filippo.io/age"
)

// The inbox's identity is made once, private, and kept.
func TestLoadIdentity(t *testing.T) {
	path := filepath.Join(t.TempDir(), "askuser", "inbox.age")
	id, created, err := loadIdentity(path)
	if err != nil || !created {
		t.Fatalf("first: %v, %v", created, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", fi.Mode(), err)
	}
	if di, _ := os.Stat(filepath.Dir(path)); di.Mode().Perm() != 0o700 {
		t.Fatalf("directory mode %v", di.Mode())
	}
	again, created, err := loadIdentity(path)
	if err != nil || created || again.String() != id.String() {
		t.Fatalf("second: %v, %v; the same identity: %v", created, err, again.String() == id.String())
	}
	if err := os.WriteFile(path, []byte("not a key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := loadIdentity(path); err == nil {
		t.Fatal("a file that holds no identity was taken")
	}
}

// An identity that others may read is refused, with the fix: whoever
// reads it reads every question sealed to the inbox.
func TestLoadIdentityOpen(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no file modes")
	}
	path := filepath.Join(t.TempDir(), "askuser", "inbox.age")
	if _, _, err := loadIdentity(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := loadIdentity(path)
	if err == nil || !strings.Contains(err.Error(), "may be read by others (mode 0644)") || !strings.Contains(err.Error(), "chmod 600 "+path) {
		t.Fatalf("got %v", err)
	}
}

// A set's subjects are named after its secret, so that only who knows it
// names them; the two names differ, and tell nothing of each other.
func TestSetNames(t *testing.T) {
	a, b := newSecret(), newSecret()
	if a == b || len(a) != 64 {
		t.Fatalf("secrets %q, %q", a, b)
	}
	if setID(a) == setID(b) || setID(a) == endID(a) || len(setID(a)) != 32 || len(endID(a)) != 32 {
		t.Fatalf("names %q %q %q", setID(a), setID(b), endID(a))
	}
}

// What is sealed opens only with the identity it was sealed to; what is
// not sealed is read as it is.
func TestSeal(t *testing.T) {
	id, _ := age.GenerateX25519Identity()
	other, _ := age.GenerateX25519Identity()
	msg, err := seal([]byte("Which database?"), id.Recipient().String())
	if err != nil {
		t.Fatal(err)
	}
	if plain, err := open(msg, id, 100); err != nil || !sealed(msg) || string(plain) != "Which database?" {
		t.Fatalf("open: %q, %v", plain, err)
	}
	if _, err := open(msg, other, 100); !errors.Is(err, errNotForUs) {
		t.Fatalf("opened with another identity: %v", err)
	}
	if _, err := open(msg, id, 5); err == nil {
		t.Fatal("opened beyond the limit")
	}
	if plain, err := open([]byte(`{"end":"withdrawn"}`), id, 100); err != nil || sealed(plain) || string(plain) != `{"end":"withdrawn"}` {
		t.Fatalf("unsealed: %q, %v", plain, err)
	}
}
