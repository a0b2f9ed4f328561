package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/natsinbox"
	"github.com/askuser/askuser/internal/natstest"
	"github.com/askuser/askuser/prompt"
)

// askuser doctor, in full: without an inbox, with one, and with an inbox
// on a NATS server; each setting that the commands would refuse makes it
// exit 1.
func TestDoctor(t *testing.T) {
	runDir := t.TempDir()
	sock := filepath.Join(runDir, "askuser", "inbox.sock")
	person := personInbox(t, func(*inbox.Set) []prompt.Answer { return nil })
	ns := natstest.Start(t, nil)
	nats := ns.URL("alice", "")
	for _, tt := range []struct {
		name string
		vars map[string]string
		code int
		want string
	}{
		{"no inbox", map[string]string{"XDG_RUNTIME_DIR": runDir, "ASKUSER_INBOX": ""}, 0, `askuser 1.2.3 (commit abc, built 2026-01-02)

The inbox
  Askers here ask at {SOCK} (from XDG_RUNTIME_DIR).
  ✖ No inbox answers at {SOCK}.
    An asker with nobody at its stdin exits 66 (69 with --ui inbox): start an
    inbox in a terminal you keep in view, with askuser inbox.

Ways to reach an inbox
  Unix socket  {SOCK}: askers here ask there
  TCP          not in use (askuser inbox --listen ADDR)
  NATS         not in use (ASKUSER_INBOX=nats://HOST:PORT/NAME)

Environment (askuser help environment)
  XDG_RUNTIME_DIR={RUN}
`},
		{"an inbox", map[string]string{"XDG_RUNTIME_DIR": runDir, "ASKUSER_INBOX": string(person), "ASKUSER_FROM": "ci",
			"ASKUSER_CHAT": "telegram", "ASKUSER_TELEGRAM_TOKEN": "123:bot-token", "ASKUSER_TELEGRAM_CHAT": "-100123", "ASKUSER_MATRIX_PASSWORD": "hunter2"}, 0, `askuser 1.2.3 (commit abc, built 2026-01-02)

The inbox
  Askers here ask at {PERSON} (from ASKUSER_INBOX).
  ✔ An inbox answers there, with no set waiting.
    An asker with nobody at its stdin asks in it.

Ways to reach an inbox
  Unix socket  {SOCK}: no inbox runs there
  TCP          not in use (askuser inbox --listen ADDR)
  NATS         not in use (ASKUSER_INBOX=nats://HOST:PORT/NAME)

Environment (askuser help environment)
  ASKUSER_FROM=ci
  ASKUSER_INBOX is set (its value may hold a secret: not shown)
  ASKUSER_CHAT=telegram
  ASKUSER_TELEGRAM_TOKEN is set (its value may hold a secret: not shown)
  ASKUSER_TELEGRAM_CHAT=-100123
  ASKUSER_MATRIX_PASSWORD is set (its value may hold a secret: not shown)
  XDG_RUNTIME_DIR={RUN}
`},
		{"NATS", map[string]string{"XDG_RUNTIME_DIR": runDir, "ASKUSER_INBOX": nats, "ASKUSER_MAX_OPTIONS": "1"}, 1, `askuser 1.2.3 (commit abc, built 2026-01-02)

The inbox
  Askers here ask at {NATS} (from ASKUSER_INBOX).
  ✔ The server answers: the questions of askers wait there for an inbox.

Ways to reach an inbox
  Unix socket  {SOCK}: no inbox runs there
  TCP          not in use (askuser inbox --listen ADDR)
  NATS         {NATS}: askers here ask there

Environment (askuser help environment)
  ASKUSER_INBOX is set (its value may hold a secret: not shown)
  ASKUSER_MAX_OPTIONS=1
  XDG_RUNTIME_DIR={RUN}
  ✖ ASKUSER_MAX_OPTIONS must be an integer of at least 2 (got "1")
`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, context.Background(), strings.NewReader(""), tt.vars, "doctor")
			a, _ := inbox.ParseAddr(nats, natsinbox.Remote())
			want := strings.NewReplacer("{SOCK}", sock, "{RUN}", runDir, "{PERSON}", string(person), "{NATS}", a.String()).Replace(tt.want)
			if code != tt.code || stdout != want || stderr != "" {
				t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit %d, stdout:\n%s", code, stderr, stdout, tt.code, want)
			}
		})
	}
}

// With an inbox that serves a web page running, doctor gives the page's
// address again, which the inbox printed once, at its start: the inbox
// tells it on its Unix socket only, to the same user.
func TestDoctorPage(t *testing.T) {
	raw, err := os.ReadFile("../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	a := inbox.SocketAddr(filepath.Join(t.TempDir(), "inbox.sock"))
	ln, err := inbox.ListenSocket(string(a))
	if err != nil {
		t.Fatal(err)
	}
	srv := inbox.NewServer(inbox.NewQueue(inbox.QueueOptions{}), raw)
	_ = inbox.SocketListener{Listener: ln}.Serve(context.Background(), srv)
	t.Cleanup(func() { srv.Close("the test is over") })
	const page = "http://127.0.0.1:4321/?token=abc"
	srv.SetPage(page)
	code, stdout, stderr := run(t, context.Background(), strings.NewReader(""), map[string]string{"ASKUSER_INBOX": string(a)}, "doctor")
	want := "  ✔ An inbox answers there, with no set waiting.\n    An asker with nobody at its stdin asks in it.\n    Its web page: " + page + "\n"
	if code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant it to hold:\n%s", code, stderr, stdout, want)
	}
}

// With none of the variables of the table set, doctor says so where it
// would list them.
func TestDoctorNothingSet(t *testing.T) {
	code, stdout, stderr := run(t, context.Background(), strings.NewReader(""), map[string]string{"ASKUSER_INBOX": ""}, "doctor")
	want := "\nEnvironment (askuser help environment)\n  None of the variables askuser reads is set.\n"
	if code != 0 || !strings.HasSuffix(stdout, want) {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit 0 and it to end with:\n%s", code, stderr, stdout, want)
	}
}
