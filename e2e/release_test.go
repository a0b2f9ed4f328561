//go:build heavy && unix

package e2e

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Every archive of the snapshot carries, beside the program, a man page
// per command and the completions of bash, zsh and fish; the man page
// reads with man, and the bash completion loads and completes.
func TestReleaseArchives(t *testing.T) {
	r := snapshot(t)
	var want []string
	pages, _ := filepath.Glob("../docs/commands/*.md")
	for _, p := range pages {
		want = append(want, "man/"+strings.ReplaceAll(strings.TrimSuffix(filepath.Base(p), ".md"), "_", "-")+".1")
	}
	want = append(want, "completions/askuser.bash", "completions/askuser.zsh", "completions/askuser.fish", "README.md", "docs/agents.md", "docs/setup.md", "docs/commands/askuser.md")
	archives, _ := filepath.Glob(filepath.Join(r.dist, "askuser_"+snapshotVersion+"_*"))
	if len(archives) != 6 {
		t.Fatalf("the snapshot has %d archives, want six: %v", len(archives), archives)
	}
	for _, a := range archives {
		names := archiveNames(t, a)
		program := "askuser"
		if strings.HasSuffix(a, ".zip") {
			program = "askuser.exe"
		}
		for _, w := range append(want, program) {
			if !slices.Contains(names, w) {
				t.Errorf("%s lacks %s; it holds %v", filepath.Base(a), w, names)
			}
		}
	}

	dir := t.TempDir()
	host := filepath.Join(r.dist, "askuser_"+snapshotVersion+"_"+runtime.GOOS+"_"+runtime.GOARCH+".tar.gz")
	if out, err := exec.Command("tar", "-xzf", host, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("unpack %s: %v\n%s", host, err, out)
	}
	installReleaseTools(t)
	man := exec.Command("man", "-l", "-P", "cat", filepath.Join(dir, "man", "askuser-mcp.1"))
	man.Env = append(os.Environ(), "MANWIDTH=80", "LC_ALL=C.UTF-8")
	out, err := man.CombinedOutput()
	if err != nil {
		t.Fatalf("man -l man/askuser-mcp.1: %v\n%s", err, out)
	}
	for _, s := range []string{"ASKUSER-MCP(1)", "NAME", "askuser-mcp - ", "SYNOPSIS", "askuser mcp [flags]", "askuser " + snapshotVersion} {
		if !strings.Contains(string(out), s) {
			t.Errorf("man -l man/askuser-mcp.1 does not show %q:\n%s", s, out)
		}
	}

	// Completing "askuser " after loading bash-completion and the script,
	// with the unpacked program first on PATH, as the script runs it.
	script := `. /usr/share/bash-completion/bash_completion
. completions/askuser.bash
complete -p askuser
COMP_WORDS=(askuser "") COMP_CWORD=1 COMP_LINE="askuser " COMP_POINT=8
__start_askuser askuser "" askuser
printf '%s\n' "${COMPREPLY[@]}"`
	bash := exec.Command("bash", "--norc", "--noprofile", "-c", script)
	bash.Dir = dir
	bash.Env = append(os.Environ(), "PATH="+dir+string(filepath.ListSeparator)+os.Getenv("PATH"))
	out, err = bash.CombinedOutput()
	if err != nil {
		t.Fatalf("bash completion: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) == 0 || lines[0] != "complete -o default -F __start_askuser askuser" {
		t.Errorf("the bash completion did not load:\n%s", out)
	}
	for _, cmd := range []string{"mcp", "inbox", "validate"} {
		if !slices.ContainsFunc(lines[1:], func(l string) bool { return l == cmd || strings.HasPrefix(l, cmd+" ") }) {
			t.Errorf("completing askuser offers no %s:\n%s", cmd, out)
		}
	}

	for _, manifest := range []string{"homebrew/Casks/askuser.rb", "scoop/askuser.json"} {
		b, err := os.ReadFile(filepath.Join(r.dist, manifest))
		if err != nil {
			t.Error(err)
		} else if !strings.Contains(string(b), snapshotVersion) {
			t.Errorf("dist/%s does not name version %s:\n%s", manifest, snapshotVersion, b)
		}
	}
}

// archiveNames lists the files of a .tar.gz or .zip archive.
func archiveNames(t *testing.T, path string) []string {
	t.Helper()
	var names []string
	if strings.HasSuffix(path, ".zip") {
		z, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		defer z.Close()
		for _, f := range z.File {
			names = append(names, f.Name)
		}
		return names
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		} else if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		names = append(names, h.Name)
	}
}

// installReleaseTools installs man and bash-completion with
// .ci/install-release-tools when either is missing.
func installReleaseTools(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("man"); err == nil {
		if _, err := os.Stat("/usr/share/bash-completion/bash_completion"); err == nil {
			return
		}
	}
	if out, err := exec.Command("sh", "../.ci/install-release-tools").CombinedOutput(); err != nil {
		t.Fatalf("man or bash-completion is missing, and .ci/install-release-tools failed (it needs root or sudo, and Debian's package archive): %v\n%s", err, out)
	}
}
