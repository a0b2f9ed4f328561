package natsinbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/natstest"
	"github.com/askuser/askuser/prompt"
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

// leaderOf is the server that leads stream on a cluster.
func leaderOf(t *testing.T, servers []*natstest.Server, stream string) *natstest.Server {
	t.Helper()
	nc, err := nats.Connect("nats://" + servers[0].HostPort())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	s, err := js.Stream(context.Background(), stream)
	if err != nil {
		t.Fatal(err)
	}
	for _, srv := range servers {
		if c := s.CachedInfo().Cluster; c != nil && c.Leader == srv.Name() {
			return srv
		}
	}
	t.Fatalf("no server leads %s", stream)
	return nil
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
	servers := natstest.StartCluster(t, 3)
	id, _ := age.GenerateX25519Identity()
	a := clusterAddr(t, servers, "replicas=3&to="+id.Recipient().String())
	in := startInbox(t, a, id, "one")
	results := make([]<-chan askResult, n)
	for i := range results {
		results[i] = askOver(context.Background(), a.Dial(), &inbox.Request{From: fmt.Sprintf("asker-%d", i), Questions: json.RawMessage(questionsJSON)})
	}
	waitWithin(t, in.q, n, time.Duration(n)*100*time.Millisecond+10*time.Second)

	leaderOf(t, servers, a.setsStream()).Stop()
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
	servers := natstest.StartCluster(t, 3)
	id, _ := age.GenerateX25519Identity()
	a := clusterAddr(t, servers, "to="+id.Recipient().String())
	startInbox(t, a, id, "one").srv.Close("the test is over")
	leaderOf(t, servers, a.setsStream()).Stop()
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
// (each replica counted) is named so, with its fix: the limits to raise,
// not JetStream to turn on.
func TestNoRoomForStreams(t *testing.T) {
	ns := natstest.Start(t, func(o *server.Options) { o.JetStreamMaxStore = 64 << 20 })
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
		t.Fatal("the inbox started on a server with no room for its streams")
	}
	if msg := err.Error(); !strings.Contains(msg, "insufficient storage") || !strings.Contains(msg, "max_file") || strings.Contains(msg, "JetStream is on") {
		t.Errorf("the inbox says: %v", err)
	}
}

// A queue on a cluster of three servers, replicas=3, loses no set when two
// of them are killed (the sets' leader among them) and one comes back:
// an asker that starts while the queue has no quorum waits, rather than
// say that no inbox has run there, and every set that waited is answered
// once the quorum is back.
func TestClusterNoQuorum(t *testing.T) {
	servers := natstest.StartCluster(t, 3)
	id, _ := age.GenerateX25519Identity()
	a := clusterAddr(t, servers, "replicas=3&to="+id.Recipient().String())
	in := startInbox(t, a, id, "one")
	const n = 5
	results := make([]<-chan askResult, n)
	for i := range results {
		results[i] = askOver(context.Background(), a.Dial(), &inbox.Request{From: fmt.Sprintf("asker-%d", i), Questions: json.RawMessage(questionsJSON)})
	}
	sets := waitWithin(t, in.q, n, 30*time.Second)
	leader := leaderOf(t, servers, a.setsStream())
	var other *natstest.Server
	for _, s := range servers {
		if s != leader {
			other = s
			break
		}
	}
	leader.Stop()
	other.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	late := askOver(ctx, a.Dial(), &inbox.Request{From: "late", Questions: json.RawMessage(questionsJSON)})
	select {
	case r := <-late:
		t.Fatalf("an asker on a cluster without quorum ended: %+v, %v", r.e, r.err)
	case <-time.After(deadAfter + 5*time.Second):
	}
	other.Restart()
	for _, s := range sets {
		if err := in.q.Answer(s, inbox.ViaHere, []prompt.Answer{{Labels: []string{"SQLite"}}}); err != nil {
			t.Logf("the answer to %s: %v", s.From, err)
		}
	}
	for i, ch := range results {
		if r := result(t, ch, 2*time.Minute); r.err != nil || len(r.e.Answers) != 1 || r.e.Answers[0].Labels[0] != "SQLite" {
			t.Fatalf("asker %d got %+v, %v\n%s", i, r.e, r.err, in.said)
		}
	}
	if strings.Contains(in.said.String(), "withdrawn") {
		t.Errorf("the inbox said:\n%s", in.said)
	}
}
