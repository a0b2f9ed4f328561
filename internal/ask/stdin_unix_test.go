//go:build unix

package ask

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestStdinKind(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "answers"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	sock := os.NewFile(uintptr(fds[0]), "socket")
	defer sock.Close()
	defer syscall.Close(fds[1])
	for _, c := range []struct {
		f    *os.File
		tty  bool
		want string
	}{
		{null, false, "/dev/null"},
		{sock, false, "a socket"},
		{r, false, ""},
		{file, false, ""},
		{null, true, ""},
		{nil, false, ""},
	} {
		if got := StdinKind(c.f, c.tty); got != c.want {
			t.Errorf("StdinKind(%v, %v) = %q, want %q", c.f, c.tty, got, c.want)
		}
	}
}
