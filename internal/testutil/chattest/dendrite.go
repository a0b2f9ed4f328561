//go:build heavy

package chattest

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// The Matrix service is tested against a real Homeserver, Dendrite, built
// from the Go module proxy at dendriteVersion (a few minutes on two cores
// the first time; the binaries are kept in the user's cache), run on
// 127.0.0.1 with SQLite and without federation.
const dendriteVersion = "v0.13.8"

// The user's cache and home, as they are when the test binary starts:
// cmd's tests give themselves a home of their own before they run, where
// no Dendrite is built yet, and where go would download its modules again.
var (
	userCache, userCacheErr = os.UserCacheDir()
	userHome                = os.Getenv("HOME")
)

// dendriteBinaries builds Dendrite's server and its two config tools
// once, into the user's cache, and returns their directory.
func dendriteBinaries(tb testing.TB) string {
	tb.Helper()
	if userCacheErr != nil {
		tb.Fatalf("a cache for Dendrite: %v", userCacheErr)
	}
	dir := filepath.Join(userCache, "askuser", "dendrite-"+dendriteVersion)
	tools := []string{"dendrite", "generate-config", "generate-keys"}
	if !slices.ContainsFunc(tools, func(t string) bool { _, err := os.Stat(filepath.Join(dir, t)); return err != nil }) {
		return dir
	}
	var pkgs []string
	for _, t := range tools {
		pkgs = append(pkgs, "github.com/matrix-org/dendrite/cmd/"+t+"@"+dendriteVersion)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", append([]string{"install"}, pkgs...)...)
	// Outside this module, so that Dendrite builds with its own
	// dependencies' versions.
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+userHome, "GOBIN="+dir, "GOFLAGS=", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("build Dendrite %s: %v\n%s", dendriteVersion, err, out)
	}
	return dir
}

// Homeserver is a Dendrite running for a test.
type Homeserver struct {
	URL string
}

// StartDendrite starts a Dendrite of its own for tb, on 127.0.0.1, and
// waits until it answers.
func StartDendrite(tb testing.TB) *Homeserver {
	tb.Helper()
	bin := dendriteBinaries(tb)
	dir := tb.TempDir()
	run := func(name string, args ...string) []byte {
		cmd := exec.Command(filepath.Join(bin, name), args...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			tb.Fatalf("%s: %v\n%s", name, err, stderr.String())
		}
		return out
	}
	run("generate-keys", "--private-key", "matrix_key.pem")
	config := string(run("generate-config", "-ci", "-dir", dir))
	// No federation: nothing leaves this machine.
	config = strings.Replace(config, "disable_federation: false", "disable_federation: true", 1)
	if err := os.WriteFile(filepath.Join(dir, "dendrite.yaml"), []byte(config), 0o600); err != nil {
		tb.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	logFile, err := os.Create(filepath.Join(dir, "dendrite.log"))
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "dendrite"), "-config", "dendrite.yaml", "-http-bind-address", addr, "-really-enable-open-registration")
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, logFile, logFile
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = logFile.Close()
	})
	hs := &Homeserver{URL: "http://" + addr}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := http.Get(hs.URL + "/_matrix/client/versions")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return hs
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "dendrite.log"))
			tb.Fatalf("Dendrite did not answer Within 2 minutes: %v\n%s", err, tail(log))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func tail(b []byte) []byte { return b[max(0, len(b)-4000):] }

// Register makes the account name on hs, with password, and returns its
// client, logged in.
func (hs *Homeserver) Register(tb testing.TB, name, password string) *mautrix.Client {
	tb.Helper()
	cli, err := mautrix.NewClient(hs.URL, "", "")
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := cli.RegisterDummy(context.Background(), &mautrix.ReqRegister[any]{Username: name, Password: password})
	if err != nil {
		tb.Fatalf("register %s: %v", name, err)
	}
	cli.UserID, cli.AccessToken = resp.UserID, resp.AccessToken
	return cli
}

// Member is someone in the room who reads it, as the person's chat app
// does.
type Member struct {
	Cli *mautrix.Client
	mu  sync.Mutex
	got []*event.Event // the messages of others, in the order they came
	new chan struct{}  // closed at the next
}

// Listen has cli read its rooms, as the person's chat app does, until tb
// ends.
func Listen(tb testing.TB, cli *mautrix.Client) *Member {
	m := &Member{Cli: cli, new: make(chan struct{})}
	syncer := cli.Syncer.(*mautrix.DefaultSyncer)
	syncer.OnEventType(event.EventMessage, func(_ context.Context, evt *event.Event) {
		if evt.Sender == cli.UserID {
			return
		}
		m.mu.Lock()
		m.got = append(m.got, evt)
		close(m.new)
		m.new = make(chan struct{})
		m.mu.Unlock()
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			_ = cli.SyncWithContext(ctx)
		}
	}()
	tb.Cleanup(func() { cancel(); <-done })
	return m
}

// Find waits for a message of others whose body has want in it, and
// returns it.
func (m *Member) Find(tb testing.TB, want string, ok func(*event.Event) bool) *event.Event {
	tb.Helper()
	deadline := time.After(Within)
	for {
		m.mu.Lock()
		for _, evt := range m.got {
			if c := evt.Content.AsMessage(); c != nil && strings.Contains(c.Body, want) && (ok == nil || ok(evt)) {
				m.mu.Unlock()
				return evt
			}
		}
		wait := m.new
		m.mu.Unlock()
		select {
		case <-wait:
		case <-deadline:
			tb.Fatalf("no message with %q Within %v", want, Within)
		}
	}
}

// Reply has m reply to evt with text.
func (m *Member) Reply(tb testing.TB, room id.RoomID, to id.EventID, text string) {
	tb.Helper()
	c := &event.MessageEventContent{MsgType: event.MsgText, Body: text,
		RelatesTo: &event.RelatesTo{InReplyTo: &event.InReplyTo{EventID: to}}}
	if _, err := m.Cli.SendMessageEvent(context.Background(), room, event.EventMessage, c); err != nil {
		tb.Fatal(err)
	}
}

// IsEdit reports whether evt edits another message.
func IsEdit(evt *event.Event) bool {
	c := evt.Content.AsMessage()
	return c.RelatesTo != nil && c.RelatesTo.Type == event.RelReplace
}
