package inbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"
)

// EnvAddr is the variable that both sides read for the inbox's address, so
// that one export (or none) pairs them.
const EnvAddr = "ASKUSER_INBOX"

// MinTokenLength is the shortest token an address over TCP may carry: a
// token that can be guessed lets anyone answer.
const MinTokenLength = 16

// Addr is where an inbox is found: a Unix socket, an address over TCP
// with its token, or an inbox on a server of another transport (Remote).
type Addr struct {
	// Path is the Unix socket's path; "" for an address over TCP.
	Path string
	// Host is HOST:PORT for an address over TCP.
	Host string
	// Token is what every request over TCP must carry.
	Token string
	// Remote is an inbox on a server that both sides connect out to (a
	// NATS server, see package natsinbox); nil for the others.
	Remote Remote
}

// Remote is the address of an inbox whose askers and inbox meet on a
// server (NATS): its sets wait there, and outlive the inbox. It dials and
// listens itself, so that nothing above this package knows the transport.
type Remote interface {
	// String is the address as messages show it: no credentials.
	String() string
	// URL is the address whole, as ASKUSER_INBOX holds it.
	URL() string
	// Dial returns the transport an asker reaches the inbox with.
	Dial() Transport
	// Listen returns how the inbox is reached there; out receives what
	// the person should know (where askers reach it, what arrived that
	// cannot be opened).
	Listen(out io.Writer) (Listener, error)
}

// remoteSchemes parse the addresses of Remote inboxes, by scheme
// ("nats", "tls"): a transport's package adds its own (RegisterRemote), as
// database/sql's drivers do, so that this package does not depend on it.
var remoteSchemes = map[string]func(string) (Remote, error){}

// RegisterRemote has ParseAddr read the addresses of the schemes given
// with parse, which returns a *ServerError for one it cannot use. It is
// called from a transport package's init.
func RegisterRemote(parse func(string) (Remote, error), schemes ...string) {
	for _, s := range schemes {
		remoteSchemes[s] = parse
	}
}

// IsTCP reports whether the address is over TCP rather than a Unix socket.
func (a Addr) IsTCP() bool { return a.Path == "" && a.Remote == nil }

// String is the address as messages show it: the socket's path, or
// http://HOST:PORT without the token, which is a secret.
func (a Addr) String() string {
	if a.Remote != nil {
		return a.Remote.String()
	}
	if a.IsTCP() {
		return "http://" + a.Host
	}
	return a.Path
}

// URL is the address with its token, as ASKUSER_INBOX holds it: for the
// person to pass on to askers on other machines.
func (a Addr) URL() string {
	if a.Remote != nil {
		return a.Remote.URL()
	}
	if !a.IsTCP() {
		return a.Path
	}
	return "http://" + a.Host + "/?token=" + url.QueryEscape(a.Token)
}

// AddrFromEnv returns the inbox's address: ASKUSER_INBOX when it is set,
// else the default (DefaultAddr). A value that is not an address is an
// error that names the variable.
func AddrFromEnv(getenv func(string) string) (Addr, error) {
	v := strings.TrimSpace(getenv(EnvAddr))
	if v == "" {
		return DefaultAddr(getenv), nil
	}
	a, err := ParseAddr(v)
	var server *ServerError
	if errors.As(err, &server) {
		// The value may hold a password: it is not repeated.
		return Addr{}, &ServerError{Msg: fmt.Sprintf("invalid %s: %s", EnvAddr, server.Msg), Err: server.Err}
	}
	if err != nil {
		return Addr{}, fmt.Errorf("invalid %s %q: %w", EnvAddr, v, err)
	}
	return a, nil
}

// ParseAddr reads an address as ASKUSER_INBOX holds it: a socket path,
// unix:PATH, http://HOST:PORT/?token=T, or the address of a Remote inbox
// (nats:// or tls://, once package natsinbox is linked in). A relative
// path is taken from the working directory.
func ParseAddr(s string) (Addr, error) {
	s = strings.TrimSpace(s)
	scheme, _, hasScheme := strings.Cut(s, "://")
	scheme = strings.ToLower(scheme)
	switch {
	case s == "":
		return Addr{}, errors.New("the address is empty")
	case strings.HasPrefix(s, "unix:"):
		return socketAddr(strings.TrimPrefix(s, "unix:"))
	case hasScheme && scheme == "http":
		return tcpAddr(s)
	case hasScheme && remoteSchemes[scheme] != nil:
		r, err := remoteSchemes[scheme](s)
		if err != nil {
			return Addr{}, err
		}
		return Addr{Remote: r}, nil
	case hasScheme:
		return Addr{}, errors.New("want a socket path, unix:PATH, http://HOST:PORT/?token=TOKEN or nats://HOST:PORT/NAME?to=age1... (an inbox is not served over https: forward its socket with ssh -R instead)")
	}
	if r := mistyped(s); r != "" {
		return Addr{}, &ServerError{Msg: fmt.Sprintf("the address begins like an address on %s but lacks \"://\": want %s://HOST[:PORT][/NAME][?to=age1...], as askuser inbox prints it", r, r)}
	}
	return socketAddr(s)
}

// mistyped returns the scheme of a Remote address that s begins with but
// for its "://" (nats//host, nats:host), or "": such a typo would be read
// as a socket path, and its error would name the wrong thing.
func mistyped(s string) string {
	lower := strings.ToLower(s)
	for scheme := range remoteSchemes {
		if rest, ok := strings.CutPrefix(lower, scheme); ok && (strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "//")) {
			return scheme
		}
	}
	return ""
}

func socketAddr(p string) (Addr, error) {
	if p == "" {
		return Addr{}, errors.New("unix: needs a socket path after it")
	}
	if strings.ContainsRune(p, 0) {
		return Addr{}, errors.New("a socket path cannot hold a NUL byte")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return Addr{}, fmt.Errorf("socket path: %w", err)
	}
	return Addr{Path: abs}, nil
}

func tcpAddr(s string) (Addr, error) {
	u, err := url.Parse(s)
	if err != nil {
		return Addr{}, errors.New("want http://HOST:PORT/?token=TOKEN, as askuser inbox --listen prints it")
	}
	host, port, err := net.SplitHostPort(u.Host)
	switch {
	case err != nil || host == "":
		return Addr{}, errors.New("want http://HOST:PORT/?token=TOKEN: the host and port are missing")
	case u.User != nil:
		return Addr{}, errors.New("want http://HOST:PORT/?token=TOKEN, without a user name")
	case u.Path != "" && u.Path != "/":
		return Addr{}, errors.New("want http://HOST:PORT/?token=TOKEN, without a path")
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || n == 0 {
		return Addr{}, errors.New("the port must be a number from 1 to 65535")
	}
	token := u.Query().Get("token")
	switch {
	case token == "":
		return Addr{}, errors.New("the token is missing: use the whole address that askuser inbox printed, ?token=... included")
	case utf8.RuneCountInString(token) < MinTokenLength:
		return Addr{}, fmt.Errorf("the token is too short: use at least %d characters, or the one that askuser inbox printed", MinTokenLength)
	}
	return Addr{Host: u.Host, Token: token}, nil
}

// runUser is where the system keeps each user's runtime directory
// (/run/user/UID, made by systemd-logind) when XDG_RUNTIME_DIR is not set:
// agent tools start MCP servers with a stripped environment (Codex passes
// only HOME, PATH, LANG, TERM and SHELL).
const runUser = "/run/user"

// DefaultAddr is the address without ASKUSER_INBOX, the same for the inbox
// and its askers: $XDG_RUNTIME_DIR/askuser/inbox.sock; without
// XDG_RUNTIME_DIR, /run/user/UID/askuser/inbox.sock or
// askuser-UID/inbox.sock in the temporary directory ($TMPDIR, else /tmp),
// whichever has a socket, in that order; with neither, the first when
// /run/user/UID is the user's directory, else the second. So an asker whose
// environment lost XDG_RUNTIME_DIR still finds the inbox that the person
// started with it.
func DefaultAddr(getenv func(string) string) Addr {
	return defaultAddr(getenv, runUser, os.Getuid())
}

// defaultAddr is DefaultAddr for user uid (-1 where the system has no user
// ids), with the runtime directories under root.
func defaultAddr(getenv func(string) string, root string, uid int) Addr {
	if d := getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		return Addr{Path: filepath.Join(d, "askuser", "inbox.sock")}
	}
	tmp := getenv("TMPDIR")
	if tmp == "" || !filepath.IsAbs(tmp) {
		tmp = "/tmp"
		if runtime.GOOS == "windows" {
			tmp = os.TempDir()
		}
	}
	dir := "askuser"
	if uid >= 0 {
		dir += "-" + strconv.Itoa(uid)
	}
	temp := filepath.Join(tmp, dir, "inbox.sock")
	if uid < 0 {
		return Addr{Path: temp}
	}
	userDir := filepath.Join(root, strconv.Itoa(uid))
	run := filepath.Join(userDir, "askuser", "inbox.sock")
	switch {
	case isSocket(run):
		return Addr{Path: run}
	case isSocket(temp):
		return Addr{Path: temp}
	case ownDir(userDir, uid):
		return Addr{Path: run}
	}
	return Addr{Path: temp}
}

// isSocket reports whether a socket is at path (not through a link).
func isSocket(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSocket != 0
}

// ownDir reports whether dir is a directory (not a link) of user uid's.
func ownDir(dir string, uid int) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	owner, ok := fileOwner(fi)
	return ok && owner == uid
}
