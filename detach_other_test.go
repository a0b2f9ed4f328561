//go:build !unix

package main

import "os/exec"

// detach would start cmd without a terminal; outside Unix, commands are
// started as they are.
func detach(*exec.Cmd) {}
