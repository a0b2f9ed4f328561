package inbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestParseAddr(t *testing.T) {
	wd, _ := os.Getwd()
	token := strings.Repeat("t", MinTokenLength)
	for _, c := range []struct {
		in   string
		want Addr
	}{
		{"/run/user/1000/askuser/inbox.sock", Addr{Path: "/run/user/1000/askuser/inbox.sock"}},
		{"unix:/tmp/x/inbox.sock", Addr{Path: "/tmp/x/inbox.sock"}},
		{"  unix:/tmp/x/../y/inbox.sock ", Addr{Path: "/tmp/y/inbox.sock"}},
		{"rel/inbox.sock", Addr{Path: filepath.Join(wd, "rel/inbox.sock")}},
		{"http://127.0.0.1:7777/?token=" + token, Addr{Host: "127.0.0.1:7777", Token: token}},
		{"http://host.docker.internal:7777?token=" + token, Addr{Host: "host.docker.internal:7777", Token: token}},
		{"HTTP://[::1]:7777/?token=" + token, Addr{Host: "[::1]:7777", Token: token}},
	} {
		got, err := ParseAddr(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseAddr(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, problem string }{
		{"", "empty"},
		{"unix:", "needs a socket path"},
		{"https://127.0.0.1:7777/?token=" + token, "not served over https"},
		{"ftp://x", "want a socket path"},
		{"http://127.0.0.1:7777/", "token is missing"},
		{"http://127.0.0.1:7777/?token=short", "too short"},
		{"http://127.0.0.1/?token=" + token, "host and port"},
		{"http://:7777/?token=" + token, "host and port"},
		{"http://127.0.0.1:0/?token=" + token, "port"},
		{"http://127.0.0.1:99999/?token=" + token, "port"},
		{"http://u:p@127.0.0.1:7777/?token=" + token, "user name"},
		{"http://127.0.0.1:7777/inbox?token=" + token, "without a path"},
		{"/tmp/a\x00b", "NUL"},
	} {
		if got, err := ParseAddr(c.in); err == nil || !strings.Contains(err.Error(), c.problem) {
			t.Errorf("ParseAddr(%q) = %+v, %v; want an error about %q", c.in, got, err, c.problem)
		}
	}
}

// The address prints without its token, and with it only where asked.
func TestAddrString(t *testing.T) {
	a := Addr{Host: "127.0.0.1:7777", Token: "secret-secret-secret"}
	if got := a.String(); got != "http://127.0.0.1:7777" {
		t.Errorf("String() = %q", got)
	}
	if got := a.URL(); got != "http://127.0.0.1:7777/?token=secret-secret-secret" {
		t.Errorf("URL() = %q", got)
	}
	back, err := ParseAddr(a.URL())
	if err != nil || back != a {
		t.Errorf("ParseAddr(URL()) = %+v, %v", back, err)
	}
}

func TestAddrFromEnv(t *testing.T) {
	uid := strconv.Itoa(os.Getuid())
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{"ASKUSER_INBOX": "/x/inbox.sock", "XDG_RUNTIME_DIR": "/run/user/1"}, "/x/inbox.sock"},
		{map[string]string{"XDG_RUNTIME_DIR": "/run/user/1", "TMPDIR": "/var/tmp"}, "/run/user/1/askuser/inbox.sock"},
		{map[string]string{"XDG_RUNTIME_DIR": "relative", "TMPDIR": "/var/tmp"}, "/var/tmp/askuser-" + uid + "/inbox.sock"},
		{map[string]string{"TMPDIR": "/var/tmp"}, "/var/tmp/askuser-" + uid + "/inbox.sock"},
		{map[string]string{}, "/tmp/askuser-" + uid + "/inbox.sock"},
	} {
		got, err := AddrFromEnv(env(c.vars))
		if err != nil || got.Path != c.want {
			t.Errorf("AddrFromEnv(%v) = %+v, %v; want %s", c.vars, got, err, c.want)
		}
	}
	_, err := AddrFromEnv(env(map[string]string{"ASKUSER_INBOX": "https://x:1/"}))
	if err == nil || !strings.HasPrefix(err.Error(), `invalid ASKUSER_INBOX "https://x:1/": `) {
		t.Errorf("a bad ASKUSER_INBOX: %v", err)
	}
}
