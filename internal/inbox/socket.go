package inbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// errLive is the error of an inbox that would take over the address of
// another that still answers there (see liveError).
var errLive = errors.New("an inbox is already running")

// liveError is errLive at path.
func liveError(path string) error {
	return fmt.Errorf("%w at %s: use that one, or quit it first", errLive, path)
}

// staleProbe is how long ListenSocket waits to learn whether a socket left
// at the address still has an inbox behind it.
const staleProbe = time.Second

// ListenSocket listens on the Unix socket at path, for SocketListener. Its
// directory is created 0700 when missing, and refused when it is a link,
// belongs to another user or others may write in it (they could choose
// where the socket goes, or replace it); the socket is made 0600 as it is
// bound, never by a path that could lead elsewhere. A socket left there by
// an inbox that is gone (nothing accepts on it) is replaced; one that
// still accepts is never taken over: that is errLive, even for
// inboxes that start at once (they take turns, through a lock file beside
// the socket). Every connection accepted is checked: one from a process
// of another user is closed at once (see allowPeer).
func ListenSocket(path string) (net.Listener, error) {
	if len(path) > maxSocketPath {
		// The system's own error says "invalid argument".
		return nil, fmt.Errorf("the socket path %s is too long for a Unix socket (%d bytes; at most %d): set %s to a shorter path", path, len(path), maxSocketPath, EnvAddr)
	}
	dir := filepath.Dir(path)
	d, checked, err := openPrivateDir(dir)
	if err != nil {
		return nil, err
	}
	// Only looked at, to learn that the directory checked is the one the
	// socket went into.
	defer func() { _ = d.Close() }()
	// Inboxes that start at once take turns from the check to the listen:
	// otherwise one could remove the socket another has just made there.
	unlock, err := lockAddress(path)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := clearStale(path); err != nil {
		return nil, err
	}
	ln, err := listenPrivate(path)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			// Another inbox took the address between the check and now.
			return nil, liveError(path)
		}
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	if err := sameDir(checked, dir); err != nil {
		_ = ln.Close()
		return nil, err
	}
	return &peerListener{Listener: ln, self: os.Getuid()}, nil
}

// maxSocketPath is the longest path a Unix socket's address holds, as the
// system defines it: 108 bytes with the final NUL on Linux, 104 on the
// BSDs and macOS.
const maxSocketPath = len(syscall.RawSockaddrUnix{}.Path) - 1

// openPrivateDir makes the inbox's directory when it is missing, then opens
// it, refusing a link there, and checks what it opened (privateDir), which
// it describes with the open directory.
func openPrivateDir(dir string) (*os.File, os.FileInfo, error) {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, nil, fmt.Errorf("make the inbox's directory: %w", err)
		}
	case err != nil:
		return nil, nil, fmt.Errorf("the inbox's directory: %w", err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, nil, linkError(dir, fi)
	}
	d, err := openDirNoFollow(dir)
	if err != nil {
		if fi, lerr := os.Lstat(dir); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			// Made a link since it was looked at.
			return nil, nil, linkError(dir, fi)
		}
		return nil, nil, fmt.Errorf("the inbox's directory: %w", err)
	}
	fi, err = d.Stat()
	if err == nil {
		err = privateDir(dir, fi, os.Getuid())
	}
	if err != nil {
		_ = d.Close()
		return nil, nil, err
	}
	return d, fi, nil
}

// linkError refuses a link where the inbox's directory should be: whoever
// made it would choose where the socket goes.
func linkError(dir string, fi os.FileInfo) error {
	by := ""
	if uid := fileOwner(fi); uid >= 0 {
		by = " made by " + userName(uid)
	}
	return fmt.Errorf("the inbox's directory %s is a symbolic link%s, not a directory: the inbox listens only in a real directory of yours, so that nobody else chooses where its socket goes; remove the link, or set %s to a path in a directory of your own", dir, by, EnvAddr)
}

// sameDir checks that dir is still the directory that was checked, as
// checked describes it: that the socket was bound in it, not in one put in
// its place meanwhile.
func sameDir(checked os.FileInfo, dir string) error {
	got, err := os.Lstat(dir)
	if err != nil || !os.SameFile(checked, got) {
		return fmt.Errorf("the inbox's directory %s was replaced while the inbox started: look at who changes it, or set %s to a path in a directory of your own", dir, EnvAddr)
	}
	return nil
}

// userName names user uid for messages: "uid 1000 (alice)", or "uid 1000"
// where the name cannot be found.
func userName(uid int) string {
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil && u.Username != "" {
		return fmt.Sprintf("uid %d (%s)", uid, u.Username)
	}
	return fmt.Sprintf("uid %d", uid)
}

// privateDir decides whether dir, described by fi, may hold the socket of
// user self's inbox: it must be a directory of self's that no one else may
// write in (they could replace the socket with their own).
func privateDir(dir string, fi os.FileInfo, self int) error {
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	uid := fileOwner(fi)
	if uid < 0 {
		// Not a Unix system: the directory is in the user's own profile.
		return nil
	}
	if uid != self {
		return fmt.Errorf("the inbox's directory %s belongs to another user (%s), not to you (%s): set XDG_RUNTIME_DIR to your own runtime directory, or %s to a path in a directory of your own", dir, userName(uid), userName(self), EnvAddr)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("others may write in the inbox's directory %s (mode %04o): make it private (chmod 700), or set %s to a path in a directory of your own", dir, fi.Mode().Perm(), EnvAddr)
	}
	return nil
}

// clearStale removes a socket at path that nothing accepts on any more,
// and refuses to touch anything else there.
func clearStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("the inbox's socket: %w", err)
	}
	if fi.Mode()&fs.ModeSocket == 0 {
		return fmt.Errorf("%s exists and is not a socket: remove it, or set %s to another path", path, EnvAddr)
	}
	if uid := fileOwner(fi); uid >= 0 && uid != os.Getuid() {
		return fmt.Errorf("the socket %s belongs to another user (%s): remove it (as that user), or set %s to a path in a directory of your own", path, userName(uid), EnvAddr)
	}
	c, err := net.DialTimeout("unix", path, staleProbe)
	if err == nil {
		_ = c.Close()
		return liveError(path)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("check the socket at %s: %w", path, err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("replace the stale socket at %s: %w", path, err)
	}
	return nil
}

// errNoPeerCred is peerCred's error where the system has no way to tell
// who is at the other end.
var errNoPeerCred = errors.New("the system does not tell who is at the other end of a socket")

// allowPeer is the one decision on who may use an inbox's socket, on both
// ends: the inbox checks each asker that connects, and each asker checks
// the inbox it reached. Only a process of the same user (self) may; the
// socket's mode and its directory's keep others out already, and this
// holds when they do not (root, a directory shared by mistake). uid and
// err are peerCred's: where the system cannot tell (errNoPeerCred), those
// are all there is.
func allowPeer(uid int, err error, self int) error {
	switch {
	case errors.Is(err, errNoPeerCred):
		return nil
	case err != nil:
		return fmt.Errorf("cannot tell who is at the other end of the socket: %w", err)
	case uid != self:
		return fmt.Errorf("the process at the other end of the socket is another user's (uid %d, not %d)", uid, self)
	}
	return nil
}

// peerListener closes every connection that allowPeer refuses as soon as
// it is accepted: nothing of it is read.
type peerListener struct {
	net.Listener
	self int
}

func (l *peerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		uid, err := peerCred(c)
		if allowPeer(uid, err, l.self) != nil {
			_ = c.Close()
			continue
		}
		return c, nil
	}
}

// SocketListener serves the inbox to askers on Listener, the Unix socket
// from ListenSocket that only this user can use, until the server closes;
// the socket file is removed then.
type SocketListener struct{ Listener net.Listener }

// Serve serves srv on l.Listener.
func (l SocketListener) Serve(_ context.Context, srv *Server) error {
	srv.Serve(l.Listener, srv.handler())
	return nil
}
