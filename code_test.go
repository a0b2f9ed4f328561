package main

import (
	"cmp"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
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

// maxFuncLines is the longest a function of the product may be, from its
// func line to its closing brace.
const maxFuncLines = 60

// TestShortFunctions checks that no function of the product (every
// package but the tests' own helpers, and not its tests) runs past
// maxFuncLines: a longer one does several things, to be split by what
// each does.
func TestShortFunctions(t *testing.T) {
	fset := token.NewFileSet()
	for _, root := range []string{"main.go", "cmd", "internal", "prompt", "schema"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && (d.Name() == "testdata" || slices.Contains(testHelpers, filepath.ToSlash(path))):
				return filepath.SkipDir
			case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
				most := cmp.Or(stillLong[filepath.ToSlash(filepath.Dir(path))+" "+fn.Name.Name], maxFuncLines)
				if n := end.Line - start.Line + 1; n > most {
					t.Errorf("%s: %s is %d lines, more than %d", start, fn.Name.Name, n, most)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// stillLong are the functions, by package and name, that are still longer
// than maxFuncLines, with the length they may not pass: natsinbox's
// consume, whose package is being split by concern (issue 33). Delete its
// line when it is 60 lines or fewer.
var stillLong = map[string]int{"internal/inbox/natsinbox consume": 64}

// testHelpers are the packages that only tests import.
var testHelpers = []string{"internal/ptytest", "internal/natstest", "internal/testutil"}
