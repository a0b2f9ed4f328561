package cmd

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/askuser/askuser/schema"
)

// envReads are the functions of the standard library that read the
// environment, by import path.
var envReads = map[string][]string{
	"os":      {"Getenv", "LookupEnv", "Environ", "ExpandEnv"},
	"syscall": {"Getenv", "Environ"},
}

// envCalls are the names of functions and methods that read a variable
// handed to them: Env.Getenv, and any getenv passed down.
var envCalls = []string{"Getenv", "getenv", "LookupEnv", "lookupEnv"}

// TestEnvironmentReadOnlyInTheTable finds every read of the environment in
// the files askuser is built from (every platform's, tests aside): none
// may be outside env.go, which reads the variables of the table
// (settings.go), so that every variable askuser reads is named there,
// beside its flag and default, and the packages below cmd take values. In
// env.go, every read names a variable of the table, not a name of its
// own; and no file but settings.go declares a variable.
func TestEnvironmentReadOnlyInTheTable(t *testing.T) {
	const module = "github.com/askuser/askuser"
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	table := filepath.Join(root, "cmd", "env.go")
	seen := map[string]bool{}
	queue := []string{module}
	inTable := 0
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		if seen[path] {
			continue
		}
		seen[path] = true
		dir := filepath.Join(root, strings.TrimPrefix(strings.TrimPrefix(path, module), "/"))
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		files := slices.Concat(pkg.GoFiles, pkg.CgoFiles, pkg.IgnoredGoFiles)
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			file := filepath.Join(dir, name)
			reads, imports := envReadsIn(t, root, file)
			if filepath.Base(dir) == "cmd" && name != "settings.go" {
				for _, at := range variablesDeclaredIn(t, root, file) {
					t.Errorf("%s declares a variable: declare it in the table, in cmd/settings.go", at)
				}
			}
			for _, imp := range imports {
				if imp == module || strings.HasPrefix(imp, module+"/") {
					queue = append(queue, imp)
				}
			}
			for _, r := range reads {
				switch {
				case file != table:
					t.Errorf("%s reads the environment (%s): read it in cmd/env.go, through a variable of the table, and hand the value down", r.at, r.what)
				case r.literal:
					t.Errorf("%s reads a variable by a name of its own (%s): add it to the table, and read it through its entry", r.at, r.what)
				default:
					inTable++
				}
			}
		}
	}
	// The scan saw the packages below cmd, and the reads of the table.
	for _, p := range []string{"cmd", "internal/inbox", "internal/inbox/natsinbox", "internal/notify", "prompt/tui", "schema"} {
		if !seen[module+"/"+p] {
			t.Errorf("%s was not scanned", p)
		}
	}
	if inTable == 0 {
		t.Error("no read of the environment found in cmd/env.go: the scan finds nothing")
	}
}

// variablesDeclaredIn says where file declares a variable of the table's
// type (a composite literal of variable).
func variablesDeclaredIn(t *testing.T, root, file string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var at []string
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.CompositeLit); ok {
			if id, ok := lit.Type.(*ast.Ident); ok && id.Name == "variable" {
				p := fset.Position(lit.Pos())
				rel, _ := filepath.Rel(root, p.Filename)
				at = append(at, fmt.Sprintf("%s:%d", filepath.ToSlash(rel), p.Line))
			}
		}
		return true
	})
	return at
}

// envRead is a read of the environment in a file: where, what, and
// whether it names its variable with a literal.
type envRead struct {
	at, what string
	literal  bool
}

// envReadsIn returns the reads of the environment in file, and the paths
// it imports.
func envReadsIn(t *testing.T, root, file string) (reads []envRead, imports []string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	at := func(n ast.Node) string {
		p := fset.Position(n.Pos())
		rel, _ := filepath.Rel(root, p.Filename)
		return fmt.Sprintf("%s:%d", filepath.ToSlash(rel), p.Line)
	}
	local := map[string]string{} // import name in the file -> path
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		imports = append(imports, p)
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = p
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			// os.Getenv, called or handed on.
			if x, ok := n.X.(*ast.Ident); ok && slices.Contains(envReads[local[x.Name]], n.Sel.Name) {
				reads = append(reads, envRead{at: at(n), what: x.Name + "." + n.Sel.Name})
			}
		case *ast.CallExpr:
			name := ""
			switch fn := n.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok && local[x.Name] != "" {
					// A package's function: seen as a selector above.
					return true
				}
				name = fn.Sel.Name
			}
			if slices.Contains(envCalls, name) {
				lit := len(n.Args) > 0
				if lit {
					_, lit = n.Args[0].(*ast.BasicLit)
				}
				reads = append(reads, envRead{at: at(n), what: name + "(...)", literal: lit})
			}
		}
		return true
	})
	return reads, imports
}

// Every variable of the table has a name of its own, and the help says
// what each does.
func TestVariablesTable(t *testing.T) {
	names := map[string]bool{}
	for _, v := range variables {
		for _, n := range []string{v.name, v.alias} {
			if n != "" && names[n] {
				t.Errorf("%s is in the table twice", n)
			}
			names[n] = true
		}
		if v.does == "" {
			t.Errorf("%s does not say what it does", v.name)
		}
	}
	for l, v := range limitVariables {
		if !slices.Contains(variables, v) {
			t.Errorf("the variable of %s, %s, is not in the table", schema.Limit(l), v.name)
		}
	}
	help := environmentHelp()
	for _, v := range variables {
		if !strings.Contains(help, "\n"+v.title()) {
			t.Errorf("askuser help environment does not list %s", v.name)
		}
	}
}

// Every help of a setting (a variable of the table with a flag) names the
// variable and holds the placeholder of its value. Every flag that a
// command has under a setting's name is the setting's, and says that the
// variable stands in for it.
func TestSettings(t *testing.T) {
	var settings []*variable
	for _, v := range variables {
		if v.flag != "" {
			settings = append(settings, v)
		}
		for c, help := range v.help {
			if !strings.Contains(help, "$"+v.name) || !strings.Contains(help, v.placeholder) {
				t.Errorf("--%s's help for the commands of kind %d does not name $%s, or its placeholder %q: %q", v.flag, c, v.name, v.placeholder, help)
			}
		}
	}
	if len(settings) == 0 {
		t.Fatal("no variable of the table stands in for a flag")
	}
	root := NewRootCmd(testEnv(t))
	for _, c := range append(root.Commands(), root) {
		for _, s := range settings {
			if f := c.Flags().Lookup(s.flag); f != nil && !strings.Contains(f.Usage, "$"+s.name) {
				t.Errorf("%s --%s is not the setting's: its help does not say that %s stands in for it: %q", c.CommandPath(), s.flag, s.name, f.Usage)
			}
		}
	}
}

// The defaults the help gives the limits are the embedded schema's.
func TestLimitVariablesDefaults(t *testing.T) {
	sch, err := loadSchema(testEnv(t))
	if err != nil {
		t.Fatal(err)
	}
	got := sch.Limits()
	for _, l := range schema.AllLimits {
		if v := limitVariables[l]; v.def != strconv.Itoa(*got.Field(l)) {
			t.Errorf("%s: the help says %s when unset, the schema has %d", v.name, v.def, *got.Field(l))
		}
	}
}

// The limit variables, under their names and their older ones: each sets
// its limit, and a value that is no limit, or two that disagree, is a
// usage error that names the variable set.
func TestLimitVariables(t *testing.T) {
	for _, tt := range []struct {
		vars map[string]string
		want schema.Limits
		msg  string
	}{
		{nil, schema.Limits{}, ""},
		{map[string]string{"ASKUSER_MAX_QUESTIONS": " "}, schema.Limits{}, ""},
		{map[string]string{"ASKUSER_MAX_QUESTIONS": "1", "ASKUSER_MAX_OPTIONS": "9", "ASKUSER_HEADER_MAX_LENGTH": "40", "ASKUSER_QUESTION_MAX_LENGTH": " 1000\n"},
			schema.Limits{MaxQuestions: 1, MaxOptions: 9, HeaderMaxLength: 40, QuestionMaxLength: 1000}, ""},
		{map[string]string{"ASK_MAX_QUESTIONS": "2", "ASK_MAX_OPTIONS": "3", "ASK_HEADER_MAX_LENGTH": "20", "ASK_QUESTION_MAX_LENGTH": "700"},
			schema.Limits{MaxQuestions: 2, MaxOptions: 3, HeaderMaxLength: 20, QuestionMaxLength: 700}, ""},
		{map[string]string{"ASKUSER_MAX_OPTIONS": "6", "ASK_MAX_OPTIONS": " 6 "}, schema.Limits{MaxOptions: 6}, ""},
		{map[string]string{"ASKUSER_MAX_OPTIONS": "", "ASK_MAX_OPTIONS": "5"}, schema.Limits{MaxOptions: 5}, ""},
		{map[string]string{"ASKUSER_MAX_QUESTIONS": "4x"}, schema.Limits{}, `ASKUSER_MAX_QUESTIONS must be a positive integer (got "4x")`},
		{map[string]string{"ASKUSER_MAX_OPTIONS": "1"}, schema.Limits{}, `ASKUSER_MAX_OPTIONS must be an integer of at least 2 (got "1")`},
		{map[string]string{"ASK_HEADER_MAX_LENGTH": "0"}, schema.Limits{}, `ASK_HEADER_MAX_LENGTH must be a positive integer (got "0")`},
		{map[string]string{"ASKUSER_QUESTION_MAX_LENGTH": " 800 ", "ASK_QUESTION_MAX_LENGTH": "80"}, schema.Limits{},
			"ASKUSER_QUESTION_MAX_LENGTH=800 and ASK_QUESTION_MAX_LENGTH=80 disagree: ASK_QUESTION_MAX_LENGTH is the older name of ASKUSER_QUESTION_MAX_LENGTH; unset it or give both the same value"},
		{map[string]string{"ASKUSER_MAX_QUESTIONS": "6", "ASK_MAX_QUESTIONS": "0"}, schema.Limits{}, `ASK_MAX_QUESTIONS must be a positive integer (got "0")`},
	} {
		env := testEnv(t)
		env.Getenv = varsEnv(tt.vars)
		got, err := env.limits()
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if got != tt.want || msg != tt.msg {
			t.Errorf("%v: %+v, %q; want %+v, %q", tt.vars, got, msg, tt.want, tt.msg)
		}
	}
}

func TestColorEnabled(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want bool
	}{
		{nil, true},
		{map[string]string{"TERM": "dumb"}, false},
		{map[string]string{"NO_COLOR": "1"}, false},
		{map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, false},
		{map[string]string{"CLICOLOR": "0"}, false},
		{map[string]string{"CLICOLOR": "1"}, true},
		{map[string]string{"CLICOLOR_FORCE": "1", "TERM": "dumb"}, true},
		{map[string]string{"CLICOLOR_FORCE": "1", "CLICOLOR": "0"}, true},
		{map[string]string{"CLICOLOR_FORCE": "0", "TERM": "dumb"}, false},
	}
	for _, tt := range tests {
		if got := colorEnabled(&Env{Getenv: varsEnv(tt.env)}); got != tt.want {
			t.Errorf("colorEnabled(%v) = %v, want %v", tt.env, got, tt.want)
		}
	}
}
