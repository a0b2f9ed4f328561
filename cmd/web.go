package cmd

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/askuser/askuser/prompt/web"
)

// defaultListen is where the page is served unless --listen says otherwise:
// this machine only, on a port the system picks.
const defaultListen = "127.0.0.1:0"

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
		_, err := parseListen(opts.listen)
		return err
	}
	return nil
}

// listenAddr is a checked --listen value.
type listenAddr struct {
	network  string // for net.Listen: tcp4 or tcp6 for an IP address of that kind
	addr     string // for net.Listen
	host     string // "" (every interface), "localhost" or an IP address
	loopback bool
}

// parseListen checks a --listen value: HOST:PORT, where HOST is an IP
// address, localhost, or empty for every interface. Host names are refused:
// the page answers only to addresses a DNS-rebinding attacker cannot take.
func parseListen(s string) (listenAddr, error) {
	bad := func(why string) error { return usageErrorf("invalid --listen %q: %s", s, why) }
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return listenAddr{}, bad("want HOST:PORT, such as 127.0.0.1:8080, localhost:0 or :8080")
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return listenAddr{}, bad("the port must be a number from 0 to 65535")
	}
	la := listenAddr{network: "tcp", addr: s, host: host}
	switch ip := net.ParseIP(host); {
	case host == "":
	case strings.EqualFold(host, "localhost"):
		la.host, la.loopback = "localhost", true
		la.addr = net.JoinHostPort("localhost", port)
	case ip == nil:
		return listenAddr{}, bad("the host must be an IP address or localhost")
	default:
		la.loopback = ip.IsLoopback()
		if la.network = "tcp6"; ip.To4() != nil {
			la.network = "tcp4"
		}
	}
	return la, nil
}

// newWebAsker starts listening for the web page, so that a port that cannot
// be had is reported before anything is asked.
func newWebAsker(env *Env, opts *askFlags, listenSet bool) (*asker, error) {
	la := listenAddr{network: "tcp4", addr: defaultListen, host: "127.0.0.1", loopback: true}
	if listenSet {
		var err error
		if la, err = parseListen(opts.listen); err != nil {
			return nil, err
		}
	}
	ln, err := net.Listen(la.network, la.addr)
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) {
			err = op.Err
		}
		return nil, fmt.Errorf("cannot serve the page on %s: %w", la.addr, err)
	}
	// The address shown: localhost as asked for, this machine's address on
	// every interface, else the address listened on.
	tcp := ln.Addr().(*net.TCPAddr)
	display, where := "", tcp.String()
	switch {
	case la.host == "localhost":
		display = "localhost"
	case tcp.IP.IsUnspecified():
		display = outwardIP()
		where = fmt.Sprintf("every interface, port %d", tcp.Port)
	}
	if !la.loopback {
		fmt.Fprintf(env.IO.ErrOut, "Warning: the page is served beyond this machine, on %s: anyone who can reach it and has the address can answer, and the address travels unencrypted.\n", where)
	}
	var open func(string) error
	if opts.open {
		browser := env.Getenv("BROWSER")
		open = func(url string) error { return openBrowser(browser, url) }
	}
	w, err := web.New(web.Options{Listener: ln, Host: display, Out: env.IO.ErrOut, Open: open})
	if err != nil {
		ln.Close()
		return nil, err
	}
	return &asker{fullAsker: w, out: env.IO.ErrOut, closers: []io.Closer{ln}}, nil
}

// outwardIP is an address of this machine that another machine may reach
// it on: the first IPv4 address of an interface that is up and not
// loopback, else localhost.
func outwardIP() string {
	ifaces, err := net.Interfaces()
	if err != nil {
		return "localhost"
	}
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && n.IP.IsGlobalUnicast() {
				return n.IP.String()
			}
		}
	}
	return "localhost"
}

// browserCommand is the command that opens url: $BROWSER when set (the
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

// openBrowser opens url in a browser. What the opener prints is dropped:
// stdout carries only the answers. An opener that fails at once is
// reported; one still running after a moment is taken to have opened.
func openBrowser(browser, url string) error {
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
