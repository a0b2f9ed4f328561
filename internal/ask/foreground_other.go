//go:build !unix

package ask

import "os"

// inForeground reports whether f is a terminal a person is looking at.
// Consoles outside Unix have no process groups that could say otherwise:
// a console on stdin is the person's.
func inForeground(f *os.File) bool { return f != nil }
