package serve

import (
	"context"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt/web/localhttp"
)

// A headless inbox answered in the chat alone has no page: what it says
// of where it is names none, with askers over TCP or without.
func TestAnnounceWithoutPage(t *testing.T) {
	tcp, err := localhttp.ParseAddr("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	for _, listen := range []*localhttp.Addr{nil, &tcp} {
		srv := inbox.NewServer(inbox.NewQueue(inbox.QueueOptions{}), nil)
		var out strings.Builder
		o := Options{Addr: inbox.SocketAddr("/run/inbox.sock"), Listen: listen, Headless: true}
		announce, err := serveExtras(context.Background(), o, srv, nil, &out)
		if err != nil {
			t.Fatal(err)
		}
		out.Reset()
		announce()
		srv.Close("the test is over")
		if got := out.String(); strings.Contains(got, "browser") || (listen != nil) != strings.Contains(got, "ASKUSER_INBOX='http://127.0.0.1:") {
			t.Errorf("with --listen %v, the inbox said:\n%s", listen, got)
		}
	}
}
