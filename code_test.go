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
var testHelpers = []string{"internal/ptytest", "internal/natstest", "internal/testutil", "internal/testutil/chattest"}

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

// TestNoTightTimeBounds checks that no test fails a machine for being busy:
// a time measured in a test (time.Since, a Sub, a variable holding one) is
// compared with testutil.Slow, or with a bound built on a figure of the
// program, never with a second or two written out. How fast askuser is
// lives in the benchmarks (docs/performance.md). The agent CLIs' suite
// (e2e/agents, -tags heavy) is left out: it is not run by go test ./...,
// and its bounds are the CLIs' own timing, which it measures.
func TestNoTightTimeBounds(t *testing.T) {
	for path, f := range goFiles(t, ".") {
		if !strings.HasSuffix(path, "_test.go") || strings.HasPrefix(path, filepath.Join("e2e", "agents")) || path == filepath.Join("internal", "approve", "transcript_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			b, ok := n.(*ast.BinaryExpr)
			if !ok || (b.Op != token.GTR && b.Op != token.GEQ && b.Op != token.SUB) {
				return true
			}
			measured, bound := b.X, b.Y
			if b.Op == token.SUB {
				measured, bound = b.Y, b.X
			}
			if isMeasured(measured) && isWrittenDuration(bound) {
				t.Errorf("%s: a measured time compared with a bound written out; compare it with testutil.Slow", fset.Position(b.Pos()))
			}
			return true
		})
	}
}

// isMeasured reports whether e is a time measured in a test: a call of
// time.Since or of a Sub method, or a variable (which the test set from
// one).
func isMeasured(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return true
	case *ast.CallExpr:
		sel, ok := e.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		pkg, _ := sel.X.(*ast.Ident)
		return sel.Sel.Name == "Sub" || (pkg != nil && pkg.Name == "time" && sel.Sel.Name == "Since")
	}
	return false
}

// isWrittenDuration reports whether e is a duration written out of
// numbers and time's units alone, such as 2*time.Second.
func isWrittenDuration(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		pkg, _ := e.X.(*ast.Ident)
		return pkg != nil && pkg.Name == "time" && strings.HasSuffix(strings.ToLower(e.Sel.Name), "second")
	case *ast.BinaryExpr:
		_, lit := e.X.(*ast.BasicLit)
		return e.Op == token.MUL && lit && isWrittenDuration(e.Y)
	case *ast.ParenExpr:
		return isWrittenDuration(e.X)
	}
	return false
}
