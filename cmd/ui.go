package cmd

import (
	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/prompt/web"
)

func parseUI(s string) (ask.UI, error) {
	switch m := ask.UI(s); m {
	case ask.UIAuto, ask.UITUI, ask.UILine, ask.UIWeb, ask.UIInbox:
		return m, nil
	}
	return "", ask.UsageErrorf("invalid --ui %q: must be auto, tui, line, web or inbox", s)
}

// checkWebFlags refuses the web page's flags without --ui web, and --tty
// with it, before anything is read. With --ui web, it returns where to
// serve the page.
func checkWebFlags(mode ask.UI, f *askFlags, listenSet bool) (web.Addr, error) {
	if mode != ask.UIWeb {
		switch {
		case listenSet:
			return web.Addr{}, ask.UsageErrorf("--listen serves the web page: add --ui web, or drop --listen")
		case f.open:
			return web.Addr{}, ask.UsageErrorf("--open opens the web page: add --ui web, or drop --open")
		}
		return web.Addr{}, nil
	}
	if f.tty {
		return web.Addr{}, ask.UsageErrorf("--tty does not go with --ui web: the page is answered in a browser, not on the terminal")
	}
	listen := web.DefaultAddr
	if listenSet {
		listen = f.listen
	}
	a, err := web.ParseAddr(listen)
	if err != nil {
		return web.Addr{}, ask.UsageErrorf("invalid --listen %q: %s", listen, err)
	}
	return a, nil
}

// accessible reports whether the person asked for plain line prompts, for
// a screen reader (ACCESSIBLE, a boolean) or a terminal without cursor
// control (TERM=dumb).
func accessible(getenv func(string) string) (bool, error) {
	on, _, err := envBool(getenv, "ACCESSIBLE")
	return on || getenv("TERM") == "dumb", err
}
