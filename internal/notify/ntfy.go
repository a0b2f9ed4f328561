package notify

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The reply topic: a push service's topic that the notification's buttons
// post to, and that the inbox reads by connecting out, so that a phone
// that cannot reach the inbox still answers in one tap. ntfy's subscribe
// API is a GET of TOPIC/json, held open, that sends one JSON object a
// line: "open" when it starts, "keepalive" now and then, and "message"
// for each message posted, with its id and text.

// ntfyMessage is a line of ntfy's JSON stream, of what is read here.
type ntfyMessage struct {
	ID      string `json:"id"`
	Event   string `json:"event"`
	Message string `json:"message"`
}

// maxReplyLine bounds a line of the stream: ntfy's messages are 4 KiB at
// most, and what else a line holds is small.
const maxReplyLine = 64 << 10

// Subscribe reads the messages posted to the ntfy topic at topic
// (https://ntfy.sh/TOPIC, with the credentials the server needs in it),
// and calls got with the text of each, in order, until ctx ends. A
// connection that fails or ends is made again, after a pause that grows
// to a minute, from the last message read (since=ID), so that none posted
// meanwhile is lost or read twice; warn is told of the first failure of
// each run of them, and of when reading works again (nil).
func Subscribe(ctx context.Context, client *http.Client, topic string, got func(text string), warn func(error)) {
	since := ""
	pause := time.Second
	failing := false
	for ctx.Err() == nil {
		opened := func() {
			pause = time.Second
			if failing {
				failing = false
				warn(nil)
			}
		}
		err := subscribeOnce(ctx, client, topic, since, opened, func(m ntfyMessage) {
			since = m.ID
			got(m.Message)
		})
		if ctx.Err() != nil {
			return
		}
		if err != nil && !failing {
			failing = true
			warn(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, time.Minute)
	}
}

// subscribeOnce reads the stream of topic from since ("" for what is
// posted from now on) until it ends, calling opened once the server
// answers with it.
func subscribeOnce(ctx context.Context, client *http.Client, topic, since string, opened func(), got func(ntfyMessage)) error {
	stream := strings.TrimSuffix(topic, "/") + "/json"
	if since != "" {
		stream += "?since=" + url.QueryEscape(since)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, stream, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if uerr, ok := errors.AsType[*url.Error](err); ok {
		// Without the address: the topic's name is its password.
		err = uerr.Err
	}
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		// Not quoted: the body is the service's, not ours to print.
		return fmt.Errorf("the push service answered %s", resp.Status)
	}
	opened()
	lines := bufio.NewScanner(resp.Body)
	lines.Buffer(make([]byte, 4096), maxReplyLine)
	for lines.Scan() {
		var m ntfyMessage
		if json.Unmarshal(lines.Bytes(), &m) != nil || m.Event != "message" {
			continue
		}
		got(m)
	}
	if err := lines.Err(); err != nil && ctx.Err() == nil {
		return err
	}
	// The server ended the stream: it is read again.
	return nil
}
