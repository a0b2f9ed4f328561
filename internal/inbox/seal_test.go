package inbox

import (
	"os"
	"path/filepath"
	"testing"

	"filippo.io/age"
)

// The inbox's identity is made once, private, and kept.
func TestLoadIdentity(t *testing.T) {
	path := filepath.Join(t.TempDir(), "askuser", "inbox.age")
	id, created, err := LoadIdentity(path)
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
	again, created, err := LoadIdentity(path)
	if err != nil || created || again.String() != id.String() {
		t.Fatalf("second: %v, %v; the same identity: %v", created, err, again.String() == id.String())
	}
	if err := os.WriteFile(path, []byte("not a key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadIdentity(path); err == nil {
		t.Fatal("a file that holds no identity was taken")
	}
}

// What is sealed opens only with the identity it was sealed to; what is
// not sealed is read as it is.
func TestSeal(t *testing.T) {
	id, _ := age.GenerateX25519Identity()
	other, _ := age.GenerateX25519Identity()
	msg, err := seal([]byte("Which database?"), id.Recipient())
	if err != nil {
		t.Fatal(err)
	}
	if plain, sealed, err := open(msg, id, 100); err != nil || !sealed || string(plain) != "Which database?" {
		t.Fatalf("open: %q, %v, %v", plain, sealed, err)
	}
	if _, _, err := open(msg, other, 100); err == nil {
		t.Fatal("opened with another identity")
	}
	if _, _, err := open(msg, id, 5); err == nil {
		t.Fatal("opened beyond the limit")
	}
	if plain, sealed, err := open([]byte(`{"end":"withdrawn"}`), id, 100); err != nil || sealed || string(plain) != `{"end":"withdrawn"}` {
		t.Fatalf("unsealed: %q, %v, %v", plain, sealed, err)
	}
}
