package inbox

import (
	"context"
	"crypto/subtle"
	"net"
	"net/http"
	"strings"

	"github.com/askuser/askuser/prompt/web/localhttp"
)

// TCPListener serves the inbox to askers over TCP on Listener until the
// server closes, behind Token: every request must carry it and name this
// server in its Host header (see localhttp.Guard). Host is the host that
// the address shows, as for localhttp.NewGuard.
//
// Page, when set, is the inbox's web page, served on the same listener:
// the protocol's paths (under /v1/) are served behind Token, and every
// other path by Page, which checks its requests itself (a localhttp.Guard
// with a token of its own: an asker, which holds the askers' token, must
// not be able to answer for the person).
type TCPListener struct {
	Listener    net.Listener
	Host, Token string
	Page        http.Handler
}

// Serve serves srv on l.Listener.
func (l TCPListener) Serve(_ context.Context, srv *Server) error {
	g, err := localhttp.NewGuard(l.Listener.Addr(), l.Host, l.Token, MaxRequestBytes)
	if err != nil {
		return err
	}
	var h http.Handler = &tokenGuard{hosts: g, token: []byte(l.Token), next: srv.handler()}
	if page := l.Page; page != nil {
		api := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1" || strings.HasPrefix(r.URL.Path, "/v1/") {
				api.ServeHTTP(w, r)
				return
			}
			page.ServeHTTP(w, r)
		})
	}
	srv.Serve(l.Listener, h)
	return nil
}

// tokenGuard lets through only the requests over TCP that carry the token
// (as "Authorization: Bearer TOKEN", or ?token=TOKEN) and name this server
// in their Host header, which a page that a DNS-rebinding attacker points
// at this machine cannot. The token is compared in constant time.
type tokenGuard struct {
	hosts *localhttp.Guard
	token []byte
	next  http.Handler
}

func (g *tokenGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.hosts.AllowsHost(r.Host) {
		writeJSON(w, http.StatusForbidden, ErrorBody{Error: "forbidden: this inbox answers only to its own address; use the address that askuser inbox printed"})
		return
	}
	token := r.URL.Query().Get("token")
	if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		token = strings.TrimSpace(auth)
	}
	if subtle.ConstantTimeCompare([]byte(token), g.token) != 1 {
		writeJSON(w, http.StatusForbidden, ErrorBody{Error: "forbidden: the token is wrong or missing; use the whole address that askuser inbox printed"})
		return
	}
	g.next.ServeHTTP(w, r)
}
