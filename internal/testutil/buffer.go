// Package testutil holds what the tests of several packages share and no
// program needs.
package testutil

import (
	"bytes"
	"sync"
)

// Buffer is a bytes.Buffer that one goroutine may write while others read
// it: the output of a process or of an asker that a test watches while it
// runs.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p to the buffer.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what has been written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
