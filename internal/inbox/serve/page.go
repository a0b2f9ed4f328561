package serve

import (
	"context"
	"io"
	"net"
	"net/http"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web/localhttp"
)

// serveExtras serves what the options add: askers over TCP (Listen), with
// a token, and the web page p (nil without Web), there too or else on this
// machine only. It returns the address that askers elsewhere are given
// (Listen's, "" without it), for the person to be told once the inbox
// serves at its address too: an inbox that fails there says nothing of a
// page it will not serve.
func serveExtras(ctx context.Context, o Options, srv *inbox.Server, p *page, out io.Writer) (elsewhere string, _ error) {
	at, what := o.Listen, "the inbox"
	switch {
	case at == nil && p == nil:
		return "", nil
	case at == nil:
		local, _ := localhttp.ParseAddr(localhttp.DefaultAddr)
		at, what = &local, "the inbox's page"
	case p != nil:
		what = "the inbox, with its page,"
	}
	ln, host, err := localhttp.Listen(*at, what, out)
	if err != nil {
		return "", &prompt.UnavailableError{Err: err}
	}
	var h http.Handler
	if p != nil {
		if h, err = p.on(ln, host); err != nil {
			_ = ln.Close()
			return "", err
		}
		srv.SetPage(p.url)
	}
	if o.Listen == nil {
		srv.Serve(ln, h)
		return "", nil
	}
	tcp := inbox.TCPListener{Listener: ln, Host: host, Token: inbox.TokenBeside(o.Addr), Page: h}
	if err := tcp.Serve(ctx, srv); err != nil {
		_ = ln.Close()
		return "", err
	}
	return inbox.TCPAddr{Host: localhttp.HostPort(host, ln.Addr()), Token: tcp.Token}.URL(), nil
}

// page is the inbox's web page (Web), before it is served: its options,
// but for its queue (set by newQueue) and its listener's.
type page struct {
	o      view.WebOptions
	url    string    // its address, with its token, once served
	server string    // its scheme, host and port, once served
	web    *view.Web // its handler, once served
}

// newPage is the page of an inbox with o, nil without Web; it serves the
// links of the sets' notifications too.
func newPage(o Options, home string, links *view.Links) *page {
	if !o.Web {
		return nil
	}
	return &page{o: view.WebOptions{Home: home, Token: localhttp.NewToken(), Links: links}}
}

// on returns the page's handler on ln, whose address is shown with host.
func (p *page) on(ln net.Listener, host string) (http.Handler, error) {
	p.o.Addr, p.o.Host = ln.Addr(), host
	h, err := view.NewWeb(p.o)
	if err != nil {
		return nil, err
	}
	p.web = h
	p.server = "http://" + localhttp.HostPort(host, ln.Addr())
	p.url = p.server + "/?token=" + p.o.Token
	return h, nil
}

// setURL is the address of s's own page (see view.Web), "" when there is
// no page.
func (p *page) setURL(s *inbox.Set) string {
	if p == nil {
		return ""
	}
	return p.server + view.SetPath(s) + "?token=" + p.o.Token
}

// actions are the options of s, each with the link that answers it in one
// tap (see view.Web.Taps); none when there is no page, or s is not one
// single choice among few options.
func (p *page) actions(s *inbox.Set) []notify.Action {
	if p == nil || p.web == nil {
		return nil
	}
	var actions []notify.Action
	for i, path := range p.web.Taps(s) {
		actions = append(actions, notify.Action{Label: s.Questions[0].Options[i].Label, URL: p.server + path})
	}
	return actions
}
