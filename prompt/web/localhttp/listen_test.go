package localhttp

import (
	"bytes"
	"net"
	"testing"
)

func TestParseAddr(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Addr
		err  string
	}{
		{DefaultAddr, Addr{network: "tcp4", addr: "127.0.0.1:0", host: "127.0.0.1"}, ""},
		{"[::1]:8080", Addr{network: "tcp6", addr: "[::1]:8080", host: "::1"}, ""},
		{"LocalHost:0", Addr{network: "tcp", addr: "localhost:0", host: "localhost"}, ""},
		{":8080", Addr{network: "tcp", addr: ":8080"}, ""},
		{"0.0.0.0:0", Addr{network: "tcp4", addr: "0.0.0.0:0", host: "0.0.0.0"}, ""},
		{"192.168.1.5:80", Addr{network: "tcp4", addr: "192.168.1.5:80", host: "192.168.1.5"}, ""},
		{"nonsense", Addr{}, "want HOST:PORT, such as 127.0.0.1:8080, localhost:0 or :8080"},
		{"127.0.0.1:65536", Addr{}, "the port must be a number from 0 to 65535"},
		{"127.0.0.1:http", Addr{}, "the port must be a number from 0 to 65535"},
		{"example.com:8080", Addr{}, "the host must be an IP address or localhost"},
	} {
		got, err := ParseAddr(tc.in)
		if msg := errString(err); got != tc.want || msg != tc.err {
			t.Errorf("ParseAddr(%q) = %+v, %q; want %+v, %q", tc.in, got, msg, tc.want, tc.err)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// The page is served where the address says, shown by the name it was
// given, and a warning is written only when it is served beyond this
// machine.
func TestListen(t *testing.T) {
	for _, tc := range []struct {
		addr, host string
		warns      bool
	}{
		{DefaultAddr, "", false},
		{"localhost:0", "localhost", false},
		{"0.0.0.0:0", outwardIP(), true},
	} {
		a, err := ParseAddr(tc.addr)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		ln, host, err := Listen(a, "the page", &out)
		if err != nil {
			t.Fatalf("Listen(%s): %v", tc.addr, err)
		}
		ln.Close()
		if host != tc.host || (out.Len() > 0) != tc.warns {
			t.Errorf("Listen(%s): host %q, warning %q; want host %q, warning %v", tc.addr, host, out.String(), tc.host, tc.warns)
		}
	}
}

func TestHostPort(t *testing.T) {
	addr := &net.TCPAddr{IP: net.IPv4zero, Port: 8080}
	for host, want := range map[string]string{"": "0.0.0.0:8080", "localhost": "localhost:8080", "192.0.2.7": "192.0.2.7:8080", "2001:db8::1": "[2001:db8::1]:8080"} {
		if got := HostPort(host, addr); got != want {
			t.Errorf("HostPort(%q, %s) = %q, want %q", host, addr, got, want)
		}
	}
	// A listener's own address is shown as it is, zone and all.
	zoned := &net.TCPAddr{IP: net.ParseIP("fe80::1"), Port: 8080, Zone: "eth0"}
	if got := HostPort("", zoned); got != zoned.String() {
		t.Errorf("HostPort(\"\", %s) = %q", zoned, got)
	}
}
