package main

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"iter"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the import path that every package of askuser starts with.
const module = "github.com/askuser/askuser"

// TestPlumbingIsALeaf checks that the plumbing many packages share, the
// HTTP serving of the web page and the inbox, the standard streams and
// the JSON that askuser prints, imports no package of askuser: a change above it cannot reach it, and it
// can be read alone.
func TestPlumbingIsALeaf(t *testing.T) {
	for _, dir := range []string{"prompt/web/localhttp", "internal/iostreams", "schema/jsonout"} {
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

// floor is the floor of the house the package in dir (a path from the
// module's root) stands on, lowest first: schema, prompt, the ways of
// asking (prompt/...), the rooms above them (internal/...: the engine, the
// inbox, the MCP server, which share their floor), cmd, and main.
func floor(dir string) int {
	switch {
	case dir == ".":
		return 5
	case dir == "cmd" || strings.HasPrefix(dir, "cmd/"):
		return 4
	case strings.HasPrefix(dir, "internal/"):
		return 3
	case strings.HasPrefix(dir, "prompt/"):
		return 2
	case dir == "prompt":
		return 1
	}
	return 0
}

// TestArrowsPointDown checks that askuser's imports run one way, down the
// floors of rooms: cmd above the ways of asking (prompt/...), above
// prompt, above schema; a leaf that a floor shares is filed beneath its
// lowest user (schema/jsonout, prompt/web/localhttp). And the history,
// which the inbox writes, knows nothing of the inbox.
func TestArrowsPointDown(t *testing.T) {
	seen := map[string]bool{}
	for path := range goFiles(t, "main.go", "cmd", "internal", "prompt", "schema") {
		dir := filepath.ToSlash(filepath.Dir(path))
		if strings.HasSuffix(path, "_test.go") || seen[dir] || slices.Contains(testHelpers, dir) {
			continue
		}
		seen[dir] = true
		p, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range p.Imports {
			rel, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			below := floor(rel) < floor(dir) || strings.HasPrefix(rel, dir+"/") || floor(dir) == 3 && floor(rel) == 3
			if !below || dir == "internal/history" && strings.HasPrefix(rel, "internal/inbox") {
				t.Errorf("%s imports %s, which is not beneath it", dir, rel)
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
	for path, f := range goFiles(t, "main.go", "cmd", "internal", "prompt", "schema") {
		dir := filepath.ToSlash(filepath.Dir(path))
		if strings.HasSuffix(path, "_test.go") || slices.Contains(testHelpers, dir) {
			continue
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
			if n := end.Line - start.Line + 1; n > maxFuncLines {
				t.Errorf("%s: %s is %d lines, more than %d", start, fn.Name.Name, n, maxFuncLines)
			}
		}
	}
}

// testHelpers are the packages that only tests import.
var testHelpers = []string{"internal/ptytest", "internal/natstest", "internal/testutil"}

// TestErrorsMatchedOneWay checks that errors are matched one way, in the
// product and in its tests: errors.AsType gives the error it finds, where
// errors.As needs a variable declared to be pointed at.
func TestErrorsMatchedOneWay(t *testing.T) {
	for _, f := range goFiles(t, ".") {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "As" {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "errors" {
					t.Errorf("%s: errors.As; match with errors.AsType", fset.Position(sel.Pos()))
				}
			}
			return true
		})
	}
}

// fset holds the positions of the files goFiles parses.
var fset = token.NewFileSet()

// goFiles parses the Go files under roots (files or folders), leaving out
// testdata and what is not Go (the packages that npm installs), and yields
// each with its path.
func goFiles(t *testing.T, roots ...string) iter.Seq2[string, *ast.File] {
	return func(yield func(string, *ast.File) bool) {
		for _, root := range roots {
			err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				switch {
				case err != nil:
					return err
				case d.IsDir() && path != "." && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")):
					return filepath.SkipDir
				case d.IsDir() || !strings.HasSuffix(path, ".go"):
					return nil
				}
				f, err := parser.ParseFile(fset, path, nil, 0)
				if err != nil {
					return err
				}
				if !yield(path, f) {
					return filepath.SkipAll
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}
