// Package cmd owns the command line of askuser: the cobra commands and their
// flags, where the questions are read from and the answers asked through,
// the output, and the mapping of every outcome to an exit code.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mattn/go-isatty"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// Build describes the running binary; release builds set it with ldflags.
type Build struct {
	Version, Commit, Date string
}

// IOStreams are the process's standard streams, injected so that every
// command runs in tests without a real terminal.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// InFile and ErrFile are In and ErrOut when they are files; the terminal
	// UI needs their descriptors.
	InFile, ErrFile *os.File
	InTTY, ErrTTY   bool
}

// System returns the streams of the process.
func System() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		InFile: os.Stdin, ErrFile: os.Stderr,
		InTTY:  isTerminal(os.Stdin),
		ErrTTY: isTerminal(os.Stderr),
	}
}

func isTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// Env is what the commands need from outside: streams, environment, the
// embedded schema and the build.
type Env struct {
	IO     *IOStreams
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
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	go func() {
		select {
		case s := <-sigs:
			cancel(&signalError{sig: s})
		case <-ctx.Done():
		}
	}()
	env := &Env{IO: System(), Getenv: os.Getenv, Schema: schemaJSON, Build: build}
	return Run(ctx, env, os.Args[1:])
}

// Run runs askuser with args and returns the exit code. Errors are reported
// on env.IO.ErrOut here, and only here.
func Run(ctx context.Context, env *Env, args []string) int {
	root := newRootCmd(env)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err != nil {
		path := root.CommandPath()
		if cmd != nil {
			path = cmd.CommandPath()
		}
		report(env.IO.ErrOut, err, path)
	}
	return exitCode(err)
}

// usageLine is shown after the errors that mean "this is not how to call me".
const usageLine = `Usage: askuser '{"questions":[...]}'`

// report writes err for a person (or a model) to read. A usage error points
// to the help of the command that was run, cmdPath.
func report(w io.Writer, err error, cmdPath string) {
	var (
		usage   *usageError
		syntax  *schema.SyntaxError
		invalid *schema.ValidationError
		large   *schema.TooLargeError
		timeout *timeoutError
		sig     *signalError
	)
	var b strings.Builder
	switch {
	case errors.Is(err, errDeclined):
		return // the exit code says it all
	case errors.As(err, &usage):
		fmt.Fprintf(&b, "Error: %s\n", capitalize(usage.msg))
		if usage.showUsage {
			b.WriteString(usageLine + "\n")
		} else {
			fmt.Fprintf(&b, "Run '%s --help' for usage.\n", cmdPath)
		}
	case errors.As(err, &syntax):
		fmt.Fprintf(&b, "Error: Invalid JSON format: %s\n%s\n", syntax, usageLine)
	case errors.As(err, &invalid):
		b.WriteString("Error: Validation failed\n")
		for _, p := range invalid.Problems {
			fmt.Fprintf(&b, "- %s\n", p)
		}
	case errors.As(err, &large):
		fmt.Fprintf(&b, "Error: Input too large: the questions are larger than 1 MiB (%d bytes); shorten them\n", schema.MaxInputSize)
	case errors.As(err, &timeout):
		fmt.Fprintf(&b, "Error: %s\n", capitalize(timeout.Error()))
	case errors.Is(err, prompt.ErrCancelled):
		b.WriteString("Error: Cancelled by the user\n")
	case errors.As(err, &sig):
		fmt.Fprintf(&b, "Error: Stopped by %s\n", signalName(sig.sig))
	case errors.Is(err, prompt.ErrNoAnswer):
		fmt.Fprintf(&b, "Error: No answer: %s\n", err)
	default:
		fmt.Fprintf(&b, "Error: %s\n", capitalize(err.Error()))
	}
	io.WriteString(w, b.String())
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
