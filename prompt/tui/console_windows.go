//go:build windows

package tui

import "golang.org/x/sys/windows"

// setUpOutput turns on escape-sequence processing in a Windows console and
// returns how to turn it back off (or to do nothing, when it was on or
// cannot be turned on).
func setUpOutput(fd int) func() {
	h := windows.Handle(fd)
	var mode uint32
	if windows.GetConsoleMode(h, &mode) != nil {
		return func() {}
	}
	want := mode | windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING | windows.ENABLE_PROCESSED_OUTPUT
	if want == mode || windows.SetConsoleMode(h, want) != nil {
		return func() {}
	}
	return func() { _ = windows.SetConsoleMode(h, mode) }
}
