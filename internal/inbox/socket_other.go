//go:build !unix

package inbox

import "os"

// maxSocketPath is the longest path a Unix socket's address holds.
const maxSocketPath = 107

// fileOwner cannot say who owns a file here; the socket's directory, in the
// user's own profile, keeps others out.
func fileOwner(os.FileInfo) (int, bool) { return 0, false }

// lockAddress has nothing to take here: a second inbox finds the first by
// its socket alone.
func lockAddress(string) (func(), error) { return func() {}, nil }
