package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// shim is the askuser command of the askuser package, and readme its page
// on npm.
var (
	//go:embed askuser.js
	shim []byte
	//go:embed README.npm.md
	readme []byte
)

// platform is one that askuser is built for, named as goreleaser names it
// and as Node does (process.platform, process.arch). The package's name
// and its os and cpu fields take Node's names, which the shim looks up.
type platform struct {
	goos, goarch string
	os, cpu      string
	title        string
}

var platforms = []platform{
	{"linux", "amd64", "linux", "x64", "Linux on x64"},
	{"linux", "arm64", "linux", "arm64", "Linux on arm64"},
	{"darwin", "amd64", "darwin", "x64", "macOS on Intel"},
	{"darwin", "arm64", "darwin", "arm64", "macOS on Apple silicon"},
	{"windows", "amd64", "win32", "x64", "Windows on x64"},
	{"windows", "arm64", "win32", "arm64", "Windows on arm64"},
}

// pkg is the name of the platform's package.
func (p platform) pkg() string { return "@askuser/" + p.os + "-" + p.cpu }

// exe is the name of the program in the platform's package.
func (p platform) exe() string {
	if p.goos == "windows" {
		return "askuser.exe"
	}
	return "askuser"
}

// manifest is a package.json.
type manifest struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	Keywords             []string          `json:"keywords,omitempty"`
	Homepage             string            `json:"homepage"`
	Bugs                 string            `json:"bugs"`
	Repository           repository        `json:"repository"`
	Bin                  map[string]string `json:"bin,omitempty"`
	Files                []string          `json:"files"`
	Engines              map[string]string `json:"engines,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
}

type repository struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// common is what every package says of itself.
func common(name, version, description string) manifest {
	return manifest{
		Name:        name,
		Version:     version,
		Description: description,
		Homepage:    "https://github.com/askuser/askuser#readme",
		Bugs:        "https://github.com/askuser/askuser/issues",
		Repository:  repository{Type: "git", URL: "git+https://github.com/askuser/askuser.git"},
		Files:       []string{"bin"},
	}
}

// build writes the packages of the goreleaser build in dist into out, which
// it empties first: out/askuser and out/@askuser/<os>-<cpu>.
func build(dist, out string) error {
	version, err := readVersion(dist)
	if err != nil {
		return err
	}
	bins, err := readBinaries(dist)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	root := common("askuser", version, "Let an AI coding agent ask the person at the keyboard multiple-choice questions, and get the answers as JSON")
	root.Keywords = []string{"ask", "questions", "prompt", "human-in-the-loop", "mcp", "agent", "cli"}
	root.Bin = map[string]string{"askuser": "bin/askuser"}
	root.Engines = map[string]string{"node": ">=18"}
	root.OptionalDependencies = map[string]string{}
	for _, p := range platforms {
		bin, ok := bins[p.goos+"/"+p.goarch]
		if !ok {
			return fmt.Errorf("%s has no askuser built for %s/%s: build every platform (goreleaser release, without --single-target)", dist, p.goos, p.goarch)
		}
		if err := writePlatform(filepath.Join(out, filepath.FromSlash(p.pkg())), p, version, bin); err != nil {
			return err
		}
		root.OptionalDependencies[p.pkg()] = version
	}
	return writePackage(filepath.Join(out, "askuser"), root, readme, map[string]string{"askuser": ""})
}

// writePlatform writes the package of platform p, with the program bin.
func writePlatform(dir string, p platform, version, bin string) error {
	m := common(p.pkg(), version, "The askuser program for "+p.title+", which the askuser package runs")
	m.OS, m.CPU = []string{p.os}, []string{p.cpu}
	// Yarn's Plug'n'Play must unpack the package for the program to run.
	m.PreferUnplugged = true
	page := fmt.Sprintf("# %s\n\nThe askuser program for %s. Install [askuser](https://www.npmjs.com/package/askuser) instead: it installs this package where it fits.\n", p.pkg(), p.title)
	return writePackage(dir, m, []byte(page), map[string]string{p.exe(): bin})
}

// writePackage writes a package into dir: its package.json, its README.md,
// and in bin/ each program named in bins, copied from the path it maps to
// (the shim for an empty path).
func writePackage(dir string, m manifest, page []byte, bins map[string]string) error {
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), page, 0o644); err != nil {
		return err
	}
	for name, from := range bins {
		if err := copyProgram(filepath.Join(dir, "bin", name), from); err != nil {
			return err
		}
	}
	return nil
}

// copyProgram writes the program at from to to, executable; from "" is
// the shim.
func copyProgram(to, from string) error {
	b := shim
	if from != "" {
		var err error
		if b, err = os.ReadFile(from); err != nil {
			return err
		}
	}
	return os.WriteFile(to, b, 0o755)
}

// readVersion is the version of the build in dist, as goreleaser wrote it
// to metadata.json: the tag without its "v", or a snapshot's version.
func readVersion(dist string) (string, error) {
	var meta struct{ Version string }
	if err := readJSON(filepath.Join(dist, "metadata.json"), &meta); err != nil {
		return "", err
	}
	if meta.Version == "" {
		return "", fmt.Errorf("%s/metadata.json names no version", dist)
	}
	return meta.Version, nil
}

// readBinaries maps goos/goarch to the askuser program built for it, from
// goreleaser's list of what it built. Its paths are relative to the
// directory goreleaser ran in, which this program runs in too.
func readBinaries(dist string) (map[string]string, error) {
	var artifacts []struct{ Name, Path, Goos, Goarch, Type string }
	if err := readJSON(filepath.Join(dist, "artifacts.json"), &artifacts); err != nil {
		return nil, err
	}
	bins := map[string]string{}
	for _, a := range artifacts {
		if a.Type != "Binary" || (a.Name != "askuser" && a.Name != "askuser.exe") {
			continue
		}
		if _, err := os.Stat(a.Path); err != nil {
			return nil, fmt.Errorf("%w: run this where goreleaser ran, whose paths artifacts.json gives", err)
		}
		bins[a.Goos+"/"+a.Goarch] = a.Path
	}
	return bins, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%w (run goreleaser first)", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
