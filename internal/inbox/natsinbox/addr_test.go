package natsinbox

import (
	"errors"
	"strings"
	"testing"

	"filippo.io/age"

	"github.com/askuser/askuser/internal/inbox"
)

func TestParseNATSAddr(t *testing.T) {
	id, _ := age.GenerateX25519Identity()
	to := id.Recipient().String()
	for _, c := range []struct {
		in   string
		want address
		url  string
	}{
		{"nats://127.0.0.1:4222/alice?to=" + to, address{Scheme: "nats", Host: "127.0.0.1:4222", Name: "alice", To: to}, "nats://127.0.0.1:4222/alice?to=" + to},
		{"NATS://s3cret@nats.example.com/team", address{Scheme: "nats", Host: "nats.example.com:4222", Name: "team", Token: "s3cret"}, "nats://s3cret@nats.example.com:4222/team"},
		{"tls://bob:pw@[::1]:7422/bob?ca=ca.pem&creds=a.creds", address{Scheme: "tls", Host: "[::1]:7422", Name: "bob", User: "bob", Password: "pw", CA: "ca.pem", Creds: "a.creds"}, "tls://bob:pw@[::1]:7422/bob?ca=ca.pem&creds=a.creds"},
		{"nats://h:1/x?nkey=seed.nk&insecure=plaintext", address{Scheme: "nats", Host: "h:1", Name: "x", NKey: "seed.nk", Plaintext: true}, "nats://h:1/x?insecure=plaintext&nkey=seed.nk"},
	} {
		// ASKUSER_INBOX's addresses are read by package inbox, which
		// this package teaches nats:// and tls://.
		got, err := inbox.ParseAddr(c.in)
		if n, ok := got.(*address); err != nil || !ok || *n != c.want {
			t.Errorf("parseAddr(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
			continue
		}
		if u := got.URL(); u != c.url {
			t.Errorf("URL of %q = %q, want %q", c.in, u, c.url)
		}
		if s := got.String(); strings.Contains(s, "@") || strings.Contains(s, "?") {
			t.Errorf("String of %q = %q shows credentials or parameters", c.in, s)
		}
	}
	// Without a name, the inbox is the local user's.
	if got, err := parseAddr("nats://127.0.0.1"); err != nil || got.Name != DefaultName() || DefaultName() == "" {
		t.Errorf("no name: %+v, %v", got, err)
	}
	for _, c := range []struct{ in, problem string }{
		{"nats://", "host is missing"},
		{"nats://h:0/x", "port"},
		{"nats://h:99999/x", "port"},
		{"nats://h/a.b", "may hold only"},
		{"nats://h/x?to=age1nope", "not an age recipient"},
		{"nats://h/x?token=abc", `unknown parameter "token"`},
		{"nats://h/x?insecure=yes", "insecure=plaintext"},
		{"nats://h/x?creds=a&nkey=b", "not both"},
		{"nats://h/x?ca=", "with a value"},
	} {
		_, err := inbox.ParseAddr(c.in)
		var server *inbox.ServerError
		if !errors.As(err, &server) || !strings.Contains(err.Error(), c.problem) {
			t.Errorf("parseAddr(%q) = %v; want a ServerError about %q", c.in, err, c.problem)
		}
	}
	// The variable's value, which may hold a password, is not repeated.
	_, err := inbox.Where{Inbox: "nats://u:hunter2@h:0/x"}.Addr()
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("Where.Addr: %v", err)
	}
}

// An address that lacks only its "://" is told as an address on NATS
// (exit 69, one line), not read as a socket path whose errors would name
// the wrong thing; its value, which may hold a password, is not repeated.
func TestMistypedAddr(t *testing.T) {
	for _, v := range []string{"nats//u:hunter2@host:4222/alice", "nats:/host/alice", "TLS//host", "nats:host"} {
		_, err := inbox.Where{Inbox: v}.Addr()
		var server *inbox.ServerError
		if !errors.As(err, &server) || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "\n") ||
			!strings.Contains(err.Error(), `lacks "://"`) || !strings.HasPrefix(err.Error(), "invalid ASKUSER_INBOX: ") {
			t.Errorf("%s: %v", v, err)
		}
	}
	// A socket path in a directory called nats is a socket path.
	if a, err := inbox.ParseAddr("nats/inbox.sock"); err != nil || !strings.HasSuffix(a.String(), "/nats/inbox.sock") {
		t.Errorf("nats/inbox.sock: %+v, %v", a, err)
	}
}

// An asker sends its sets unsealed only over TLS, to this machine, or when
// the person says so.
func TestNATSSealRequired(t *testing.T) {
	for in, refused := range map[string]bool{
		"nats://nats.example.com/x":                    true,
		"nats://10.0.0.1/x":                            true,
		"nats://127.0.0.1/x":                           false,
		"nats://localhost/x":                           false,
		"nats://[::1]/x":                               false,
		"tls://nats.example.com/x":                     false,
		"nats://nats.example.com/x?insecure=plaintext": false,
	} {
		a, err := parseAddr(in)
		if err != nil {
			t.Fatal(err)
		}
		if why := a.sealRequired(); (why != "") != refused || (refused && !strings.Contains(why, "insecure=plaintext")) {
			t.Errorf("%s: %q", in, why)
		}
	}
}
