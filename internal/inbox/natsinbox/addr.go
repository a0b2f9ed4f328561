package natsinbox

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os/user"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"filippo.io/age"

	"github.com/askuser/askuser/internal/inbox"
)

// address is an inbox on a NATS server with JetStream (nats:// or tls://):
// the server, the credentials NATS takes, the inbox's name (which keeps
// people's queues apart on a shared server) and its age recipient.
type address struct {
	// Scheme is "nats" or "tls" (TLS required).
	Scheme string
	// Host is HOST:PORT, or the servers of a cluster:
	// HOST:PORT,HOST:PORT...
	Host string
	// User and Password, or Token (a user name without a password), are
	// the credentials in the address.
	User, Password, Token string
	// Creds, NKey and CA are files: a credentials file, an NKey seed, and
	// the CA that signed the server's certificate.
	Creds, NKey, CA string
	// Name is the inbox's name: its subjects and its streams are named
	// after it.
	Name string
	// To is the inbox's age recipient, which every set is sealed to; ""
	// when the address has none.
	To string
	// Replicas is how many servers of a cluster keep each of the inbox's
	// streams (replicas=N), 1 when the address does not say.
	Replicas int
	// Plaintext is insecure=plaintext: on an asker's side, it may send its
	// sets unsealed to a server that is neither local nor over TLS; on the
	// inbox's, it takes sets that are not sealed to it.
	Plaintext bool
}

// maxName is the longest name of an inbox.
const maxName = 64

// notName matches what may not be in an inbox's name, which is one token
// of a subject, and part of a stream's name.
var notName = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// params are the parameters an address on NATS may carry.
var params = []string{"to", "creds", "nkey", "ca", "replicas", "insecure"}

// defaultPort is NATS's own.
const defaultPort = "4222"

// Remote reads the addresses of inboxes on NATS, nats:// and tls://, for
// inbox.ParseAddr. An address that cannot be used is an
// *inbox.ServerError, which makes the inbox unavailable, as every NATS
// inbox that cannot be reached does.
func Remote() inbox.Remote {
	parse := func(s string) (inbox.Addr, error) {
		a, err := parseAddr(s)
		if err != nil {
			return nil, &inbox.ServerError{Msg: err.Error(), Err: err}
		}
		return a, nil
	}
	return inbox.Remote{"nats": parse, "tls": parse}
}

// parseAddr reads nats://[CREDENTIALS@]HOST[:PORT][/NAME][?PARAMS].
func parseAddr(s string) (*address, error) {
	const want = "want nats://[USER:PASSWORD@]HOST[:PORT][,nats://HOST[:PORT]...][/NAME][?to=age1...], as askuser inbox prints it"
	// The servers of a cluster are listed as NATS lists them, their URLs
	// separated by commas: the credentials go before the first, the name
	// and the parameters after the last.
	scheme, rest, _ := strings.Cut(s, "://")
	rest = regexp.MustCompile(`,[A-Za-z]+://`).ReplaceAllString(rest, ",")
	auth, tail := rest, ""
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		auth, tail = rest[:i], rest[i:]
	}
	creds, list := "", auth
	if i := strings.LastIndex(auth, "@"); i >= 0 {
		creds, list = auth[:i+1], auth[i+1:]
	}
	u, err := url.Parse(scheme + "://" + creds + "servers" + tail)
	if err != nil {
		return nil, errors.New(want)
	}
	var hosts []string
	for _, h := range strings.Split(list, ",") {
		host, err := hostOf(h)
		if err != nil {
			return nil, fmt.Errorf("%w: %s", err, want)
		}
		hosts = append(hosts, host)
	}
	a := &address{Scheme: strings.ToLower(scheme), Host: strings.Join(hosts, ",")}
	// Userinfo's methods take a nil one for no credentials.
	if pw, ok := u.User.Password(); ok {
		a.User, a.Password = u.User.Username(), pw
	} else {
		a.Token = u.User.Username()
	}
	if a.Name = strings.Trim(u.Path, "/"); a.Name == "" {
		a.Name = DefaultName()
	}
	if len(a.Name) > maxName || notName.MatchString(a.Name) {
		return nil, fmt.Errorf("the inbox's name %q may hold only letters, digits, _ and - (at most 64)", a.Name)
	}
	if err := a.setParams(u.Query()); err != nil {
		return nil, err
	}
	return a, nil
}

func hostOf(hostport string) (string, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = strings.Trim(hostport, "[]"), defaultPort
	}
	if host == "" {
		return "", errors.New("the host is missing")
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || n == 0 {
		return "", errors.New("the port must be a number from 1 to 65535")
	}
	return net.JoinHostPort(host, port), nil
}

func (a *address) setParams(q url.Values) error {
	for k, vs := range q {
		if !slices.Contains(params, k) {
			return fmt.Errorf("unknown parameter %q: an address on NATS takes %s", k, strings.Join(params, "=, ")+"=")
		}
		if len(vs) != 1 || vs[0] == "" {
			return fmt.Errorf("give %s= once, with a value", k)
		}
	}
	a.Creds, a.NKey, a.CA = q.Get("creds"), q.Get("nkey"), q.Get("ca")
	if a.Creds != "" && a.NKey != "" {
		return errors.New("give creds= or nkey=, not both")
	}
	if a.To = q.Get("to"); a.To != "" {
		if _, err := age.ParseX25519Recipient(a.To); err != nil {
			return errors.New("to= is not an age recipient (age1...): copy it from the address that askuser inbox printed")
		}
	}
	a.Replicas = 1
	if v := q.Get("replicas"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 5 {
			return fmt.Errorf("replicas=%s: give how many servers of the cluster keep the queue, from 1 to 5 (3 rides out the loss of one)", v)
		}
		a.Replicas = n
	}
	if v := q.Get("insecure"); v != "" && v != "plaintext" {
		return fmt.Errorf("insecure=%s: the only value is insecure=plaintext (send the questions unsealed)", v)
	}
	a.Plaintext = q.Get("insecure") == "plaintext"
	return nil
}

// DefaultName is an inbox's name when the address gives none: the local
// user's name, as far as a name of a subject can hold it.
func DefaultName() string {
	name := "askuser"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	// A Windows user is DOMAIN\name.
	name = name[strings.LastIndexAny(name, `\/`)+1:]
	// Each byte that may not be in a name is a _, as it always was.
	name = notName.ReplaceAllStringFunc(name, func(c string) string { return strings.Repeat("_", len(c)) })
	return name[:min(len(name), maxName)]
}

// String is the address as messages show it: no credentials, no
// parameters.
func (a *address) String() string { return a.serverURL() + "/" + a.Name }

// URL is the address whole, as ASKUSER_INBOX holds it: for the person to
// give to askers.
func (a *address) URL() string {
	u := url.URL{Scheme: a.Scheme, Host: a.Host, Path: "/" + a.Name}
	switch {
	case a.Token != "":
		u.User = url.User(a.Token)
	case a.User != "":
		u.User = url.UserPassword(a.User, a.Password)
	}
	q := url.Values{}
	for k, v := range map[string]string{"to": a.To, "creds": a.Creds, "nkey": a.NKey, "ca": a.CA} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if a.Replicas > 1 {
		q.Set("replicas", strconv.Itoa(a.Replicas))
	}
	if a.Plaintext {
		q.Set("insecure", "plaintext")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// serverURL is the server's address for nats.Connect, each server of a
// cluster as a URL of its own: no credentials (they are given as options,
// and so never shown in an error).
func (a *address) serverURL() string {
	return a.Scheme + "://" + strings.ReplaceAll(a.Host, ",", ","+a.Scheme+"://")
}

// Dial returns the transport that askers reach the inbox with.
func (a *address) Dial() inbox.Transport { return &client{addr: a} }

// Durable is true: the sets wait on the server for the next inbox.
func (a *address) Durable() bool { return true }

// sealRequired says why an asker may not send a set unsealed to a, or ""
// when it may: with to=, or over TLS, or to servers on this machine, or
// with insecure=plaintext.
func (a *address) sealRequired() string {
	local := func(hostport string) bool {
		host, _, _ := net.SplitHostPort(hostport)
		ip := net.ParseIP(host)
		return strings.EqualFold(host, "localhost") || ip != nil && ip.IsLoopback()
	}
	if a.To != "" || a.Scheme == "tls" || a.Plaintext || a.CA != "" || !slices.ContainsFunc(strings.Split(a.Host, ","), func(h string) bool { return !local(h) }) {
		return ""
	}
	return fmt.Sprintf("%s has no to=, and the questions would cross %s unsealed and unencrypted: add the to=age1... that askuser inbox printed, or use tls://, or add insecure=plaintext to send them as they are", inbox.EnvAddr, a)
}
