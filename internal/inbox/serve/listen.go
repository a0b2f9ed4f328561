package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web/localhttp"
)

// listen serves the inbox on every transport the options name: its
// address (the Unix socket, TCP or NATS), TCP on Listen, and the web page;
// then it tells the person where the questions arrive.
func listen(ctx context.Context, o Options, srv *inbox.Server, q *inbox.Queue, home string, out io.Writer) error {
	at, err := addrListener(o, out)
	if err != nil {
		return err
	}
	if err := at.Serve(ctx, srv); err != nil {
		if o.Addr.NATS != nil {
			return &prompt.UnavailableError{Err: err}
		}
		return err
	}
	if o.Addr.NATS != nil {
		announceNATS(o.Addr.NATS, at.(natsListener), out)
	}
	if err := serveExtras(ctx, o, srv, q, home, out); err != nil {
		return err
	}
	switch {
	case o.Headless:
		say(out, "askuser inbox: stdin is /dev/null, so the questions are answered on the web page only. The inbox serves until it is stopped (SIGTERM or SIGINT), and logs here each set that arrives or ends.\nWaiting for questions at %s.\n", o.Addr)
	case !o.Terminal:
		say(out, "askuser inbox: the questions that agents ask with askuser arrive here, oldest first.\n%s\n", view.Help)
	}
	return nil
}

// addrListener is the transport of the inbox's own address: the Unix
// socket, the TCP address (with its token) that ASKUSER_INBOX names, or
// its NATS server.
func addrListener(o Options, out io.Writer) (inbox.Listener, error) {
	switch {
	case o.Addr.NATS != nil:
		return newNATSListener(o.Addr.NATS, out)
	case o.AddrTCP != nil:
		ln, host, err := localhttp.ListenFor(*o.AddrTCP, "the inbox", out)
		if err != nil {
			return nil, err
		}
		return inbox.TCPListener{Listener: ln, Host: host, Token: o.Addr.Token}, nil
	}
	ln, err := inbox.ListenSocket(o.Addr.Path)
	if err != nil {
		return nil, err
	}
	return inbox.SocketListener{Listener: ln}, nil
}

// natsListener is the inbox on NATS, with where its identity is kept and
// whether it was made just now.
type natsListener struct {
	inbox.NATSListener
	path    string
	created bool
}

// newNATSListener serves the inbox on the NATS server of a, with the
// inbox's age identity (made the first time).
func newNATSListener(a *inbox.NATSAddr, out io.Writer) (inbox.Listener, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("find where to keep the inbox's identity: %w", err)
	}
	path := filepath.Join(dir, inbox.IdentityFile)
	id, created, err := inbox.LoadIdentity(path)
	if err != nil {
		return nil, err
	}
	if recipient := id.Recipient().String(); a.To != "" && a.To != recipient {
		return nil, &prompt.UnavailableError{Err: fmt.Errorf("%s has to=%s, but this inbox's recipient is %s (kept in %s): use the address this inbox prints, or copy the identity of the inbox that printed yours", inbox.EnvAddr, a.To, recipient, path)}
	}
	l := inbox.NATSListener{Addr: a, Options: inbox.NATSOptions{
		Identity: id, By: inboxBy(),
		Say: func(format string, args ...any) { say(out, format, args...) },
	}}
	return natsListener{NATSListener: l, path: path, created: created}, nil
}

// announceNATS prints the address askers use, with the inbox's recipient.
func announceNATS(a *inbox.NATSAddr, l natsListener, out io.Writer) {
	if l.created {
		say(out, "Made this inbox's age identity in %s: askers seal their questions to it.\n", l.path)
	}
	withTo := *a
	withTo.To = l.Options.Identity.Recipient().String()
	say(out, "Askers anywhere reach this inbox with ASKUSER_INBOX='%s'\n", withTo.URL())
}

// inboxBy names this inbox to the others on the same queue: USER@HOST.
func inboxBy() string {
	name := inbox.DefaultNATSName()
	if host, err := os.Hostname(); err == nil && host != "" {
		name += "@" + host
	}
	return name
}

// hostPort is the address to show for a listener on addr whose host is
// shown as host ("" for addr's own).
func hostPort(host, addr string) string {
	if host == "" {
		return addr
	}
	_, port, _ := net.SplitHostPort(addr)
	return net.JoinHostPort(host, port)
}
