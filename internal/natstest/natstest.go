// Package natstest runs a NATS server with JetStream inside a test, for the
// tests of the inbox on NATS: on a port of its own, with its store in a
// directory of the test's, and restartable on the same port and store.
package natstest

import (
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is a NATS server with JetStream that a test runs.
type Server struct {
	t *testing.T
	// Opts are the options it runs with; Port and StoreDir stay the same
	// from one start to the next.
	Opts *server.Options
	s    *server.Server
}

// Start runs a server with JetStream on 127.0.0.1, on a free port, with
// its store in a temporary directory; change, when set, changes its
// options first (authorization, TLS). The server is shut down when the
// test ends.
func Start(t *testing.T, change func(*server.Options)) *Server {
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

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
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
