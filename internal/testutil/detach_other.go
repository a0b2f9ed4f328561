//go:build !unix

package testutil

import "os/exec"

// Detach would start cmd without a terminal; outside Unix, commands are
// started as they are.
func Detach(*exec.Cmd) {}
