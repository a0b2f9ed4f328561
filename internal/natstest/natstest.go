// Package natstest runs a NATS server with JetStream for a test, for the
// tests of the inbox on NATS: on a port of its own, with its store in a
// directory of the test's, inside the test's process and restartable on
// the same port and store (Start), as a cluster of such servers
// (StartCluster), or as a program of its own (StartProcess).
package natstest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is a NATS server with JetStream that a test runs.
type Server struct {
	t testing.TB
	// Opts are the options it runs with; Port and StoreDir stay the same
	// from one start to the next.
	Opts *server.Options
	// conf, when set, is a configuration file read again at each start
	// (accounts, users, limits), Opts's listen, store, name and cluster
	// over what it gives.
	conf string
	s    *server.Server
}

// Start runs a server with JetStream on 127.0.0.1, on a free port, with
// its store in a temporary directory; change, when set, changes its
// options first (authorization, TLS). The server is shut down when the
// test ends.
func Start(t testing.TB, change func(*server.Options)) *Server {
	t.Helper()
	return start(t, change, "")
}

func start(t testing.TB, change func(*server.Options), conf string) *Server {
	t.Helper()
	o := &server.Options{
		Host:      "127.0.0.1",
		Port:      freePort(t),
		JetStream: true,
		StoreDir:  t.TempDir(),
		NoLog:     true,
		NoSigs:    true,
	}
	if change != nil {
		change(o)
	}
	s := &Server{t: t, Opts: o, conf: conf}
	s.Restart()
	t.Cleanup(s.Stop)
	return s
}

// StartCluster runs a cluster of n servers with JetStream, as Start runs
// one, each routed to the others, and returns once its JetStream has a
// leader and every server is current with it: within a minute, which a
// machine busy with other tests may take. conf, unless "", is the text of
// a nats-server.conf that each server runs with (its accounts, users and
// limits; the test's own ports, store and routes replace its listen,
// store_dir and cluster block's).
func StartCluster(t testing.TB, n int, conf string) []*Server {
	t.Helper()
	file := ""
	if conf != "" {
		file = filepath.Join(t.TempDir(), "nats-server.conf")
		if err := os.WriteFile(file, []byte(conf), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	routes := make([]*url.URL, n)
	ports := make([]int, n)
	for i := range n {
		ports[i] = freePort(t)
		routes[i] = &url.URL{Scheme: "nats-route", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[i]))}
	}
	servers := make([]*Server, n)
	for i := range n {
		servers[i] = start(t, func(o *server.Options) {
			o.ServerName = fmt.Sprintf("n%d", i+1)
			// A name of its own: a server of another test's cluster that
			// takes a port of this one's, freed by a restart, is not let
			// in as a route.
			o.Cluster = server.ClusterOpts{Name: fmt.Sprintf("askuser-test-%d", ports[0]), Host: "127.0.0.1", Port: ports[i]}
			o.Routes = routes
		}, file)
	}
	deadline := time.Now().Add(time.Minute)
	for !clusterReady(servers) {
		if time.Now().After(deadline) {
			t.Fatal("the NATS cluster's JetStream has no leader")
		}
		time.Sleep(50 * time.Millisecond)
	}
	return servers
}

func clusterReady(servers []*Server) bool {
	leaders := 0
	for _, s := range servers {
		if s.s == nil || !s.s.JetStreamIsCurrent() {
			return false
		}
		if s.s.JetStreamIsLeader() {
			leaders++
		}
	}
	return leaders == 1
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	// Only the port was wanted: the listener is let go at once.
	_ = ln.Close()
	return port
}

// Restart starts the server again after Stop, on the same port and store.
func (s *Server) Restart() {
	s.t.Helper()
	s.start(*s.Opts)
}

// RestartWithoutJetStream starts the server again after Stop, on the same
// port, with JetStream off until EnableJetStream.
func (s *Server) RestartWithoutJetStream() {
	s.t.Helper()
	o := *s.Opts
	o.JetStream = false
	s.start(o)
}

// EnableJetStream turns JetStream on, on the same store, in a server
// started without it.
func (s *Server) EnableJetStream() {
	s.t.Helper()
	if err := s.s.EnableJetStream(&server.JetStreamConfig{StoreDir: s.Opts.StoreDir}); err != nil {
		s.t.Fatal(err)
	}
}

func (s *Server) start(o server.Options) {
	if s.conf != "" {
		// Read anew: a server's accounts are its own, not to be shared
		// with the server it replaces.
		loaded, err := server.ProcessConfigFile(s.conf)
		if err != nil {
			s.t.Fatal(err)
		}
		loaded.Host, loaded.Port, loaded.StoreDir, loaded.JetStream = o.Host, o.Port, o.StoreDir, o.JetStream
		loaded.ServerName, loaded.Cluster, loaded.Routes = o.ServerName, o.Cluster, o.Routes
		loaded.NoLog, loaded.NoSigs = o.NoLog, o.NoSigs
		o = *loaded
	}
	ns, err := server.NewServer(&o)
	if err != nil {
		s.t.Fatal(err)
	}
	ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		s.t.Fatal("the NATS server did not start")
	}
	s.s = ns
}

// LeadsStream reports whether the server leads the stream of account
// ("$G" for a server without accounts) in its cluster.
func (s *Server) LeadsStream(account, stream string) bool {
	return s.s != nil && s.s.JetStreamIsStreamLeader(account, stream)
}

// Name is the server's name in its cluster.
func (s *Server) Name() string { return s.Opts.ServerName }

// Stop shuts the server down, as a restart does.
func (s *Server) Stop() {
	if s.s != nil {
		s.s.Shutdown()
		s.s.WaitForShutdown()
		s.s = nil
	}
}

// HostPort is the server's HOST:PORT.
func (s *Server) HostPort() string {
	return net.JoinHostPort(s.Opts.Host, strconv.Itoa(s.Opts.Port))
}

// URL is nats://HOST:PORT/NAME with query (which may be "").
func (s *Server) URL(name, query string) string {
	u := fmt.Sprintf("nats://%s/%s", s.HostPort(), name)
	if query != "" {
		u += "?" + query
	}
	return u
}

// TLS makes a CA and a certificate it signs for 127.0.0.1, and returns the
// server's TLS configuration and the CA's file (PEM), for ca=FILE.
func TLS(t testing.TB) (*tls.Config, string) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ca := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "askuser test CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "127.0.0.1"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return &tls.Config{
		MinVersion:   tls.VersionTLS12,
		Certificates: []tls.Certificate{{Certificate: [][]byte{leafDER}, PrivateKey: key}},
	}, caFile
}

// Process is a nats-server program that a test runs, for when the server
// may not share the test's process: ten thousand connections are twenty
// thousand files in one process, more than a process may have open here.
type Process struct {
	cmd           *exec.Cmd
	port, monitor int
}

// StartProcess builds nats-server, at the version go.mod requires (the
// build cache keeps it), and runs it with JetStream on 127.0.0.1, on a
// free port, with its store in a temporary directory, until the test ends;
// with conf, a configuration file's text (accounts, users, limits), it
// runs with that too.
func StartProcess(t testing.TB, conf ...string) *Process {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "nats-server")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/nats-io/nats-server/v2").CombinedOutput(); err != nil {
		t.Fatalf("build nats-server: %v\n%s", err, out)
	}
	p := &Process{port: freePort(t), monitor: freePort(t)}
	args := []string{"-js", "-sd", filepath.Join(dir, "store"), "-a", "127.0.0.1", "-p", strconv.Itoa(p.port), "-m", strconv.Itoa(p.monitor)}
	if len(conf) > 0 {
		file := filepath.Join(dir, "nats-server.conf")
		if err := os.WriteFile(file, []byte(strings.Join(conf, "\n")), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "-c", file)
	}
	p.cmd = exec.Command(bin, args...)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.Dial("tcp", p.HostPort())
		if err == nil {
			_ = c.Close()
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("nats-server does not listen: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// HostPort is the server's HOST:PORT.
func (p *Process) HostPort() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(p.port)) }

// URL is nats://HOST:PORT/NAME.
func (p *Process) URL(name string) string { return fmt.Sprintf("nats://%s/%s", p.HostPort(), name) }

// Traffic is what a server has taken in and sent out since it started:
// messages and bytes, as its monitoring port counts them (/varz).
type Traffic struct {
	InMsgs   int64 `json:"in_msgs"`
	InBytes  int64 `json:"in_bytes"`
	OutMsgs  int64 `json:"out_msgs"`
	OutBytes int64 `json:"out_bytes"`
}

// Traffic returns the server's traffic so far.
func (p *Process) Traffic(t testing.TB) Traffic {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/varz", p.monitor))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var tr Traffic
	if err := json.NewDecoder(resp.Body).Decode(&tr); err != nil {
		t.Fatal(err)
	}
	return tr
}

// Connections returns how many clients of the account acc the server
// holds, as its monitoring port counts them (/connz).
func (p *Process) Connections(t testing.TB, acc string) int {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/connz?acc=%s&limit=1", p.monitor, url.QueryEscape(acc)))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var c struct {
		Total int `json:"total"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	return c.Total
}
