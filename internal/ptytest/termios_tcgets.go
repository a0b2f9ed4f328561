//go:build linux || solaris || aix

package ptytest

import "golang.org/x/sys/unix"

const ioctlGetTermios = unix.TCGETS
