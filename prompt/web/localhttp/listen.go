package localhttp

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"
)

// DefaultAddr is where the page is served unless the caller says
// otherwise: this machine only, on a port the system picks.
const DefaultAddr = "127.0.0.1:0"

// Addr is a checked address to serve the page on.
type Addr struct {
	network string // for net.Listen: tcp4 or tcp6 for an IP address of that kind
	addr    string // for net.Listen
	host    string // "" (every interface), "localhost" or an IP address
}

// ParseAddr checks an address to serve the page on: HOST:PORT, where HOST
// is an IP address, localhost, or empty for every interface. Host names
// are refused: the page answers only to addresses a DNS-rebinding attacker
// cannot take. The error says what is wrong, for the caller to name the
// value it came from.
func ParseAddr(s string) (Addr, error) {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return Addr{}, errors.New("want HOST:PORT, such as 127.0.0.1:8080, localhost:0 or :8080")
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return Addr{}, errors.New("the port must be a number from 0 to 65535")
	}
	a := Addr{network: "tcp", addr: s, host: host}
	switch ip := net.ParseIP(host); {
	case host == "":
	case strings.EqualFold(host, "localhost"):
		a.host = "localhost"
		a.addr = net.JoinHostPort("localhost", port)
	case ip == nil:
		return Addr{}, errors.New("the host must be an IP address or localhost")
	default:
		if a.network = "tcp6"; ip.To4() != nil {
			a.network = "tcp4"
		}
	}
	return a, nil
}

// Listen starts listening on a for what is served, named in its messages
// ("the page", "the inbox"), so that an address that cannot be had is
// reported before anything is asked. It returns the listener and the host
// to show in the page's address (for NewGuard), and warns on out when it
// is served beyond this machine. An address that cannot be listened on (a
// port in use, an address not on this machine) is said briefly, for the
// caller to say what that means.
func Listen(a Addr, what string, out io.Writer) (net.Listener, string, error) {
	ln, err := net.Listen(a.network, a.addr)
	if err != nil {
		// "listen tcp4 127.0.0.1:8080: bind: address already in use" says
		// three times what the address and the page say once: the system's
		// error number, however deep, says it alone.
		if errno, ok := errors.AsType[syscall.Errno](err); ok {
			err = errno
		}
		return nil, "", fmt.Errorf("cannot serve %s on %s: %w", what, a.addr, err)
	}
	// The address shown: localhost as asked for, this machine's address on
	// every interface, else the address listened on.
	tcp := ln.Addr().(*net.TCPAddr)
	display, where := "", tcp.String()
	switch {
	case a.host == "localhost":
		display = "localhost"
	case tcp.IP.IsUnspecified():
		display = outwardIP()
		where = fmt.Sprintf("every interface, port %d", tcp.Port)
	}
	if !tcp.IP.IsLoopback() {
		// A warning that cannot be written has nowhere else to go.
		_, _ = fmt.Fprintf(out, "Warning: %s is served beyond this machine, on %s: anyone who can reach it and has the address can answer, and the address travels unencrypted.\n", what, where)
	}
	return ln, display, nil
}

// HostPort returns the address to show for a listener on addr, whose host is
// shown as host, as Listen returns it ("" for addr's own).
func HostPort(host string, addr net.Addr) string {
	own, port, _ := net.SplitHostPort(addr.String())
	return net.JoinHostPort(cmp.Or(host, own), port)
}

// outwardIP returns an address of this machine that another machine may reach
// it on: the first IPv4 address of an interface that is up and not
// loopback, else localhost.
func outwardIP() string {
	// Interfaces or addresses that cannot be listed offer none.
	ifaces, _ := net.Interfaces()
	for _, ifc := range ifaces {
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			n, ok := a.(*net.IPNet)
			if ok && ifc.Flags&(net.FlagUp|net.FlagLoopback) == net.FlagUp && n.IP.To4() != nil && n.IP.IsGlobalUnicast() {
				return n.IP.String()
			}
		}
	}
	return "localhost"
}
