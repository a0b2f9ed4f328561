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

// Serve serves srv on l.Listener. The protocol's requests get through only
// when they carry the token (as "Authorization: Bearer TOKEN", or
// ?token=TOKEN) and name this server in their Host header, which a page
// that a DNS-rebinding attacker points at this machine cannot. The token
// is compared in constant time.
func (l TCPListener) Serve(_ context.Context, srv *Server) error {
	g, err := localhttp.NewGuard(l.Listener.Addr(), l.Host, l.Token, MaxRequestBytes)
	if err != nil {
		return err
	}
	api := srv.handler()
	srv.Serve(l.Listener, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if l.Page != nil && r.URL.Path != "/v1" && !strings.HasPrefix(r.URL.Path, "/v1/") {
			l.Page.ServeHTTP(w, r)
			return
		}
		if !g.AllowsHost(r.Host) {
			writeJSON(w, http.StatusForbidden, ErrorBody{Error: "forbidden: this inbox answers only to its own address; use the address that askuser inbox printed"})
			return
		}
		token := r.URL.Query().Get("token")
		if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			token = strings.TrimSpace(auth)
		}
		if subtle.ConstantTimeCompare([]byte(token), []byte(l.Token)) != 1 {
			writeJSON(w, http.StatusForbidden, ErrorBody{Error: "forbidden: the token is wrong or missing; use the whole address that askuser inbox printed"})
			return
		}
		api.ServeHTTP(w, r)
	}))
	return nil
}
