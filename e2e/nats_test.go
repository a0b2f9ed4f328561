package e2e

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/askuser/askuser/internal/inbox/natsinbox"
	"github.com/askuser/askuser/internal/natstest"
)

// These tests run askuser inbox and its askers as processes that meet on
// a NATS server with JetStream, run by the test: each process with a
// runtime directory of its own, as on different machines. The inboxes
// share the directory of their configuration, where the age identity is
// kept, as one person's inboxes would.

// natsEnv is the environment of an inbox or an asker on NATS at addr.
func natsEnv(t *testing.T, addr, config string) []string {
	return append(inboxEnv(addr), "XDG_RUNTIME_DIR="+t.TempDir(), "XDG_CONFIG_HOME="+config)
}

// printedAddr is the line where askuser inbox says how askers reach it.
var printedAddr = regexp.MustCompile(`Askers anywhere reach this inbox with ASKUSER_INBOX='([^']+)'`)

// startNATSInbox starts askuser inbox at addr, with line prompts and the
// variables env besides, and returns it once connected, with the address
// it printed.
func startNATSInbox(t *testing.T, addr, config string, env ...string) (*inboxProcess, string) {
	t.Helper()
	cmd := exec.Command(askuserPath(t), "inbox")
	cmd.Env = append(natsEnv(t, addr, config), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	in := &inboxProcess{stdin: stdin, screen: newScreenOut()}
	cmd.Stderr = in.screen
	in.process = startProcess(t, cmd, (*exec.Cmd).Start)
	t.Cleanup(func() { stdin.Close() })
	deadline := time.Now().Add(time.Minute)
	for {
		if m := printedAddr.FindStringSubmatch(in.screen.String()); m != nil {
			return in, m[1]
		}
		select {
		case <-in.done:
			t.Fatalf("askuser inbox exited %d:\n%s", in.code(), in.screen)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the inbox did not connect; it shows:\n%s", in.screen)
		}
	}
}

// quit ends the inbox as the person does, and waits for it.
func (in *inboxProcess) quit(t *testing.T) {
	t.Helper()
	in.stdin.Close()
	<-in.done
}

func startNATSAsker(t *testing.T, addr, config, dir, name string, args ...string) *asker {
	t.Helper()
	return startAskerWith(t, natsEnv(t, addr, config), dir, name, args...)
}

// waitStderr waits until a's stderr holds want.
func (a *asker) waitStderr(t *testing.T, want string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !strings.Contains(a.stderr.String(), want) {
		select {
		case <-a.done:
			t.Fatalf("%s exited %d before saying %q:\n%s", a.name, a.code(), want, a.stderr)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not say %q within %s:\n%s", a.name, want, d, a.stderr)
		}
	}
}

// grepStore fails when a file under dir holds text.
func grepStore(t *testing.T, dir string, texts ...string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n += len(b)
		for _, text := range texts {
			if strings.Contains(string(b), text) {
				t.Errorf("the server's store %s holds %q in plain text", path, text)
			}
		}
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("the store %s: %d bytes, %v", dir, n, err)
	}
}

// Askers on other machines reach an inbox through a NATS server over TLS,
// with a password: they queue their sets before any inbox runs, sealed
// (the server's store holds no question), and the inbox that starts later
// shows and answers each. Wrong credentials and an untrusted server are
// exit 69, with the cause and the fix.
func TestNATSAcrossMachines(t *testing.T) {
	tlsConfig, caFile := natstest.TLS(t)
	ns := natstest.Start(t, func(o *server.Options) {
		o.TLSConfig, o.TLS = tlsConfig, true
		o.Username, o.Password = "alice", "s3cret-pw"
	})
	config := t.TempDir()
	base := fmt.Sprintf("tls://alice:s3cret-pw@%s/alice?ca=%s", ns.HostPort(), caFile)
	in, addr := startNATSInbox(t, base, config)
	if !strings.Contains(addr, "to=age1") || !strings.HasPrefix(addr, "tls://alice:s3cret-pw@127.0.0.1:") {
		t.Fatalf("the inbox printed %q", addr)
	}
	in.quit(t)

	dir := questionsDir(t)
	var askers []*asker
	for _, args := range [][]string{{"ask", "-f", "q.json"}, {"confirm", "confirm", "Deploy the secret plan?"}, {"input", "input", "Name the hidden branch?"}} {
		a := startNATSAsker(t, addr, t.TempDir(), dir, args[0], args[1:]...)
		// One after the other: the inbox shows them in the order they
		// were stored.
		a.waitStderr(t, "Waiting for an answer in the inbox (askuser inbox) at tls://127.0.0.1:", 30*time.Second)
		askers = append(askers, a)
	}
	grepStore(t, ns.Opts.StoreDir, "Which database", "secret plan", "hidden branch", "PostgreSQL")

	in, again := startNATSInbox(t, base, config)
	if again != addr {
		t.Fatalf("the inbox printed %q, then %q: its identity was not kept", addr, again)
	}
	for _, step := range []struct{ from, answer string }{{"ask", "sqlite"}, {"confirm", "y"}, {"input", "feature-x"}} {
		in.screen.waitFor(t, "From "+step.from, 30*time.Second)
		io.WriteString(in.stdin, step.answer+"\n")
	}
	askers[0].answered(t, 0, sqlite)
	askers[1].answered(t, 0, "")
	askers[2].answered(t, 0, "feature-x\n")

	for _, c := range []struct{ addr, stderr string }{
		{strings.Replace(addr, "s3cret-pw", "wrong", 1), "Error: The NATS server at tls://" + ns.HostPort() + " refused the credentials: check the token, user:password, creds= or nkey= in ASKUSER_INBOX\n"},
		{regexp.MustCompile(`ca=[^&]*&?`).ReplaceAllString(addr, ""), "has a certificate this machine does not trust"},
	} {
		a := startNATSAsker(t, c.addr, t.TempDir(), dir, "refused", "-f", "q.json")
		<-a.done
		if a.code() != 69 || a.stdout.String() != "" || !strings.Contains(a.stderr.String(), c.stderr) || strings.Count(a.stderr.String(), "\n") != 1 {
			t.Errorf("exit %d, stdout %q, stderr %q; want 69 and %q", a.code(), a.stdout, a.stderr, c.stderr)
		}
	}
}

// A set waits through everything but its end: the inbox killed and started
// again, and the NATS server restarted, on the same store. Its waits for
// the restarts run beside the other tests.
func TestNATSRestarts(t *testing.T) {
	t.Parallel()
	ns := natstest.Start(t, nil)
	config := t.TempDir()
	in, addr := startNATSInbox(t, ns.URL("team", ""), config)
	dir := questionsDir(t)

	first := startNATSAsker(t, addr, t.TempDir(), dir, "first", "-f", "q.json")
	in.screen.waitFor(t, "From first", 30*time.Second)
	in.cmd.Process.Kill()
	<-in.done
	time.Sleep(2 * time.Second)
	select {
	case <-first.done:
		t.Fatalf("the asker ended when the inbox died: exit %d\n%s", first.code(), first.stderr)
	default:
	}
	in, _ = startNATSInbox(t, ns.URL("team", ""), config)
	in.screen.waitFor(t, "From first", 30*time.Second)
	io.WriteString(in.stdin, "postgresql\n")
	first.answered(t, 0, postgreSQL)

	second := startNATSAsker(t, addr, t.TempDir(), dir, "second", "-f", "q.json")
	in.screen.waitFor(t, "From second", 30*time.Second)
	ns.Stop()
	time.Sleep(2 * time.Second)
	in.screen.waitFor(t, "Lost the NATS server at nats://"+ns.HostPort(), 5*time.Second)
	ns.Restart()
	in.screen.waitFor(t, "Connected to the NATS server at nats://"+ns.HostPort()+" again.", 10*time.Second)
	// The answer is given once the server is back: it reaches the asker
	// that waited through the restart.
	time.Sleep(time.Second)
	io.WriteString(in.stdin, "sqlite\n")
	second.answered(t, 0, sqlite)
	// A set that arrives after the restart is shown too.
	third := startNATSAsker(t, addr, t.TempDir(), dir, "third", "-f", "q.json")
	in.screen.waitFor(t, "From third", 30*time.Second)
	in.type_(t, "postgresql")
	third.answered(t, 0, postgreSQL)
	if strings.Contains(in.screen.String(), "withdrawn") {
		t.Errorf("a set was withdrawn:\n%s", in.screen)
	}

	// The sets still waiting when the inbox quits stay for the next.
	fourth := startNATSAsker(t, addr, t.TempDir(), dir, "fourth", "-f", "q.json")
	in.screen.waitFor(t, "From fourth", 30*time.Second)
	in.quit(t)
	if !strings.Contains(in.screen.String(), "The inbox quits: the set still waiting stays on the NATS server, for the next inbox.\n") {
		t.Errorf("the inbox quit saying:\n%s", in.screen)
	}
	in, _ = startNATSInbox(t, ns.URL("team", ""), config)
	in.screen.waitFor(t, "From fourth", 30*time.Second)
	in.type_(t, "sqlite")
	fourth.answered(t, 0, sqlite)
}

// An asker that is killed sends nothing more: its set leaves the inbox
// within 5 s, and the screen says so.
func TestNATSAskerKilled(t *testing.T) {
	ns := natstest.Start(t, nil)
	in, addr := startNATSInbox(t, ns.URL("team", ""), t.TempDir())
	a := startNATSAsker(t, addr, t.TempDir(), questionsDir(t), "doomed", "-f", "q.json")
	in.screen.waitFor(t, "From doomed", 30*time.Second)
	start := time.Now()
	a.cmd.Process.Signal(syscall.SIGKILL)
	in.screen.waitFor(t, "The questions from doomed were withdrawn (", 5*time.Second)
	t.Logf("withdrawn %s after the asker was killed", time.Since(start))
}

// Two inboxes on one queue both show a set; when one answers it, the
// other says who did, and moves on.
func TestNATSAnsweredElsewhere(t *testing.T) {
	ns := natstest.Start(t, nil)
	config := t.TempDir()
	one, addr := startNATSInbox(t, ns.URL("team", ""), config)
	two, _ := startNATSInbox(t, ns.URL("team", ""), config)
	a := startNATSAsker(t, addr, t.TempDir(), questionsDir(t), "shared", "-f", "q.json")
	one.screen.waitFor(t, "From shared", 30*time.Second)
	two.screen.waitFor(t, "From shared", 30*time.Second)
	io.WriteString(one.stdin, "sqlite\n")
	a.answered(t, 0, sqlite)
	host, _ := os.Hostname()
	by := natsinbox.DefaultName() + "@" + host
	two.screen.waitFor(t, "The questions from shared were answered elsewhere (by "+by+").", 5*time.Second)

	// A set cancelled in one inbox is cancelled for its asker (exit 130)
	// and in the other.
	b := startNATSAsker(t, addr, t.TempDir(), questionsDir(t), "dropped", "-f", "q.json")
	one.screen.waitFor(t, "From dropped", 30*time.Second)
	two.screen.waitFor(t, "From dropped", 30*time.Second)
	two.type_(t, "/cancel")
	b.answered(t, 130, "")
	one.screen.waitFor(t, "The questions from dropped were cancelled elsewhere (by "+by+").", 5*time.Second)

	// An asker whose --timeout passes withdraws its set from both.
	c := startNATSAsker(t, addr, t.TempDir(), questionsDir(t), "impatient", "-f", "q.json", "--timeout", "2s")
	c.answered(t, 124, "")
	one.screen.waitFor(t, "The questions from impatient were withdrawn (", 5*time.Second)
	two.screen.waitFor(t, "The questions from impatient were withdrawn (", 5*time.Second)
}

// readmeServerConf is the nats-server configuration that
// docs/across-machines.md gives for a shared server: the subjects the agents and the inbox are allowed.
func readmeServerConf(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("../docs/across-machines.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```conf\n(# nats-server.conf: askuser.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("docs/across-machines.md has no nats-server.conf for askuser")
	}
	return string(m[1])
}

// readmeServer starts a NATS server with the configuration of
// docs/across-machines.md, as the page prints it, changed by change when
// it is not nil, and with a user of the test's own in each person's
// account, test-admin-NAME, who may do anything there (see admin).
func readmeServer(t *testing.T, change func(*server.Options)) *natstest.Server {
	t.Helper()
	conf := filepath.Join(t.TempDir(), "nats-server.conf")
	if err := os.WriteFile(conf, []byte(readmeServerConf(t)), 0o600); err != nil {
		t.Fatal(err)
	}
	loaded, err := server.ProcessConfigFile(conf)
	if err != nil {
		t.Fatalf("docs/across-machines.md's nats-server.conf: %v", err)
	}
	return natstest.Start(t, func(o *server.Options) {
		host, port, store := o.Host, o.Port, o.StoreDir
		*o = *loaded
		o.Host, o.Port, o.StoreDir, o.NoLog, o.NoSigs = host, port, store, true, true
		for _, name := range []string{"alice", "bob"} {
			u := &server.User{Username: "test-admin-" + name, Password: "test-admin"}
			for _, acc := range o.Accounts {
				if acc.Name == name {
					u.Account = acc
				}
			}
			o.Users = append(o.Users, u)
		}
		if change != nil {
			change(o)
		}
	})
}

// With README's permissions, the agents' user can ask and the inbox's user
// can answer, askers first; the agents' user cannot read the queue.
func TestNATSReadmePermissions(t *testing.T) {
	ns := readmeServer(t, nil)
	config := t.TempDir()
	inboxURL := fmt.Sprintf("nats://alice-inbox:ALICE-INBOX-PASSWORD@%s/alice", ns.HostPort())
	in, addr := startNATSInbox(t, inboxURL, config)
	in.quit(t)
	agentAddr := strings.Replace(addr, "alice-inbox:ALICE-INBOX-PASSWORD", "alice-agent:ALICE-AGENT-PASSWORD", 1)
	if agentAddr == addr {
		t.Fatalf("the inbox printed %q", addr)
	}

	// The agents' user cannot be an inbox. (With --web, as a service runs
	// it: stdin is /dev/null, and without a page to answer on the inbox
	// exits 69 before it tries the server.)
	spy := exec.Command(askuserPath(t), "inbox", "--web")
	spy.Env = natsEnv(t, agentAddr, config)
	out, _ := spy.CombinedOutput()
	t.Logf("askuser inbox as the agents' user: %s", out)
	if spy.ProcessState.ExitCode() != 69 || strings.Count(string(out), "\n") != 1 || !strings.Contains(string(out), "does not allow these credentials") {
		t.Errorf("askuser inbox as the agents' user: exit %d\n%s", spy.ProcessState.ExitCode(), out)
	}

	a := startNATSAsker(t, agentAddr, t.TempDir(), questionsDir(t), "agent", "-f", "q.json")
	a.waitStderr(t, "Waiting for an answer", 30*time.Second)
	in, _ = startNATSInbox(t, inboxURL, config)
	in.screen.waitFor(t, "From agent", 30*time.Second)
	io.WriteString(in.stdin, "sqlite\n")
	a.answered(t, 0, sqlite)
}

// A server without JetStream has nowhere to keep the questions: exit 69,
// with how to turn it on.
func TestNATSWithoutJetStream(t *testing.T) {
	ns := natstest.Start(t, func(o *server.Options) { o.JetStream = false })
	a := startNATSAsker(t, ns.URL("alice", ""), t.TempDir(), questionsDir(t), "agent", "-f", "q.json")
	<-a.done
	want := "Error: The NATS server at nats://" + ns.HostPort() + " has no JetStream for this account, where the questions wait: start it with nats-server -js (or enable JetStream for the account)\n"
	if a.code() != 69 || a.stdout.String() != "" || a.stderr.String() != want {
		t.Errorf("exit %d, stdout %q, stderr %q", a.code(), a.stdout, a.stderr)
	}
}

// askuser mcp asks in the inbox on NATS as in any inbox, through the same
// variable.
func TestNATSMCP(t *testing.T) {
	ns := natstest.Start(t, nil)
	in, addr := startNATSInbox(t, ns.URL("team", ""), t.TempDir())
	home := t.TempDir()
	r := startMCP(t, mcpClient{name: "claude-code", dir: home, env: []string{"ASKUSER_INBOX=" + addr, "HOME=" + home, "XDG_RUNTIME_DIR=" + t.TempDir(), "NO_COLOR=1"}})
	call := r.start(t, context.Background(), colourQuestion)
	in.screen.waitFor(t, "From claude-code via MCP in ~", 30*time.Second)
	in.type_(t, "blue")
	res, err := wait(t, call)
	answered(t, res, err, `{"answers":{"Colour":"Blue"}}`)
}
