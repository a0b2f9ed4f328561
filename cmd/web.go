package cmd

import (
	"io"

	"github.com/askuser/askuser/prompt/web"
)

// checkWebFlags refuses the web page's flags without --ui web, and --tty
// with it, before anything is read.
func checkWebFlags(mode uiMode, opts *askFlags, listenSet bool) error {
	if mode != uiWeb {
		switch {
		case listenSet:
			return usageErrorf("--listen serves the web page: add --ui web, or drop --listen")
		case opts.open:
			return usageErrorf("--open opens the web page: add --ui web, or drop --open")
		}
		return nil
	}
	if opts.tty {
		return usageErrorf("--tty does not go with --ui web: the page is answered in a browser, not on the terminal")
	}
	if listenSet {
		_, err := listenAddr(opts.listen)
		return err
	}
	return nil
}

// listenAddr reads --listen.
func listenAddr(s string) (web.Addr, error) {
	a, err := web.ParseAddr(s)
	if err != nil {
		return web.Addr{}, usageErrorf("invalid --listen %q: %s", s, err)
	}
	return a, nil
}

// newWebAsker starts listening for the web page, so that a port that cannot
// be had is reported before anything is asked.
func newWebAsker(env *Env, opts *askFlags, listenSet bool) (*asker, error) {
	s := web.DefaultAddr
	if listenSet {
		s = opts.listen
	}
	la, err := listenAddr(s)
	if err != nil {
		return nil, err
	}
	ln, host, err := web.Listen(la, env.IO.ErrOut)
	if err != nil {
		return nil, err
	}
	var open func(string) error
	if opts.open {
		browser := env.Getenv("BROWSER")
		open = func(url string) error { return web.OpenBrowser(browser, url) }
	}
	w, err := web.New(web.Options{Listener: ln, Host: host, Out: env.IO.ErrOut, Open: open})
	if err != nil {
		ln.Close()
		return nil, err
	}
	return &asker{fullAsker: w, out: env.IO.ErrOut, closers: []io.Closer{ln}}, nil
}
