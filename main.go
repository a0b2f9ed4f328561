// Command askuser asks the person at the keyboard multiple-choice questions
// and prints the answers as JSON. See README.md and "askuser docs".
package main

import (
	_ "embed"
	"os"

	"github.com/askuser/askuser/cmd"
)

// Set by release builds with -ldflags "-X main.version=...".
var (
	version string
	commit  string
	date    string
)

//go:embed schema.json
var schemaJSON []byte

func main() {
	os.Exit(cmd.Main(schemaJSON, cmd.Build{Version: version, Commit: commit, Date: date}))
}
