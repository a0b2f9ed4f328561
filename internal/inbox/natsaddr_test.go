package inbox

import (
	"errors"
	"strings"
	"testing"

	"filippo.io/age"
)

func TestParseNATSAddr(t *testing.T) {
	id, _ := age.GenerateX25519Identity()
	to := id.Recipient().String()
	for _, c := range []struct {
		in   string
		want NATSAddr
		url  string
	}{
		{"nats://127.0.0.1:4222/alice?to=" + to, NATSAddr{Scheme: "nats", Host: "127.0.0.1:4222", Name: "alice", To: to}, "nats://127.0.0.1:4222/alice?to=" + to},
		{"NATS://s3cret@nats.example.com/team", NATSAddr{Scheme: "nats", Host: "nats.example.com:4222", Name: "team", Token: "s3cret"}, "nats://s3cret@nats.example.com:4222/team"},
		{"tls://bob:pw@[::1]:7422/bob?ca=ca.pem&creds=a.creds", NATSAddr{Scheme: "tls", Host: "[::1]:7422", Name: "bob", User: "bob", Password: "pw", CA: "ca.pem", Creds: "a.creds"}, "tls://bob:pw@[::1]:7422/bob?ca=ca.pem&creds=a.creds"},
		{"nats://h:1/x?nkey=seed.nk&insecure=plaintext", NATSAddr{Scheme: "nats", Host: "h:1", Name: "x", NKey: "seed.nk", Plaintext: true}, "nats://h:1/x?insecure=plaintext&nkey=seed.nk"},
	} {
		got, err := ParseAddr(c.in)
		if err != nil || got.NATS == nil || *got.NATS != c.want {
			t.Errorf("ParseAddr(%q) = %+v, %v; want %+v", c.in, got.NATS, err, c.want)
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
	if got, err := ParseAddr("nats://127.0.0.1"); err != nil || got.NATS.Name != DefaultNATSName() || DefaultNATSName() == "" {
		t.Errorf("no name: %+v, %v", got.NATS, err)
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
		_, err := ParseAddr(c.in)
		var natsErr *NATSAddrError
		if !errors.As(err, &natsErr) || !strings.Contains(err.Error(), c.problem) {
			t.Errorf("ParseAddr(%q) = %v; want a NATSAddrError about %q", c.in, err, c.problem)
		}
	}
	// The variable's value, which may hold a password, is not repeated.
	_, err := AddrFromEnv(func(string) string { return "nats://u:hunter2@h:0/x" })
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("AddrFromEnv: %v", err)
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
		a, err := ParseAddr(in)
		if err != nil {
			t.Fatal(err)
		}
		if why := a.NATS.sealRequired(); (why != "") != refused || (refused && !strings.Contains(why, "insecure=plaintext")) {
			t.Errorf("%s: %q", in, why)
		}
	}
}
