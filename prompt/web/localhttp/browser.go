package localhttp

import (
	"cmp"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// systemOpeners are the commands that open an address on the systems
// whose opener is not xdg-open.
var systemOpeners = map[string]string{"darwin": "open", "windows": "rundll32 url.dll,FileProtocolHandler"}

// browserCommand returns the command that opens url: $BROWSER when set,
// else the system's opener; the address replaces a %s in its arguments,
// or follows them.
func browserCommand(browser, url string) *exec.Cmd {
	f := strings.Fields(browser)
	if len(f) == 0 {
		f = strings.Fields(cmp.Or(systemOpeners[runtime.GOOS], "xdg-open"))
	}
	args, placed := f[1:], false
	for i, a := range args {
		if strings.Contains(a, "%s") {
			args[i], placed = strings.ReplaceAll(a, "%s", url), true
		}
	}
	if !placed {
		args = append(args, url)
	}
	return exec.Command(f[0], args...)
}

// OpenBrowser opens url in a browser: browser ($BROWSER) when it is set,
// else the system's opener. What the opener prints is dropped:
// stdout carries only the answers. An opener that fails at once is
// reported; one still running after a moment is taken to have opened.
func OpenBrowser(browser, url string) error {
	c := browserCommand(browser, url)
	if err := c.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(c.Path), err)
		}
	case <-time.After(3 * time.Second):
	}
	return nil
}
