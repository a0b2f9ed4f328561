package inbox

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os/user"
	"slices"
	"strconv"
	"strings"

	"filippo.io/age"
)

// NATSAddr is an inbox on a NATS server with JetStream (nats:// or
// tls://): the server, the credentials NATS takes, the inbox's name (which
// keeps people's queues apart on a shared server) and its age recipient.
type NATSAddr struct {
	// Scheme is "nats" or "tls" (TLS required).
	Scheme string
	// Host is HOST:PORT.
	Host string
	// User and Password, or Token (a user name without a password), are
	// the credentials in the address.
	User, Password, Token string
	// Creds, NKey and CA are files: a credentials file, an NKey seed, and
	// the CA that signed the server's certificate.
	Creds, NKey, CA string
	// Name is the inbox's name: its subjects and its stream are named
	// after it.
	Name string
	// To is the inbox's age recipient, which every set is sealed to; ""
	// when the address has none.
	To string
	// Plaintext is insecure=plaintext: the person lets askers send their
	// sets unsealed to a server that is neither local nor over TLS.
	Plaintext bool
}

// NATSAddrError is an address of an inbox on NATS that cannot be used as
// it is written. Unlike other bad addresses, it makes the inbox
// unavailable (exit 69), as every NATS inbox that cannot be reached does.
type NATSAddrError struct{ Err error }

func (e *NATSAddrError) Error() string { return e.Err.Error() }

func (e *NATSAddrError) Unwrap() error { return e.Err }

// maxNATSName is the longest name of an inbox.
const maxNATSName = 64

// natsNameByte says whether c may be in an inbox's name: one token of a
// subject, and part of a stream's name.
func natsNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// validNATSName says whether name can name an inbox.
func validNATSName(name string) bool {
	if name == "" || len(name) > maxNATSName {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !natsNameByte(name[i]) {
			return false
		}
	}
	return true
}

// natsParams are the parameters an address on NATS may carry.
var natsParams = []string{"to", "creds", "nkey", "ca", "insecure"}

// defaultNATSPort is NATS's own.
const defaultNATSPort = "4222"

// parseNATSAddr reads nats://[CREDENTIALS@]HOST[:PORT][/NAME][?PARAMS].
func parseNATSAddr(s string) (Addr, error) {
	a, err := natsAddrOf(s)
	if err != nil {
		return Addr{}, &NATSAddrError{Err: err}
	}
	return Addr{NATS: a}, nil
}

func natsAddrOf(s string) (*NATSAddr, error) {
	const want = "want nats://[USER:PASSWORD@]HOST[:PORT][/NAME][?to=age1...], as askuser inbox prints it"
	u, err := url.Parse(s)
	if err != nil {
		return nil, errors.New(want)
	}
	a := &NATSAddr{Scheme: strings.ToLower(u.Scheme)}
	if a.Host, err = natsHost(u.Host); err != nil {
		return nil, fmt.Errorf("%w: %s", err, want)
	}
	if u.User != nil {
		if pw, ok := u.User.Password(); ok {
			a.User, a.Password = u.User.Username(), pw
		} else {
			a.Token = u.User.Username()
		}
	}
	if name := strings.Trim(u.Path, "/"); name != "" {
		if !validNATSName(name) {
			return nil, fmt.Errorf("the inbox's name %q may hold only letters, digits, _ and - (at most 64)", name)
		}
		a.Name = name
	} else {
		a.Name = DefaultNATSName()
	}
	if err := a.setParams(u.Query()); err != nil {
		return nil, err
	}
	return a, nil
}

func natsHost(hostport string) (string, error) {
	if hostport == "" {
		return "", errors.New("the host is missing")
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = strings.Trim(hostport, "[]"), defaultNATSPort
	}
	if host == "" {
		return "", errors.New("the host is missing")
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || n == 0 {
		return "", errors.New("the port must be a number from 1 to 65535")
	}
	return net.JoinHostPort(host, port), nil
}

func (a *NATSAddr) setParams(q url.Values) error {
	for k, vs := range q {
		if !slices.Contains(natsParams, k) {
			return fmt.Errorf("unknown parameter %q: an address on NATS takes %s", k, strings.Join(natsParams, "=, ")+"=")
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
	switch v := q.Get("insecure"); v {
	case "":
	case "plaintext":
		a.Plaintext = true
	default:
		return fmt.Errorf("insecure=%s: the only value is insecure=plaintext (send the questions unsealed)", v)
	}
	return nil
}

// DefaultNATSName is an inbox's name when the address gives none: the
// local user's name, as far as a name of a subject can hold it.
func DefaultNATSName() string {
	name := "askuser"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	// A Windows user is DOMAIN\name.
	name = name[strings.LastIndexAny(name, `\/`)+1:]
	b := []byte(name)
	for i, c := range b {
		if !natsNameByte(c) {
			b[i] = '_'
		}
	}
	if len(b) > maxNATSName {
		b = b[:maxNATSName]
	}
	return string(b)
}

// String is the address as messages show it: no credentials, no
// parameters.
func (a *NATSAddr) String() string {
	return a.Scheme + "://" + a.Host + "/" + a.Name
}

// URL is the address whole, as ASKUSER_INBOX holds it: for the person to
// give to askers.
func (a *NATSAddr) URL() string {
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
	if a.Plaintext {
		q.Set("insecure", "plaintext")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// ServerURL is the server's address for nats.Connect: no credentials
// (they are given as options, and so never shown in an error).
func (a *NATSAddr) ServerURL() string { return a.Scheme + "://" + a.Host }

// sealRequired says why an asker may not send a set unsealed to a, or ""
// when it may: with to=, or over TLS, or to a server on this machine, or
// with insecure=plaintext.
func (a *NATSAddr) sealRequired() string {
	if a.To != "" || a.Scheme == "tls" || a.Plaintext || a.CA != "" {
		return ""
	}
	host, _, _ := net.SplitHostPort(a.Host)
	if strings.EqualFold(host, "localhost") {
		return ""
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return ""
	}
	return fmt.Sprintf("%s has no to=, and the questions would cross %s unsealed and unencrypted: add the to=age1... that askuser inbox printed, or use tls://, or add insecure=plaintext to send them as they are", EnvAddr, a)
}
