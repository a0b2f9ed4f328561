package localhttp

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"
)

// The limits of a page's server. A browser sends its requests whole and at
// once, and reads the replies as they come; a client that takes longer is
// broken or hostile, and is cut off.
const (
	// maxHeaderBytes bounds a request's line and header fields together.
	// Cookies that other programs on localhost set are sent along, so it
	// is not tight.
	maxHeaderBytes = 16 << 10
	// headerTimeout is how long a connection may take to send a request's
	// line and header; readTimeout, to send its body as well.
	headerTimeout = 10 * time.Second
	readTimeout   = 20 * time.Second
	// writeTimeout is how long a request may take from the end of its
	// header to the end of its reply, which the client must take in: more
	// than readTimeout, so that a body that never comes is still answered.
	// A long poll moves its own deadline on.
	writeTimeout = 30 * time.Second
	// idleTimeout is how long a connection kept alive between requests may
	// stay idle.
	idleTimeout = 30 * time.Second
)

// Server serves a page's handler with net/http, with the limits a page on a
// local port needs: on the time and size of a request's header, on the
// time to send a body and to read a reply, and on idle connections. It
// puts no limit on the number of connections: one that has not sent its
// header in time is closed, and until then costs little, so that no number
// of idle or slow connections can keep the person's browser out. Put the
// handler behind a Guard.
type Server struct {
	srv *http.Server

	mu       sync.Mutex
	conns    map[net.Conn]http.ConnState
	stopping bool
}

// NewServer returns a server of h.
func NewServer(h http.Handler) *Server {
	s := &Server{conns: map[net.Conn]http.ConnState{}}
	s.srv = &http.Server{
		Handler:           h,
		ReadHeaderTimeout: headerTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		// OPTIONS * goes to the handler too, which refuses it.
		DisableGeneralOptionsHandler: true,
		ConnState:                    s.track,
		// stderr is the person's terminal: what a client does wrong is
		// answered to the client, not logged there.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	return s
}

// Serve serves ln until Stop, and returns nil then, or the error that
// stopped it accepting connections. It closes ln.
func (s *Server) Serve(ln net.Listener) error {
	err := s.srv.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// track follows each connection's state, so that Stop can tell the ones
// that have not sent a whole request.
func (s *Server) track(c net.Conn, st http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case st == http.StateClosed || st == http.StateHijacked:
		delete(s.conns, c)
	case st == http.StateNew && s.stopping:
		_ = c.Close()
	default:
		s.conns[c] = st
	}
}

// Stop stops accepting, closes at once the connections that have not sent a
// whole request (browsers open some ahead of need, and an attacker may
// hold many), lets the requests being served finish for up to grace (the
// reply to an answer, the waiting pages learning that the wait is over),
// and then closes every connection. net/http's own Shutdown would wait for
// connections that have sent nothing for up to 5 seconds.
func (s *Server) Stop(grace time.Duration) {
	s.mu.Lock()
	s.stopping = true
	for c, st := range s.conns {
		if st == http.StateNew {
			_ = c.Close()
		}
	}
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		// The grace is over: whatever is left is cut off.
		_ = s.srv.Close()
	}
}

// PollWait is how long a long poll's request is held before it is told
// to ask again (204): a waiting page's, of askuser and of its inbox.
const PollWait = 50 * time.Second

// Poll holds the long poll that w answers, for up to PollWait: it calls
// check, which answers the request and returns nil once the page that
// waits is out of date, or else returns a channel that is closed when it
// may be, and calls check again then. After PollWait it answers 204; a
// client that has gone is answered nothing it reads. The server's limits
// on the time to read a request and to write its reply would cut the wait
// short: the request has been read whole, and the reply must be written
// within the usual time after PollWait.
func Poll(w http.ResponseWriter, r *http.Request, check func() <-chan struct{}) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Now().Add(PollWait + writeTimeout))
	ctx, cancel := context.WithTimeout(r.Context(), PollWait)
	defer cancel()
	for changed := check(); changed != nil; changed = check() {
		select {
		case <-changed:
		case <-ctx.Done():
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
}
