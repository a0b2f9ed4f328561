//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package ptytest

import "golang.org/x/sys/unix"

const ioctlGetTermios = unix.TIOCGETA
