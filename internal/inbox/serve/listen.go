package serve

import (
	"context"
	"io"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
	"github.com/askuser/askuser/prompt/web/localhttp"
)

// listen serves the inbox on every transport the options name: its
// address (the Unix socket, TCP or NATS, which listens itself), TCP on
// Listen, and the web page p (nil for none); then, once all serve, it
// tells the person where the questions arrive. The page is served before
// the askers' address, so that a set that arrives has its page's address
// already, for the notification command; the address is served even when
// the page could not be, for the server to close it.
func listen(ctx context.Context, o Options, srv *inbox.Server, p *page, out io.Writer) error {
	at, err := o.Addr.Listen(out)
	if err != nil {
		return err
	}
	elsewhere, extras := serveExtras(ctx, o, srv, p, out)
	if err := at.Serve(ctx, srv); err != nil {
		return err
	}
	if extras != nil {
		return extras
	}
	if elsewhere != "" {
		say(out, "Askers elsewhere reach this inbox with ASKUSER_INBOX='%s'\n", elsewhere)
	}
	switch {
	case p == nil:
	case o.Headless:
		say(out, "Answer in your browser: %s\n", p.url)
	default:
		say(out, "Answer in your browser too: %s\n", p.url)
	}
	if p != nil && o.Open {
		go func() {
			if err := localhttp.OpenBrowser(o.Browser, p.url); err != nil {
				say(out, "Could not open a browser (%v); open the address above.\n", err)
			}
		}()
	}
	switch {
	case o.Headless:
		say(out, "askuser inbox: nothing can be typed here (no terminal), so the questions are answered on the web page only. The inbox serves until it is stopped (SIGTERM or SIGINT), and logs here each set that arrives or ends.\nWaiting for questions at %s.\n", o.Addr)
	case !o.Terminal:
		say(out, "askuser inbox: the questions that agents ask with askuser arrive here, oldest first.\n%s\n", view.Help)
	}
	return nil
}
