// Package natstest runs a NATS server with JetStream inside a test, for the
// tests of the inbox on NATS: on a port of its own, with its store in a
// directory of the test's, and restartable on the same port and store.
package natstest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strconv"
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
	s    *server.Server
}

// Start runs a server with JetStream on 127.0.0.1, on a free port, with
// its store in a temporary directory; change, when set, changes its
// options first (authorization, TLS). The server is shut down when the
// test ends.
func Start(t testing.TB, change func(*server.Options)) *Server {
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
	s := &Server{t: t, Opts: o}
	s.Restart()
	t.Cleanup(s.Stop)
	return s
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
	o := *s.Opts
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
