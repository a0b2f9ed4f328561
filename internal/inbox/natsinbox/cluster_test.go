package natsinbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/nats-io/nats-server/v2/server"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/natstest"
	"github.com/askuser/askuser/internal/testutil"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// clusterAddr is an inbox's address on every server of a cluster, with
// the parameters query.
func clusterAddr(t *testing.T, servers []*natstest.Server, query string) *address {
	t.Helper()
	hosts := make([]string, len(servers))
	for i, s := range servers {
		hosts[i] = "nats://" + s.HostPort()
	}
	a, err := parseAddr(strings.Join(hosts, ",") + "/team?" + query)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// leaderOf is the server that leads the stream of account ("$G" on a
// server without accounts) on a cluster, once one does.
func leaderOf(t *testing.T, servers []*natstest.Server, account, stream string) *natstest.Server {
	t.Helper()
	deadline := time.Now().Add(testutil.Slow)
	for {
		for _, srv := range servers {
			if srv.LeadsStream(account, stream) {
				return srv
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no server leads %s", stream)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A queue on a cluster of three servers, its streams kept by all three
// (replicas=3), loses no set when one of them is killed while the sets
// wait: the leader of the sets' stream. No asker and no inbox is started
// again: none is withdrawn, the inbox still takes sets, and every answer
// given after is shown as sent once it is stored, and reaches its asker.
// ASKUSER_CLUSTER_SETS sets how many wait: 1000 plays a fleet of a
// thousand askers; the default keeps the test short.
func TestClusterLosesNoSet(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 20
	}
	if v, err := strconv.Atoi(os.Getenv("ASKUSER_CLUSTER_SETS")); err == nil && v > 0 {
		n = v
	}
	servers := natstest.StartCluster(t, 3, "")
	id, _ := age.GenerateX25519Identity()
	a := clusterAddr(t, servers, "replicas=3&to="+id.Recipient().String())
	in := startInbox(t, a, id, "one")
	results := make([]<-chan askResult, n)
	for i := range results {
		results[i] = askOver(context.Background(), a.Dial(), &inbox.Request{From: fmt.Sprintf("asker-%d", i), Questions: json.RawMessage(questionsJSON)})
	}
	waitWithin(t, in.q, n, time.Duration(n)*100*time.Millisecond+10*time.Second)

	leaderOf(t, servers, "$G", a.setsStream()).Stop()
	// As long again as a set whose asker is gone takes to be withdrawn,
	// and more: every set still waits.
	time.Sleep(deadAfter + 5*time.Second)
	sets := in.q.Snapshot().Sets
	if len(sets) != n {
		t.Fatalf("%d sets wait after a server of the cluster was killed, not %d:\n%s", len(sets), n, in.said)
	}
	// A set asked now is shown too.
	late := askOver(context.Background(), a.Dial(), &inbox.Request{From: "late", Questions: json.RawMessage(questionsJSON)})
	sets = waitWithin(t, in.q, n+1, 30*time.Second)
	for _, s := range sets {
		if err := in.q.Answer(s, inbox.ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}}); err != nil {
			t.Fatalf("the answer to %s: %v", s.From, err)
		}
	}
	for i, ch := range append(results, late) {
		if r := result(t, ch, 30*time.Second); r.err != nil || len(r.e.Answers) != 1 || r.e.Answers[0].Labels[0] != "SQLite" {
			t.Fatalf("asker %d got %+v, %v", i, r.e, r.err)
		}
	}
	if strings.Contains(in.said.String(), "withdrawn") {
		t.Errorf("the inbox said:\n%s", in.said)
	}
}

// A stream that its cluster cannot serve (kept by one server, which is
// down) is named as unavailable, with what to do, not taken for a server
// without JetStream.
func TestClusterStreamUnavailable(t *testing.T) {
	servers := natstest.StartCluster(t, 3, "")
	id, _ := age.GenerateX25519Identity()
	a := clusterAddr(t, servers, "to="+id.Recipient().String())
	startInbox(t, a, id, "one").srv.Close("the test is over")
	leaderOf(t, servers, "$G", a.setsStream()).Stop()
	in := &testInbox{q: inbox.NewQueue(inbox.QueueOptions{}), said: &lines{}}
	in.srv = inbox.NewServer(in.q, schemaJSON(t))
	defer in.srv.Close("the test is over")
	l := &listener{addr: a, id: id, by: "two", out: in.said}
	err := l.Serve(context.Background(), in.srv)
	t.Log(err)
	if err == nil || !strings.Contains(err.Error(), "is unavailable on the NATS cluster at") || strings.Contains(err.Error(), "JetStream is on") {
		t.Fatalf("an inbox whose stream's server is down: %v", err)
	}
}

// A server whose JetStream limits have no room for the queue's streams
// (each replica counted), on disk or in memory, is named so, with its
// fix: the limits to raise, not JetStream to turn on.
func TestNoRoomForStreams(t *testing.T) {
	for _, c := range []struct {
		change      func(*server.Options)
		said, limit string
	}{
		{func(o *server.Options) { o.JetStreamMaxStore = 64 << 20 }, "insufficient storage", "max_file"},
		{func(o *server.Options) { o.JetStreamMaxMemory = 8 << 20 }, "insufficient memory", "max_mem"},
	} {
		ns := natstest.Start(t, c.change)
		id, _ := age.GenerateX25519Identity()
		a, err := parseAddr(ns.URL("team", "to="+id.Recipient().String()))
		if err != nil {
			t.Fatal(err)
		}
		in := &testInbox{q: inbox.NewQueue(inbox.QueueOptions{}), said: &lines{}}
		in.srv = inbox.NewServer(in.q, schemaJSON(t))
		l := &listener{addr: a, id: id, by: "one", out: in.said}
		err = l.Serve(context.Background(), in.srv)
		if err == nil {
			in.srv.Close("the test is over")
			t.Fatalf("the inbox started on a server with no room for its streams (%s)", c.limit)
		}
		if msg := err.Error(); !strings.Contains(msg, c.said) || !strings.Contains(msg, c.limit) || strings.Contains(msg, "JetStream is on") {
			t.Errorf("the inbox says: %v", err)
		}
	}
}

// pageCluster starts a cluster of three servers, each with the
// configuration that docs/across-machines.md gives a server of a cluster:
// its cluster block, with the accounts of the shared server's
// configuration (an inbox's account and an agents' account for alice and
// for bob), as the page prints them, but for the passwords, which end in
// pass, the test's own: a server of another test, which may take the port
// of one of these while it is down, lets none of this test's clients in.
func pageCluster(t *testing.T) (servers []*natstest.Server, pass string) {
	t.Helper()
	page, err := os.ReadFile("../../../docs/across-machines.md")
	if err != nil {
		t.Fatal(err)
	}
	const accounts = "# accounts { ... }, as the shared server's configuration gives it\n"
	shared := regexp.MustCompile("(?s)```conf\n# nats-server.conf: askuser.*?\n(accounts \\{.*?)```").FindSubmatch(page)
	cluster := regexp.MustCompile("(?s)```conf\n(# nats-server.conf on h1.*?)```").FindSubmatch(page)
	if shared == nil || cluster == nil || !strings.Contains(string(cluster[1]), accounts) {
		t.Fatal("docs/across-machines.md has not the shared server's configuration and a cluster's beside it")
	}
	pass = "-" + newSecret()[:8]
	conf := strings.Replace(string(cluster[1]), accounts, strings.ReplaceAll(string(shared[1]), `-PASSWORD"`, `-PASSWORD`+pass+`"`), 1)
	return natstest.StartCluster(t, 3, conf), pass
}

// pageAddr is alice's address on a cluster of pageCluster, as the user
// (alice-inbox, alice-agent) the page's configuration gives her, with the
// password that ends in pass.
func pageAddr(t *testing.T, servers []*natstest.Server, user, pass, query string) *address {
	t.Helper()
	hosts := make([]string, len(servers))
	for i, s := range servers {
		hosts[i] = s.HostPort()
	}
	a, err := parseAddr(fmt.Sprintf("nats://%s:%s-PASSWORD%s@%s/alice?%s", user, strings.ToUpper(user), pass, strings.Join(hosts, ",nats://"), query))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// askNoting asks at a, as an asker named from, writing to notes what the
// asker tells its person while it waits.
func askNoting(ctx context.Context, t *testing.T, a *address, from string, notes io.Writer) <-chan askResult {
	var qs []schema.Question
	if err := json.Unmarshal([]byte(questionsJSON), &qs); err != nil {
		t.Fatal(err)
	}
	ch := make(chan askResult, 1)
	go func() {
		answers, err := inbox.NewAsker(inbox.AskerOptions{Addr: a, From: from, Out: notes}).Ask(ctx, qs)
		ch <- askResult{inbox.Event{Answers: answers}, err}
	}()
	return ch
}

// A queue on a cluster of three servers, replicas=3, with the page's
// accounts (the streams in the inbox's, the askers in the agents'), loses
// no set when two of them are killed (the sets' leader among them) and one
// comes back. While the queue has no quorum, the running inbox and an
// asker that starts (with to= or without) say so, once, and wait, neither
// saying that no inbox has run there, and an answer given is not sent yet; once
// the quorum is back, the inbox says that it reads its streams again, and
// every set that waited is answered, those asked meanwhile included.
func TestClusterNoQuorum(t *testing.T) {
	start := time.Now()
	servers, pass := pageCluster(t)
	id, _ := age.GenerateX25519Identity()
	query := "replicas=3&to=" + id.Recipient().String()
	in := startInbox(t, pageAddr(t, servers, "alice-inbox", pass, query), id, "one")
	agents := pageAddr(t, servers, "alice-agent", pass, query)
	const n = 5
	results := make([]<-chan askResult, n)
	for i := range results {
		results[i] = askOver(context.Background(), agents.Dial(), &inbox.Request{From: fmt.Sprintf("asker-%d", i), Questions: json.RawMessage(questionsJSON)})
	}
	sets := waitWithin(t, in.q, n, time.Minute)
	t.Logf("%d sets shown %s after the cluster started", n, time.Since(start).Round(time.Second))
	leader := leaderOf(t, servers, "alice", agents.setsStream())
	var other *natstest.Server
	for _, s := range servers {
		if s != leader {
			other = s
			break
		}
	}
	leader.Stop()
	other.Stop()
	down := time.Now()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	keyless := *agents
	keyless.To = ""
	notes := []*lines{{}, {}}
	late := []<-chan askResult{askNoting(ctx, t, agents, "late", notes[0]), askNoting(ctx, t, &keyless, "late-keyless", notes[1])}
	const noQuorum = "have no quorum"
	waitSaid(t, in.said, noQuorum, time.Minute)
	t.Logf("the inbox said that its streams have no quorum %s after two servers went", time.Since(down).Round(time.Second))
	if !strings.Contains(in.said.String(), "The inbox waits until it can read them again.") {
		t.Errorf("without quorum, the inbox said:\n%s", in.said)
	}
	for i, said := range notes {
		// Seldom (four runs in sixty-five), the server left leads the
		// streams for a while after the others' Shutdown, and stores what
		// comes: the asker's set waits then, as it says.
		deadline := time.Now().Add(time.Minute)
		for !strings.Contains(said.String(), noQuorum) && !strings.Contains(said.String(), "Waiting for an answer") && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		switch {
		case strings.Contains(said.String(), noQuorum) && strings.Contains(said.String(), "waiting until it does"):
		case strings.Contains(said.String(), "Waiting for an answer"):
			t.Logf("the cluster stored a late set while two of its servers were down:\n%s", said)
		default:
			t.Errorf("without quorum, an asker said:\n%s", said)
		}
		select {
		case r := <-late[i]:
			t.Fatalf("an asker on a cluster without quorum ended: %+v, %v\n%s", r.e, r.err, said)
		default:
		}
	}
	for _, s := range sets {
		// Not sent yet (or, when the server left still stores, sent).
		err := in.q.Answer(s, inbox.ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}})
		if notSent, ok := errors.AsType[*inbox.NotSentError](err); err != nil && (!ok || !notSent.Pending) {
			t.Fatalf("the answer to %s, given without quorum: %v", s.From, err)
		}
	}
	// As long again as a set whose asker is gone takes to be withdrawn,
	// and more: nobody ends, or says otherwise.
	time.Sleep(deadAfter + 5*time.Second)
	for i, said := range append(notes, in.said) {
		if strings.Contains(strings.ToLower(said.String()), "no inbox has run at") || strings.Count(said.String(), noQuorum) > 1 || i < len(late) && len(late[i]) > 0 {
			t.Fatalf("without quorum, asker or inbox %d said:\n%s", i, said)
		}
	}

	other.Restart()
	back := time.Now()
	waitSaid(t, in.said, "Reading the inbox's streams on the NATS server at "+agents.serverURL()+" again.", 2*time.Minute)
	t.Logf("the inbox reads its streams again %s after a server came back", time.Since(back).Round(time.Second))
	for i, ch := range results {
		if r := result(t, ch, 2*time.Minute); r.err != nil || len(r.e.Answers) != 1 || r.e.Answers[0].Labels[0] != "SQLite" {
			t.Fatalf("asker %d got %+v, %v\n%s", i, r.e, r.err, in.said)
		}
	}
	t.Logf("the answers given without quorum reached their askers %s after a server came back", time.Since(back).Round(time.Second))
	for _, s := range waitWithin(t, in.q, len(late), 2*time.Minute) {
		answer(t, in.q, s, "SQLite")
	}
	t.Logf("the sets asked meanwhile were shown %s after a server came back", time.Since(back).Round(time.Second))
	for i, ch := range late {
		if r := result(t, ch, 2*time.Minute); r.err != nil || len(r.e.Answers) != 1 || r.e.Answers[0].Labels[0] != "SQLite" {
			t.Fatalf("a late asker got %+v, %v\n%s", r.e, r.err, notes[i])
		}
	}
	t.Logf("the askers of the sets asked meanwhile had their answers %s after a server came back", time.Since(back).Round(time.Second))
	if strings.Contains(in.said.String(), "withdrawn") {
		t.Errorf("the inbox said:\n%s", in.said)
	}
}
