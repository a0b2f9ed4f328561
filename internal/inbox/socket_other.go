//go:build !unix

package inbox

import (
	"net"
	"os"
)

// fileOwner cannot say who owns a file here (-1); the socket's directory,
// in the user's own profile, keeps others out.
func fileOwner(os.FileInfo) int { return -1 }

// lockAddress has nothing to take here: a second inbox finds the first by
// its socket alone.
func lockAddress(string) (func(), error) { return func() {}, nil }

// openDirNoFollow opens the directory dir. The socket's directory is in the
// user's own profile here, where others make no links.
func openDirNoFollow(dir string) (*os.File, error) { return os.Open(dir) }

// listenPrivate listens on a new Unix socket at path; the directory's
// access list keeps others out.
func listenPrivate(path string) (net.Listener, error) { return net.Listen("unix", path) }
