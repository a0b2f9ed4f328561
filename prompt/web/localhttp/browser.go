package localhttp

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// browserCommand returns the command that opens url: $BROWSER when set (the
// address replaces a %s in it, or follows it), else the system's opener.
func browserCommand(browser, url string) *exec.Cmd {
	if f := strings.Fields(browser); len(f) > 0 {
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
	switch runtime.GOOS {
	case "darwin":
		return exec.Command("open", url)
	case "windows":
		return exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	}
	return exec.Command("xdg-open", url)
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
