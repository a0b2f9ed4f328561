// Package cmd owns the command line of askuser: the cobra commands, a file
// each, whose flags become options with the environment variables that
// stand in for them (settings.go, the one table of every variable and of
// the flags they stand in for, registered from it; env.go, the only file
// that reads the environment, registers the flags of every command that
// asks and reads them all in the order the asker does), and whose run
// functions call the ask engine (internal/ask), which reads the questions,
// asks them, and says what each outcome means.
package cmd

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/iostreams"
)

// Build describes the running binary; release builds set it with ldflags.
type Build struct {
	Version, Commit, Date string
}

// Env is what the commands need from outside: streams, environment, the
// embedded schema and the build.
type Env struct {
	// Streams are what the ask engine takes of Env, which every command
	// that asks hands it. Main sets their WatchSignals (SIGHUP stays
	// caught, without effect, for the rest of the run), and it is used
	// only while questions are asked: a run that asks nothing (validate,
	// schema, preset answers) does not start the thread that watching
	// signals takes, and dies of a signal as any command does.
	ask.Streams
	// Getenv reads the environment: only in env.go, through the table of
	// settings.go, which names every variable askuser reads.
	Getenv func(string) string
	Schema []byte
	Build  Build
}

// Main runs askuser with the process's arguments, streams and signals, and
// returns the exit code.
func Main(schemaJSON []byte, build Build) int {
	// A reader that goes away is an error to report, not a reason to die
	// silently by SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	env := &Env{Streams: ask.Streams{IO: iostreams.System(), WatchSignals: ask.WatchSignals}, Getenv: processEnv, Schema: schemaJSON, Build: build}
	return Run(context.Background(), env, os.Args[1:])
}

// Run runs askuser with args and returns the exit code. Errors are reported
// on env.IO.ErrOut here, and only here.
func Run(ctx context.Context, env *Env, args []string) int {
	root := NewRootCmd(env)
	root.SetArgs(args)
	// cobra returns the command that ran, or that its error is about: the
	// root when no command was found, never nil.
	cmd, err := root.ExecuteContextC(ctx)
	msg, code := ask.Outcome(err, cmd.CommandPath())
	if msg != "" {
		// Nothing is left to do with a failed write of the last words.
		_, _ = io.WriteString(env.IO.ErrOut, msg)
	}
	return code
}
