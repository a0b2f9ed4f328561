package inbox

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestParseAddr(t *testing.T) {
	wd, _ := os.Getwd()
	token := strings.Repeat("t", minTokenLength)
	for _, c := range []struct {
		in   string
		want Addr
	}{
		{"/run/user/1000/askuser/inbox.sock", SocketAddr("/run/user/1000/askuser/inbox.sock")},
		{"unix:/tmp/x/inbox.sock", SocketAddr("/tmp/x/inbox.sock")},
		{"  unix:/tmp/x/../y/inbox.sock ", SocketAddr("/tmp/y/inbox.sock")},
		{"rel/inbox.sock", SocketAddr(filepath.Join(wd, "rel/inbox.sock"))},
		{"http://127.0.0.1:7777/?token=" + token, TCPAddr{Host: "127.0.0.1:7777", Token: token}},
		{"http://host.docker.internal:7777?token=" + token, TCPAddr{Host: "host.docker.internal:7777", Token: token}},
		{"HTTP://[::1]:7777/?token=" + token, TCPAddr{Host: "[::1]:7777", Token: token}},
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
	a := TCPAddr{Host: "127.0.0.1:7777", Token: "secret-secret-secret"}
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

// An inbox listens over TCP only on a host of this machine, and --listen
// beside it takes its token.
func TestCanListen(t *testing.T) {
	token := strings.Repeat("t", minTokenLength)
	for _, c := range []struct {
		a       Addr
		problem string
	}{
		{SocketAddr("/tmp/inbox.sock"), ""},
		{TCPAddr{Host: "127.0.0.1:7777", Token: token}, ""},
		{TCPAddr{Host: "host.docker.internal:7777", Token: token}, "ASKUSER_INBOX is http://host.docker.internal:7777: the inbox cannot listen there: the host must be an IP address or localhost"},
	} {
		if err := CanListen(c.a); c.problem == "" && err != nil || c.problem != "" && (err == nil || err.Error() != c.problem) {
			t.Errorf("CanListen(%s) = %v, want %q", c.a, err, c.problem)
		}
	}
	if got := TokenBeside(TCPAddr{Host: "127.0.0.1:7777", Token: token}); got != token {
		t.Errorf("TokenBeside(TCP) = %q", got)
	}
	if got := TokenBeside(SocketAddr("/tmp/inbox.sock")); len(got) < minTokenLength {
		t.Errorf("TokenBeside(socket) = %q", got)
	}
}

func TestWhereAddr(t *testing.T) {
	for _, c := range []struct {
		w    Where
		want string
	}{
		{Where{Inbox: "/x/inbox.sock", RuntimeDir: "/run/user/1"}, "/x/inbox.sock"},
		{Where{Inbox: " unix:/x/inbox.sock\n"}, "/x/inbox.sock"},
		{Where{RuntimeDir: "/run/user/1", TempDir: "/var/tmp"}, "/run/user/1/askuser/inbox.sock"},
	} {
		got, err := c.w.Addr()
		if err != nil || got.String() != c.want {
			t.Errorf("%+v.Addr() = %+v, %v; want %s", c.w, got, err, c.want)
		}
	}
	_, err := Where{Inbox: "https://x:1/"}.Addr()
	if err == nil || !strings.HasPrefix(err.Error(), `invalid ASKUSER_INBOX "https://x:1/": `) {
		t.Errorf("a bad ASKUSER_INBOX: %v", err)
	}
}

// The default address, on a machine whose runtime directories
// (/run/user/UID) are made by the test: both sides agree on it, and an
// asker whose environment lost XDG_RUNTIME_DIR finds the inbox that was
// started with it.
func TestDefaultAddr(t *testing.T) {
	self := os.Getuid()
	for _, c := range []struct {
		name    string
		xdg     string // "run" for the user's runtime directory
		runDir  string // the user's runtime directory: "", "own", "other's" or "link"
		runSock bool   // a socket at runtime/askuser/inbox.sock
		tmpSock bool   // a socket at TMPDIR/askuser-UID/inbox.sock
		noTmp   bool   // TMPDIR not set
		want    string // "run", "tmp", "/tmp" or "xdg"
	}{
		{name: "XDG_RUNTIME_DIR first", xdg: "/xdg", runDir: "own", runSock: true, tmpSock: true, want: "xdg"},
		{name: "XDG_RUNTIME_DIR of the runtime directory", xdg: "run", runDir: "own", want: "run"},
		{name: "a relative XDG_RUNTIME_DIR is not used", xdg: "relative", want: "tmp"},
		{name: "no runtime directory", want: "tmp"},
		{name: "no runtime directory, no TMPDIR", noTmp: true, want: "/tmp"},
		{name: "the runtime directory", runDir: "own", want: "run"},
		{name: "another user's runtime directory", runDir: "other's", want: "tmp"},
		{name: "a link for a runtime directory", runDir: "link", want: "tmp"},
		{name: "the socket in the runtime directory", runDir: "own", runSock: true, want: "run"},
		{name: "the socket in the temporary directory", runDir: "own", tmpSock: true, want: "tmp"},
		{name: "both sockets", runDir: "own", runSock: true, tmpSock: true, want: "run"},
		{name: "the socket without its runtime directory being the user's", runDir: "other's", runSock: true, want: "run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, tmp := t.TempDir(), t.TempDir()
			uid := self
			if c.runDir == "other's" {
				uid = self + 1 // the directory the test makes is not theirs
			}
			runDir := filepath.Join(root, strconv.Itoa(uid))
			runPath := filepath.Join(runDir, "askuser", "inbox.sock")
			tmpPath := filepath.Join(tmp, "askuser-"+strconv.Itoa(uid), "inbox.sock")
			switch c.runDir {
			case "own", "other's":
				mkdir(t, runDir)
			case "link":
				target := t.TempDir()
				if err := os.Symlink(target, runDir); err != nil {
					t.Fatal(err)
				}
			}
			if c.runSock {
				leaveSocket(t, runPath)
			}
			if c.tmpSock {
				leaveSocket(t, tmpPath)
			}
			w := Where{TempDir: tmp, RuntimeDir: c.xdg}
			if c.xdg == "run" {
				w.RuntimeDir = runDir
			}
			if c.noTmp {
				w.TempDir = ""
			}
			want := map[string]string{
				"run":  runPath,
				"tmp":  tmpPath,
				"/tmp": filepath.Join("/tmp", "askuser-"+strconv.Itoa(uid), "inbox.sock"),
				"xdg":  "/xdg/askuser/inbox.sock",
			}[c.want]
			got := defaultAddr(w, root, uid)
			if string(got) != want {
				t.Errorf("defaultAddr = %s; want %s", got, want)
			}
		})
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
}

// leaveSocket leaves a socket at path that nothing accepts on.
func leaveSocket(t *testing.T, path string) {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
}
