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
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web/localhttp"
)

// EnvAddr is the variable that gives the inbox's address (see Where), as
// messages name it.
const EnvAddr = "ASKUSER_INBOX"

// minTokenLength is the shortest token an address over TCP may carry: a
// token that can be guessed lets anyone answer.
const minTokenLength = 16

// Addr is where an inbox is found, one of three: its Unix socket
// (SocketAddr), an address over TCP with its token (TCPAddr), or an inbox
// on a server that both sides connect out to, where its sets wait and
// outlive it (NATS: package natsinbox parses it, see Remote). Each
// dials and listens itself, so that nothing above this package knows
// which it is.
type Addr interface {
	// String is the address as messages show it: no token, no
	// credentials.
	String() string
	// URL is the address whole, as ASKUSER_INBOX holds it: for the person
	// to pass on to askers elsewhere.
	URL() string
	// Dial returns the transport an asker reaches the inbox with.
	Dial() Transport
	// Listen returns how the inbox is reached there; out receives what
	// the person should know (where askers reach it, what arrived that
	// cannot be opened). An error of a server that cannot be used is a
	// *prompt.UnavailableError.
	Listen(out io.Writer) (Listener, error)
	// Durable reports whether the sets wait at the address while no inbox
	// runs: on a server, for the next inbox.
	Durable() bool
}

// SocketAddr is the path of an inbox's Unix socket.
type SocketAddr string

// String is the socket's path.
func (a SocketAddr) String() string { return string(a) }

// URL is the socket's path, as ASKUSER_INBOX holds it.
func (a SocketAddr) URL() string { return string(a) }

// Dial returns the HTTP client of the inbox on the socket.
func (a SocketAddr) Dial() Transport { return newClient(a) }

// Durable is false: the sets end with the inbox.
func (a SocketAddr) Durable() bool { return false }

// Listen listens on the socket (see ListenSocket).
func (a SocketAddr) Listen(io.Writer) (Listener, error) {
	ln, err := ListenSocket(string(a))
	if err != nil {
		return nil, err
	}
	return SocketListener{Listener: ln}, nil
}

// TCPAddr is an inbox over TCP: its HOST:PORT, and the token that every
// request must carry.
type TCPAddr struct {
	Host, Token string
}

// String is http://HOST:PORT, without the token, which is a secret.
func (a TCPAddr) String() string { return "http://" + a.Host }

// URL is the address with its token, as ASKUSER_INBOX holds it.
func (a TCPAddr) URL() string { return "http://" + a.Host + "/?token=" + url.QueryEscape(a.Token) }

// Dial returns the HTTP client of the inbox over TCP.
func (a TCPAddr) Dial() Transport { return newClient(a) }

// Durable is false: the sets end with the inbox.
func (a TCPAddr) Durable() bool { return false }

// Listen listens on the address, which CanListen has checked, behind its
// token.
func (a TCPAddr) Listen(out io.Writer) (Listener, error) {
	l, err := localhttp.ParseAddr(a.Host)
	if err != nil {
		return nil, err
	}
	ln, host, err := localhttp.Listen(l, "the inbox", out)
	if err != nil {
		return nil, &prompt.UnavailableError{Err: err}
	}
	return TCPListener{Listener: ln, Host: host, Token: a.Token}, nil
}

// CanListen says why an inbox cannot listen at a, before it tries: an
// address over TCP must name a host of this machine (an IP address or
// localhost), as --listen does.
func CanListen(a Addr) error {
	if t, ok := a.(TCPAddr); ok {
		if _, err := localhttp.ParseAddr(t.Host); err != nil {
			return fmt.Errorf("%s is %s: the inbox cannot listen there: %w", EnvAddr, a, err)
		}
	}
	return nil
}

// TokenBeside is the token of askers over TCP at an address beside a
// (askuser inbox --listen): a's own when a is over TCP too, so that one
// ASKUSER_INBOX reaches both, else a new one.
func TokenBeside(a Addr) string {
	if t, ok := a.(TCPAddr); ok {
		return t.Token
	}
	return localhttp.NewToken()
}

// Remote reads the addresses of inboxes on a server that both sides
// connect out to, by scheme ("nats", "tls"), each returning a
// *ServerError for an address it cannot use. Such a transport is a package
// of its own (natsinbox) that cmd hands in, so that this package does not
// depend on it; a nil Remote reads none.
type Remote map[string]func(string) (Addr, error)

// Where is what the inbox's address is found from, as the command line
// reads it from the environment: both sides find it alike, so that one
// export (or none) pairs them.
type Where struct {
	// Inbox is the address given (ASKUSER_INBOX), "" for the default.
	Inbox string
	// RuntimeDir and TempDir are the directories of the default
	// (XDG_RUNTIME_DIR, TMPDIR): see defaultAddr.
	RuntimeDir, TempDir string
	// Remote reads the addresses on a server.
	Remote Remote
}

// Addr returns the inbox's address: the one given, else the default
// (defaultAddr). A value that is not an address is an error that names
// ASKUSER_INBOX.
func (w Where) Addr() (Addr, error) {
	v := strings.TrimSpace(w.Inbox)
	if v == "" {
		return defaultAddr(w, runUser, os.Getuid()), nil
	}
	a, err := ParseAddr(v, w.Remote)
	if server, ok := errors.AsType[*ServerError](err); ok {
		// The value may hold a password: it is not repeated.
		return nil, &ServerError{Msg: fmt.Sprintf("invalid %s: %s", EnvAddr, server.Msg), Err: server.Err}
	}
	if err != nil {
		return nil, fmt.Errorf("invalid %s %q: %w", EnvAddr, withoutSecrets(v), err)
	}
	return a, nil
}

// withoutSecrets is an address as an error quotes it: errors reach logs
// and models, so the value of each token= and a password are left out.
func withoutSecrets(v string) string {
	if u, err := url.Parse(v); err == nil && u.User != nil {
		v = u.Redacted()
	}
	return tokenValue.ReplaceAllString(v, "token=…")
}

// tokenValue is a token= and its value, up to the next & or #.
var tokenValue = regexp.MustCompile(`token=[^&#]*`)

// ParseAddr reads an address as ASKUSER_INBOX holds it: a socket path,
// unix:PATH, http://HOST:PORT/?token=T, or the address of an inbox on a
// server, of a scheme that remote reads (nats://, tls://). A relative
// path is taken from the working directory.
func ParseAddr(s string, remote Remote) (Addr, error) {
	s = strings.TrimSpace(s)
	scheme, _, hasScheme := strings.Cut(s, "://")
	scheme = strings.ToLower(scheme)
	switch {
	case s == "":
		return nil, errors.New("the address is empty")
	case strings.HasPrefix(s, "unix:"):
		return socketAddr(strings.TrimPrefix(s, "unix:"))
	case hasScheme && scheme == "http":
		return tcpAddr(s)
	case hasScheme && remote[scheme] != nil:
		return remote[scheme](s)
	case hasScheme:
		return nil, errors.New("want a socket path, unix:PATH, http://HOST:PORT/?token=TOKEN or nats://HOST:PORT/NAME?to=age1... (an inbox is not served over https: forward its socket with ssh -R instead)")
	}
	if r := mistyped(s, remote); r != "" {
		return nil, &ServerError{Msg: fmt.Sprintf("the address begins like an address on %s but lacks \"://\": want %s://HOST[:PORT][/NAME][?to=age1...], as askuser inbox prints it", r, r)}
	}
	return socketAddr(s)
}

// mistyped returns the scheme of an address on a server that s begins with but
// for its "://" (nats//host, nats:host), or "": such a typo would be read
// as a socket path, and its error would name the wrong thing.
func mistyped(s string, remote Remote) string {
	lower := strings.ToLower(s)
	for scheme := range remote {
		if rest, ok := strings.CutPrefix(lower, scheme); ok && (strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "//")) {
			return scheme
		}
	}
	return ""
}

func socketAddr(p string) (Addr, error) {
	if p == "" {
		return nil, errors.New("unix: needs a socket path after it")
	}
	if strings.ContainsRune(p, 0) {
		return nil, errors.New("a socket path cannot hold a NUL byte")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, fmt.Errorf("socket path: %w", err)
	}
	return SocketAddr(abs), nil
}

func tcpAddr(s string) (Addr, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, errors.New("want http://HOST:PORT/?token=TOKEN, as askuser inbox --listen prints it")
	}
	host, port, err := net.SplitHostPort(u.Host)
	switch {
	case err != nil || host == "":
		return nil, errors.New("want http://HOST:PORT/?token=TOKEN: the host and port are missing")
	case u.User != nil:
		return nil, errors.New("want http://HOST:PORT/?token=TOKEN, without a user name")
	case u.Path != "" && u.Path != "/":
		return nil, errors.New("want http://HOST:PORT/?token=TOKEN, without a path")
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || n == 0 {
		return nil, errors.New("the port must be a number from 1 to 65535")
	}
	token := u.Query().Get("token")
	switch {
	case token == "":
		return nil, errors.New("the token is missing: use the whole address that askuser inbox printed, ?token=... included")
	case utf8.RuneCountInString(token) < minTokenLength:
		return nil, fmt.Errorf("the token is too short: use at least %d characters, or the one that askuser inbox printed", minTokenLength)
	}
	return TCPAddr{Host: u.Host, Token: token}, nil
}

// runUser is where the system keeps each user's runtime directory
// (/run/user/UID, made by systemd-logind) when XDG_RUNTIME_DIR is not set:
// agent tools start MCP servers with a stripped environment (Codex passes
// only HOME, PATH, LANG, TERM and SHELL).
const runUser = "/run/user"

// defaultAddr is the address without ASKUSER_INBOX of user uid (-1 where
// the system has no user ids), with the directories of w and the runtime
// directories under root (runUser), the same for the inbox and its askers:
// $XDG_RUNTIME_DIR/askuser/inbox.sock; without
// XDG_RUNTIME_DIR, /run/user/UID/askuser/inbox.sock or
// askuser-UID/inbox.sock in the temporary directory ($TMPDIR, else /tmp),
// whichever has a socket, in that order; with neither, the first when
// /run/user/UID is the user's directory, else the second. So an asker whose
// environment lost XDG_RUNTIME_DIR still finds the inbox that the person
// started with it.
func defaultAddr(w Where, root string, uid int) SocketAddr {
	if filepath.IsAbs(w.RuntimeDir) {
		return SocketAddr(filepath.Join(w.RuntimeDir, "askuser", "inbox.sock"))
	}
	tmp := w.TempDir
	if !filepath.IsAbs(tmp) {
		tmp = "/tmp"
		if runtime.GOOS == "windows" {
			tmp = os.TempDir()
		}
	}
	if uid < 0 {
		return SocketAddr(filepath.Join(tmp, "askuser", "inbox.sock"))
	}
	temp := filepath.Join(tmp, "askuser-"+strconv.Itoa(uid), "inbox.sock")
	userDir := filepath.Join(root, strconv.Itoa(uid))
	run := filepath.Join(userDir, "askuser", "inbox.sock")
	switch {
	case isSocket(run):
		return SocketAddr(run)
	case isSocket(temp):
		return SocketAddr(temp)
	case ownDir(userDir, uid):
		return SocketAddr(run)
	}
	return SocketAddr(temp)
}

// isSocket reports whether a socket is at path (not through a link).
func isSocket(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSocket != 0
}

// ownDir reports whether dir is a directory (not a link) of user uid's.
func ownDir(dir string, uid int) bool {
	fi, err := os.Lstat(dir)
	return err == nil && fi.IsDir() && fileOwner(fi) == uid
}
