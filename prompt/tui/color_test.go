package tui

import (
	"testing"
)

func TestStyleOff(t *testing.T) {
	if got := (style{}).paint("x", sgrBold, sgrGreen); got != "x" {
		t.Errorf("paint without colour = %q", got)
	}
	if got := (style{color: true}).paint("x", sgrBold, sgrGreen); got != "\x1b[1;32mx\x1b[0m" {
		t.Errorf("paint with colour = %q", got)
	}
}

func TestColorEnabled(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want bool
	}{
		{nil, true},
		{map[string]string{"TERM": "dumb"}, false},
		{map[string]string{"NO_COLOR": "1"}, false},
		{map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, false},
		{map[string]string{"CLICOLOR": "0"}, false},
		{map[string]string{"CLICOLOR": "1"}, true},
		{map[string]string{"CLICOLOR_FORCE": "1", "TERM": "dumb"}, true},
		{map[string]string{"CLICOLOR_FORCE": "1", "CLICOLOR": "0"}, true},
		{map[string]string{"CLICOLOR_FORCE": "0", "TERM": "dumb"}, false},
	}
	for _, tt := range tests {
		got := ColorEnabled(func(k string) string { return tt.env[k] })
		if got != tt.want {
			t.Errorf("ColorEnabled(%v) = %v, want %v", tt.env, got, tt.want)
		}
	}
}
