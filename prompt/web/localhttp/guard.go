// Package localhttp serves a page on a local port safely: the guard that
// lets only the page's own tab in (its token, Host and Origin checks), the
// address to listen on, a server with the limits such a page needs, and
// opening the person's browser. The web page of askuser and its inbox both
// stand on it.
package localhttp

import (
	"cmp"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Guard is what stands between the network and a page: it lets through
// only the requests that the page's own tab sends, and refuses the rest
// before any handler sees them. A request must be addressed to this server
// by one of its own names (any other could be a DNS-rebinding attacker's
// name pointed at this machine) and carry the token; a request that
// changes something must come from the page's own origin (not from a page
// of another site that the person has open) and, when it is a POST, be a
// form no larger than the limit. Every reply keeps the page out of other
// sites' frames, caches and guesses at content types.
//
// Guard knows nothing of what it guards, so that any handler (the page of
// one set of questions, or a server of several) can be put behind it.
type Guard struct {
	token   []byte
	maxBody int64
	// The Host headers that name the server: its own address, the host
	// shown in its address (display), or localhost, on its port. On every
	// interface, any IP address is its own.
	port    string
	ip      net.IP
	display string
}

// NewGuard returns the guard of a server that listens on addr, a TCP
// address, and whose address is shown with host, such as "localhost" ("" for
// addr's own IP address, as Listen returns it). Every request must carry token
// in its "token" query parameter. A request body over maxBody bytes is
// refused.
func NewGuard(addr net.Addr, host, token string, maxBody int64) (*Guard, error) {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return nil, fmt.Errorf("serve the page: not a TCP address: %s", addr)
	}
	return &Guard{
		token:   []byte(token),
		maxBody: maxBody,
		port:    strconv.Itoa(tcp.Port),
		ip:      tcp.IP,
		display: strings.ToLower(cmp.Or(host, tcp.IP.String())),
	}, nil
}

// Wrap returns next behind the guard.
func (g *Guard) Wrap(next http.Handler) http.Handler {
	return g.wrap(true, g.maxBody, next)
}

// WrapLink returns next behind the guard, for a link that is its own
// credential (a single-use link that answers from a notification, whose
// handler checks its key): every check of Wrap but the page's token and
// the form's type, since such a request comes from another program (a
// push service's app on the phone), with a body no larger than maxBody.
// Its Origin, when it has one, must still be the page's own: a page of
// another site that learned the link must not use the person's browser to
// reach an address that only the person's network can.
func (g *Guard) WrapLink(maxBody int64, next http.Handler) http.Handler {
	return g.wrap(false, maxBody, next)
}

// wrap returns next behind the checks of every request, and, for the
// page's own requests (page), of its token and its forms' type.
func (g *Guard) wrap(page bool, maxBody int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		// Not no-referrer: with it, a browser sends "Origin: null" with the
		// form, which cannot be told from a sandboxed attacker's page.
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")

		// The first check a request fails refuses it.
		origin := r.Header.Get("Origin")
		switch {
		case !g.AllowsHost(r.Host):
			Refuse(w, http.StatusForbidden, "Forbidden: this server answers only to its own address.")
		// A query that does not parse gives what parsed before the fault,
		// as for any other address without the token.
		case page && subtle.ConstantTimeCompare([]byte(r.URL.Query().Get("token")), g.token) != 1:
			Refuse(w, http.StatusForbidden, "Forbidden: open the address that askuser printed, with its token.")
		// Browsers send Origin with every POST; a page of another origin
		// must not answer for the person.
		case r.Method != http.MethodGet && r.Method != http.MethodHead && origin != "" && !strings.EqualFold(origin, "http://"+r.Host):
			Refuse(w, http.StatusForbidden, "Forbidden: the form was sent from another site.")
		case page && r.Method == http.MethodPost && !isFormType(r.Header.Get("Content-Type")):
			Refuse(w, http.StatusUnsupportedMediaType, "Send the form as application/x-www-form-urlencoded.")
		case r.ContentLength > maxBody:
			Refuse(w, http.StatusRequestEntityTooLarge, "The form is too large.")
		default:
			// A body sent without a length up front is cut off at the
			// limit as it is read; the handler then refuses it.
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
			next.ServeHTTP(w, r)
		}
	})
}

func isFormType(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/x-www-form-urlencoded")
}

// Refuse replies to a request that cannot be served with a line of plain
// text, as http.Error does, under a policy that lets it run nothing.
func Refuse(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
	http.Error(w, msg, code)
}

// AllowsHost reports whether a request's Host header names this server, as
// Wrap requires: for a server that checks its requests' tokens its own way
// (the inbox's, whose askers send theirs as a bearer token).
func (g *Guard) AllowsHost(hostport string) bool {
	// url.URL splits it as a browser does: without a port, HTTP's own, 80,
	// and an IPv6 address out of its brackets.
	u := url.URL{Host: hostport}
	host := strings.ToLower(u.Hostname())
	if cmp.Or(u.Port(), "80") != g.port || host == "" {
		return false
	}
	if host == "localhost" || host == g.display {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.Equal(g.ip) || g.ip.IsUnspecified())
}

// NewToken returns a new random token for a Guard: 256 bits, written in
// base64url so that it goes into an address as it is. crypto/rand.Read
// returns no error (it crashes the program rather than return one).
func NewToken() string {
	b := make([]byte, 256/8)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
