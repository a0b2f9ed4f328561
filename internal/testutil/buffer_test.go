package testutil

import (
	"strings"
	"sync"
	"testing"
)

// A reader sees every write whole, in order, while writes go on; run it
// under -race to check the locking.
func TestBufferConcurrentReadWrite(t *testing.T) {
	var b Buffer
	const n = 200
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range n {
			b.Write([]byte("ab"))
		}
	}()
	for range n {
		if s := b.String(); len(s)%2 != 0 || strings.Count(s, "ab") != len(s)/2 {
			t.Fatalf("read a torn write: %q", s)
		}
	}
	wg.Wait()
	if got := b.String(); got != strings.Repeat("ab", n) {
		t.Errorf("got %d bytes, want %d", len(got), 2*n)
	}
}
