package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestLayoutMap keeps the layout map of docs/development.md true to the
// tree: every name it lists exists, and every package is listed, so
// that a reader who goes by it finds each room where it says.
func TestLayoutMap(t *testing.T) {
	b, err := os.ReadFile("docs/development.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)## Where things live\n\n```\n(.*?)```").FindSubmatch(b)
	if block == nil {
		t.Fatal("docs/development.md has no layout under \"## Where things live\"")
	}
	listed := map[string]bool{}
	parent := ""
	for _, line := range strings.Split(string(block[1]), "\n") {
		indented := strings.HasPrefix(line, "  ")
		// The names are the first column: up to a run of two spaces.
		names, _, _ := strings.Cut(strings.TrimSpace(line), "  ")
		if names == "" || (indented && strings.HasPrefix(line, "   ")) {
			continue // a description carried on to the next line
		}
		for _, name := range strings.Fields(names) {
			path := name
			if indented {
				path = parent + name
			} else if strings.HasSuffix(name, "/") {
				parent = name
			}
			path = strings.TrimSuffix(path, "/")
			if _, err := os.Stat(path); err != nil {
				t.Errorf("the layout map lists %s: %v", path, err)
			}
			listed[path] = true
		}
	}
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || path == "." {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if gofiles, _ := filepath.Glob(filepath.Join(path, "*.go")); len(gofiles) > 0 && !listed[filepath.ToSlash(path)] {
			t.Errorf("the layout map does not list the package in %s/", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSetupNPX keeps the npx form beside every MCP snippet of
// docs/setup.md: the snippet with its askuser command (the suite in
// e2e/agents runs those as written), then a line giving the same server
// started through npx, for machines without askuser installed.
func TestSetupNPX(t *testing.T) {
	b, err := os.ReadFile("docs/setup.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"claude", "codex", "gemini", "opencode", "qwen", "copilot", "kilo", "crush", "auggie", "cursor", "vscode"} {
		// The snippet holds no backquote, so that the match ends at its fence.
		re := regexp.MustCompile("<!-- setup: " + name + " -->\n```[a-z]*\n([^`]*)```\n\n(With npx: [^\n]*)\n")
		m := re.FindSubmatch(b)
		if m == nil {
			t.Errorf("docs/setup.md: the setup snippet %q is not followed by a \"With npx:\" line", name)
			continue
		}
		snippet, npx := string(m[1]), string(m[2])
		if !strings.Contains(snippet, "askuser") || !strings.Contains(snippet, "mcp") {
			t.Errorf("docs/setup.md: the setup snippet %q does not start askuser mcp:\n%s", name, snippet)
		}
		// The same server: askuser mcp, through npx -y, in the snippet's
		// own syntax (a command line, TOML or JSON; Crush and Auggie take
		// the arguments with --args).
		flat := strings.NewReplacer(`"`, "", ",", "", "[", "", "]", "", "--args ", "").Replace(npx)
		if !strings.Contains(flat, "npx") || !strings.Contains(flat, "-y askuser mcp") {
			t.Errorf("docs/setup.md: %q's npx line does not run npx -y askuser mcp: %s", name, npx)
		}
	}
}

// TestDocsLinks keeps the links between README and the pages of docs/
// true: every relative link names a file that exists, every #anchor a
// heading of the page it points into (as GitHub makes anchors), and every
// topic page in docs/ is linked from README, so that none is left where a
// reader cannot find it.
func TestDocsLinks(t *testing.T) {
	pages, _ := filepath.Glob("docs/*.md")
	commands, _ := filepath.Glob("docs/commands/*.md")
	pages = append(append(pages, commands...), "README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(page string) map[string]bool {
		if a, ok := anchors[page]; ok {
			return a
		}
		b, err := os.ReadFile(page)
		if err != nil {
			return nil
		}
		anchors[page] = headingAnchors(string(b))
		return anchors[page]
	}
	fromReadme := map[string]bool{}
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(outsideFences(string(b)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			dest := page
			if file != "" {
				dest = filepath.Clean(filepath.Join(filepath.Dir(page), file))
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s links to %s, which does not exist", page, target)
					continue
				}
			}
			if page == "README.md" {
				fromReadme[filepath.ToSlash(dest)] = true
			}
			if anchor != "" && strings.HasSuffix(dest, ".md") && !anchorsOf(dest)[anchor] {
				t.Errorf("%s links to %s, but %s has no heading with the anchor #%s", page, target, dest, anchor)
			}
		}
	}
	topics, _ := filepath.Glob("docs/*.md")
	for _, topic := range topics {
		if !fromReadme[filepath.ToSlash(topic)] {
			t.Errorf("README does not link to %s", topic)
		}
	}
}

// outsideFences is a Markdown page with its fenced code blocks blanked, so
// that what looks like a link inside code is not taken for one.
func outsideFences(page string) string {
	var b strings.Builder
	fenced := false
	for _, line := range strings.SplitAfter(page, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			b.WriteString(line)
		}
	}
	return b.String()
}

// headingAnchors are the anchors GitHub gives a page's headings: the text
// in lower case, without punctuation, spaces made hyphens, and -1, -2 ...
// after a repeated one.
func headingAnchors(page string) map[string]bool {
	anchors := map[string]bool{}
	for _, line := range strings.Split(outsideFences(page), "\n") {
		text, ok := strings.CutPrefix(line, "#")
		if !ok {
			continue
		}
		text = strings.TrimSpace(strings.TrimLeft(text, "#"))
		var slug strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				slug.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				slug.WriteRune(r)
			}
		}
		anchor := slug.String()
		for n := 1; anchors[anchor]; n++ {
			anchor = slug.String() + "-" + strconv.Itoa(n)
		}
		anchors[anchor] = true
	}
	return anchors
}

// TestReadmeIsAFrontPage keeps README a page a newcomer reads in two
// minutes: what askuser is, install, the first question, where agent users
// start, and links; the rest lives in the topic pages of docs/.
func TestReadmeIsAFrontPage(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > 300 {
		t.Errorf("README.md is %d lines; a front page stays within 300, with topics in docs/", n)
	}
}

// TestNewKindFiles keeps the development page's list of the files a new
// kind of question touches short and true: at most six, each of them
// there (NAME stands for the kind's own).
func TestNewKindFiles(t *testing.T) {
	b, err := os.ReadFile("docs/development.md")
	if err != nil {
		t.Fatal(err)
	}
	section := regexp.MustCompile("(?s)## A new kind of question\n(.*?)\n## ").FindSubmatch(b)
	if section == nil {
		t.Fatal(`docs/development.md has no section "## A new kind of question"`)
	}
	items := regexp.MustCompile("(?m)^[0-9]+\\. `([^`]+)`").FindAllSubmatch(section[1], -1)
	if len(items) == 0 || len(items) > 6 {
		t.Errorf("the list of the files a new kind touches has %d, want 1 to 6", len(items))
	}
	for _, item := range items {
		if path := string(item[1]); !strings.Contains(path, "NAME") {
			if _, err := os.Stat(path); err != nil {
				t.Errorf("the list of the files a new kind touches names %s: %v", path, err)
			}
		}
	}
}

// TestNoSpecReference keeps the project speaking of itself: nothing in
// its code or pages (but this test) cites a SPEC, which the project does
// not have; what a rule says is in the pages of docs/.
func TestNoSpecReference(t *testing.T) {
	spec := regexp.MustCompile(`\bSPEC\b`)
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules"):
			return filepath.SkipDir
		case d.IsDir() || path == "readme_test.go" || !slices.Contains([]string{".go", ".md", ".txtar", ".tmpl"}, filepath.Ext(path)):
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if loc := spec.FindIndex(b); loc != nil {
			t.Errorf("%s:%d cites a specification the project does not have", path, 1+strings.Count(string(b[:loc[0]]), "\n"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestInstallFirstRoute runs the first route README's install section
// shows, exactly as printed, in this clone, as a newcomer would on a fresh
// machine (with GOBIN a folder of the test's, first on PATH): it must end
// with a working askuser, which answers the example question it asks.
func TestInstallFirstRoute(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Install\n")
	if !ok {
		t.Fatal("README.md has no \"## Install\" section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	// The first block of lines indented as code.
	block := regexp.MustCompile(`(?m)(?:^    .*\n)+`).FindString(section)
	if block == "" {
		t.Fatal("README's install section shows no commands")
	}
	var script []string
	for _, line := range strings.Split(strings.TrimRight(block, "\n"), "\n") {
		script = append(script, strings.TrimPrefix(line, "    "))
	}
	if !strings.HasPrefix(script[0], "go install .") {
		t.Errorf("the first route is no longer the clone's: %q; say which routes need a release", script[0])
	}
	bin := t.TempDir()
	sh := exec.Command("bash", "-e", "-c", strings.Join(script, "\n"))
	sh.Env = append(os.Environ(), "GOBIN="+bin, "PATH="+bin+string(filepath.ListSeparator)+os.Getenv("PATH"),
		// No inbox of the person who runs the tests is asked: the
		// example is answered on stdin.
		"ASKUSER_INBOX="+filepath.Join(bin, "none.sock"))
	sh.Stdin = strings.NewReader("2\n")
	var stdout, stderr strings.Builder
	sh.Stdout, sh.Stderr = &stdout, &stderr
	if err := sh.Run(); err != nil {
		t.Fatalf("README's install lines failed: %v\n%s\nstderr:\n%s", err, strings.Join(script, "\n"), stderr.String())
	}
	if _, err := os.Stat(filepath.Join(bin, "askuser")); err != nil {
		t.Errorf("no askuser installed: %v", err)
	}
	if got := stdout.String(); got != `{"answers":{"Database":"SQLite"}}`+"\n" {
		t.Errorf("the askuser installed answered %q; stderr:\n%s", got, stderr.String())
	}
}

// TestFirstRunSaid checks that README says what the first go run of the
// set-up prints: a go: downloading line for each module Go fetches, about
// as many as the program is built from (Go fetches a few more, to check
// the module graph), and then nothing while it compiles.
func TestFirstRunSaid(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(b), "\n## Set up from a clone\n")
	section, _, _ = strings.Cut(section, "\n## ")
	m := regexp.MustCompile("`go: downloading` line for each module it fetches \\(about (\\d+)\\)").FindStringSubmatch(strings.Join(strings.Fields(section), " "))
	if m == nil {
		t.Fatalf("README's set-up does not say that the first go run prints a `go: downloading` line for each module it fetches (about N):\n%s", section)
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}}{{end}}{{end}}", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	modules := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		modules[p] = true
	}
	if n, _ := strconv.Atoi(m[1]); n < len(modules) || n > len(modules)+15 {
		t.Errorf("README says about %d lines; askuser is built from %d modules", n, len(modules))
	}
}
