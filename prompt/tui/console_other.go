//go:build !windows

package tui

// setUpOutput prepares the output terminal for escape sequences and returns
// how to undo that. Terminals outside Windows understand them already.
func setUpOutput(int) func() { return func() {} }
