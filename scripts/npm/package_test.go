package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fakeDist writes what goreleaser leaves in dist for version: metadata.json,
// and artifacts.json listing a program per platform of programs (goos/goarch
// to its content), an archive and another build's program beside them.
func fakeDist(t *testing.T, version string, programs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	dist := filepath.Join(dir, "dist")
	type artifact struct{ Name, Path, Goos, Goarch, Type string }
	artifacts := []artifact{
		{"askuser_1.0.0_linux_amd64.tar.gz", filepath.Join(dist, "askuser_1.0.0_linux_amd64.tar.gz"), "linux", "amd64", "Archive"},
		{"other", filepath.Join(dist, "other_linux_amd64_v1", "other"), "linux", "amd64", "Binary"},
	}
	for target, content := range programs {
		goos, goarch, _ := strings.Cut(target, "/")
		name := "askuser"
		if goos == "windows" {
			name += ".exe"
		}
		path := filepath.Join(dist, "askuser_"+goos+"_"+goarch, name)
		writeFile(t, path, content, 0o755)
		artifacts = append(artifacts, artifact{name, path, goos, goarch, "Binary"})
	}
	writeJSON(t, filepath.Join(dist, "artifacts.json"), artifacts)
	writeJSON(t, filepath.Join(dist, "metadata.json"), map[string]string{"project_name": "askuser", "tag": "v" + version, "version": version})
	return dist
}

// allPlatforms is a fake program for each platform askuser is built for.
func allPlatforms() map[string]string {
	programs := map[string]string{}
	for _, p := range platforms {
		programs[p.goos+"/"+p.goarch] = "program for " + p.goos + "/" + p.goarch
	}
	return programs
}

func TestBuildWritesEveryPackage(t *testing.T) {
	dist := fakeDist(t, "1.2.4-next", allPlatforms())
	out := filepath.Join(t.TempDir(), "npm")
	writeFile(t, filepath.Join(out, "stale", "package.json"), "{}", 0o644)
	if err := build(dist, out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "stale")); !os.IsNotExist(err) {
		t.Errorf("a package of an earlier build was kept: %v", err)
	}

	var root manifest
	readJSONFile(t, filepath.Join(out, "askuser", "package.json"), &root)
	wantDeps := map[string]string{
		"@askuser/linux-x64": "1.2.4-next", "@askuser/linux-arm64": "1.2.4-next",
		"@askuser/darwin-x64": "1.2.4-next", "@askuser/darwin-arm64": "1.2.4-next",
		"@askuser/win32-x64": "1.2.4-next", "@askuser/win32-arm64": "1.2.4-next",
	}
	if root.Name != "askuser" || root.Version != "1.2.4-next" || !reflect.DeepEqual(root.OptionalDependencies, wantDeps) {
		t.Errorf("askuser's package.json: %+v\nwant version 1.2.4-next and optional dependencies %v", root, wantDeps)
	}
	if !reflect.DeepEqual(root.Bin, map[string]string{"askuser": "bin/askuser"}) || root.OS != nil || root.CPU != nil {
		t.Errorf("askuser's package.json: bin %v, os %v, cpu %v", root.Bin, root.OS, root.CPU)
	}
	checkProgram(t, filepath.Join(out, "askuser", "bin", "askuser"), string(shim))

	for _, p := range platforms {
		dir := filepath.Join(out, "@askuser", p.os+"-"+p.cpu)
		var m manifest
		readJSONFile(t, filepath.Join(dir, "package.json"), &m)
		if m.Name != p.pkg() || m.Version != "1.2.4-next" || !reflect.DeepEqual(m.OS, []string{p.os}) || !reflect.DeepEqual(m.CPU, []string{p.cpu}) || m.Bin != nil {
			t.Errorf("%s's package.json: %+v", p.pkg(), m)
		}
		checkProgram(t, filepath.Join(dir, "bin", p.exe()), "program for "+p.goos+"/"+p.goarch)
		if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
			t.Error(err)
		}
	}
}

// A build that lacks a platform gives no packages: askuser would name a
// package that does not exist.
func TestBuildNeedsEveryPlatform(t *testing.T) {
	programs := allPlatforms()
	delete(programs, "windows/arm64")
	err := build(fakeDist(t, "1.2.3", programs), filepath.Join(t.TempDir(), "npm"))
	if err == nil || !strings.Contains(err.Error(), "windows/arm64") {
		t.Errorf("build without windows/arm64: %v, want an error that names it", err)
	}
}

// goreleaser's paths are relative to where it ran: elsewhere, the error
// says where to run.
func TestBuildElsewhere(t *testing.T) {
	dist := fakeDist(t, "1.2.3", allPlatforms())
	b, err := os.ReadFile(filepath.Join(dist, "artifacts.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The paths as goreleaser writes them, relative to the directory it ran in.
	relative := strings.ReplaceAll(string(b), filepath.Dir(dist)+string(filepath.Separator), "")
	writeFile(t, filepath.Join(dist, "artifacts.json"), relative, 0o644)
	err = build(dist, filepath.Join(t.TempDir(), "npm"))
	if err == nil || !strings.Contains(err.Error(), "run this where goreleaser ran") {
		t.Errorf("build away from goreleaser's directory: %v, want an error that says where to run it", err)
	}
}

func TestBuildNeedsGoreleaser(t *testing.T) {
	err := build(t.TempDir(), filepath.Join(t.TempDir(), "npm"))
	if err == nil || !strings.Contains(err.Error(), "run goreleaser first") {
		t.Errorf("build of an empty dist: %v, want an error that says to run goreleaser", err)
	}
}

// checkProgram checks that path is an executable file holding content.
func checkProgram(t *testing.T, path, content string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Error(err)
		return
	}
	if string(b) != content {
		t.Errorf("%s holds %.40q, want %.40q", path, b, content)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm()&0o111 != 0o111 {
		t.Errorf("%s is not executable: %v", path, fi.Mode())
	}
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(b), 0o644)
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	if err := readJSON(path, v); err != nil {
		t.Fatal(err)
	}
}
