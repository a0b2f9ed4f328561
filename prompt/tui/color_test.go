package tui

import (
	"testing"
)

func TestStyleOff(t *testing.T) {
	if got := (&Prompter{}).paint("x", sgrBold, sgrGreen); got != "x" {
		t.Errorf("paint without colour = %q", got)
	}
	if got := (&Prompter{Options: Options{Color: true}}).paint("x", sgrBold, sgrGreen); got != "\x1b[1;32mx\x1b[0m" {
		t.Errorf("paint with colour = %q", got)
	}
}
