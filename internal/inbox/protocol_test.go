package inbox

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// The limits an asker sends keep their names on the wire: askers and
// inboxes of other versions, over TCP or NATS, read them so.
func TestRequestLimitsOnTheWire(t *testing.T) {
	b, err := json.Marshal(&Request{Limits: &schema.Limits{MaxQuestions: 5, MaxOptions: 6, HeaderMaxLength: 20, QuestionMaxLength: 300}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"limits":{"maxQuestions":5,"maxOptions":6,"headerMaxLength":20,"questionMaxLength":300}}`
	if string(b) != want {
		t.Errorf("request = %s\nwant      %s", b, want)
	}
	b, err = json.Marshal(&Request{Limits: &schema.Limits{MaxOptions: 6}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"limits":{"maxOptions":6}}`; string(b) != want {
		t.Errorf("request = %s, want %s", b, want)
	}
}

// The answers keep their names on the wire too.
func TestAnswersOnTheWire(t *testing.T) {
	b, err := json.Marshal(&Event{Event: EventAnswered, Answers: []prompt.Answer{{Labels: []string{"SQLite", "Redis"}, Other: "Edge", Note: "small"}, {}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"event":"answered","answers":[{"labels":["SQLite","Redis"],"other":"Edge","note":"small"},{}]}`; string(b) != want {
		t.Errorf("event = %s\nwant    %s", b, want)
	}
}

// Each asker is beaten every second while at most beatsPerSecond wait; with
// more, less often, up to maxHeartbeat.
func TestHeartbeatSlowsWithMany(t *testing.T) {
	for _, c := range []struct {
		waiting int
		want    time.Duration
	}{
		{0, heartbeatMin}, {1, heartbeatMin}, {beatsPerSecond, heartbeatMin},
		{2 * beatsPerSecond, 2 * time.Second}, {10_000, maxHeartbeat}, {1_000_000, maxHeartbeat},
	} {
		if got := heartbeat(c.waiting); got != c.want {
			t.Errorf("heartbeat(%d) = %s, want %s", c.waiting, got, c.want)
		}
	}
}
