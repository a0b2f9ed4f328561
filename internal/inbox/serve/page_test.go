package serve

import (
	"context"
	"path/filepath"
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
	for _, at := range []*localhttp.Addr{nil, &tcp} {
		srv := inbox.NewServer(inbox.NewQueue(inbox.QueueOptions{}), nil)
		var out strings.Builder
		o := Options{Addr: inbox.SocketAddr(filepath.Join(t.TempDir(), "inbox.sock")), Listen: at, Headless: true}
		err := listen(context.Background(), o, srv, nil, &out)
		srv.Close("the test is over")
		if err != nil {
			t.Fatal(err)
		}
		if got := out.String(); strings.Contains(got, "browser") || (at != nil) != strings.Contains(got, "ASKUSER_INBOX='http://127.0.0.1:") {
			t.Errorf("with --listen %v, the inbox said:\n%s", at, got)
		}
	}
}
