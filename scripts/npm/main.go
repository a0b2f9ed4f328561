// Command npm builds the npm packages of askuser from a goreleaser build:
// askuser, the package that people install, whose askuser command
// (askuser.js) runs the real program; and one package per platform,
// @askuser/linux-x64 and so on, each holding the program goreleaser built
// for it. askuser names them as optional dependencies, and npm installs
// only the one whose os and cpu match: nothing is downloaded at install
// or at run time. Run it after goreleaser, from the repository's root:
//
//	goreleaser release --clean          (or --snapshot)
//	go run ./scripts/npm                writes dist/npm/askuser and dist/npm/@askuser/*
//
// Every package takes the version of the build (the tag without its "v").
// Publishing them is left to a person (docs/development.md says how).
package main

import (
	_ "embed"
	"flag"
	"fmt"
	"os"
)

func main() {
	dist := flag.String("dist", "dist", "goreleaser's dist folder, with artifacts.json and metadata.json")
	out := flag.String("out", "dist/npm", "the folder to write the packages to; emptied first")
	flag.Parse()
	if err := build(*dist, *out); err != nil {
		fmt.Fprintln(os.Stderr, "npm:", err)
		os.Exit(1)
	}
}
