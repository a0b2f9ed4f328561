package main

import (
	"go/build"
	"strings"
	"testing"
)

// module is the import path that every package of askuser starts with.
const module = "github.com/askuser/askuser"

// TestPlumbingIsALeaf checks that the plumbing many packages share, the
// HTTP serving of the web page and the inbox and the standard streams,
// imports no package of askuser: a change above it cannot reach it, and it
// can be read alone.
func TestPlumbingIsALeaf(t *testing.T) {
	for _, dir := range []string{"internal/localhttp", "internal/iostreams"} {
		p, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range p.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				t.Errorf("%s imports %s: the packages that stand on it must not be beneath it", dir, imp)
			}
		}
	}
}
