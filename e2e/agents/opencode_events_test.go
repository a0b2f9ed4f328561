//go:build heavy

package agents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// question is a call of OpenCode's question tool that asks question, keyed
// header, with two options.
func question(q, header, first, second string) toolCall {
	return toolCall{Name: "question", Args: map[string]any{"questions": []any{map[string]any{
		"question": q, "header": header,
		"options": []any{
			map[string]any{"label": first, "description": "The first"},
			map[string]any{"label": second, "description": "The second"},
		},
	}}}}
}

// startOpenCode starts OpenCode's interactive session, with askuser's
// plugin from README and its shell tool asking before each command, for the
// calls, beside the inbox.
func startOpenCode(t *testing.T, c cli, calls ...toolCall) *sideBySide {
	t.Helper()
	r := newRun(t, interactiveMode, shellPath)
	mk := newMock(t, calls[0], c.api)
	mk.then = calls[1:]
	r.api = mk.URL()
	r.env = append(interactiveEnv(r.home), "ASKUSER_INBOX="+filepath.Join(t.TempDir(), "inbox.sock"))
	args := c.setup(t, r)
	args[0] = filepath.Join(binDir, args[0])
	config := filepath.Join(r.home, ".config", c.command, c.command+".json")
	settings := map[string]any{}
	b, err := os.ReadFile(config)
	if err != nil || json.Unmarshal(b, &settings) != nil {
		t.Fatalf("%s's configuration: %v", c.name, err)
	}
	settings["permission"] = map[string]any{"bash": "ask"}
	b, _ = json.Marshal(settings)
	writeFile(t, config, string(b))
	writeFile(t, filepath.Join(r.home, ".config", c.command, "plugins", "askuser.js"), snippet(t, "opencode-plugin"))
	s := &sideBySide{t: t, x: newTmux(t, r), mk: mk, run: r}
	s.startInbox()
	s.x.start("cli", r.dir, args...)
	return s
}

// OpenCode, and Kilo Code, its fork, with askuser's plugin: its permission
// prompt and its own question are asked in the inbox too, as what they
// are. Answered in the inbox, OpenCode's dialog closes and the model gets
// the person's answer; answered in OpenCode's dialog, the inbox lets them
// go within a second.
func TestOpenCodeOwnQuestions(t *testing.T) {
	for _, c := range []cli{opencode, kilo} {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			openCodeOwnQuestions(t, c)
		})
	}
}

func openCodeOwnQuestions(t *testing.T, c cli) {
	const (
		database = "Which database should we use?"
		cache    = "Which cache should we use?"
	)
	bash := func(command string) toolCall {
		return toolCall{Name: "bash", Args: map[string]any{"command": command, "description": "Leave a file"}}
	}
	s := startOpenCode(t, c,
		bash(approveCommand),
		bash("touch second.txt && echo the second ran"),
		question(database, "Database", "PostgreSQL", "SQLite"),
		question(cache, "Cache", "Redis", "Memcached"),
	)

	// The permission, allowed in the inbox.
	s.until("the permission in the inbox", 3*time.Minute, func(_, inbox string) bool { return shows(inbox, "asks to use bash:\n"+approveCommand) })
	s.x.send("inbox", "1")
	if got := s.result(1); !strings.Contains(got.text, "the command ran") {
		t.Errorf("allowed in the inbox, the model got:\n%s", got.text)
	}

	// The permission, allowed in OpenCode's dialog.
	s.until("the permission in both places", time.Minute, func(cli, inbox string) bool {
		return shows(inbox, "asks to use bash:\ntouch second.txt") && strings.Contains(cli, "Allow once")
	})
	// The inbox lets it go once OpenCode has taken the answer, which its
	// own dialog closing shows.
	s.press("cli", "Enter")
	var closed time.Time
	s.until("OpenCode's dialog closing", time.Minute, func(cli, _ string) bool {
		closed = time.Now()
		return !strings.Contains(cli, "Allow once")
	})
	took := s.gone("touch second.txt", closed)
	t.Logf("allowed in %s's dialog, the permission left the inbox %s after the dialog closed", c.name, took)
	if took > time.Second {
		t.Errorf("allowed in %s's dialog, the permission left the inbox %s after the dialog closed, want within 1 s", c.name, took)
	}
	if got := s.result(2); !strings.Contains(got.text, "the second ran") {
		t.Errorf("allowed in OpenCode's dialog, the model got:\n%s", got.text)
	}

	// The question, answered in the inbox.
	s.until("the question in the inbox", time.Minute, func(_, inbox string) bool { return shows(inbox, database) && strings.Contains(inbox, "2. SQLite") })
	ownShown.Store(c.name, time.Since(s.mk.SentAt(3)))
	s.x.send("inbox", "2")
	if got := s.result(3); !strings.Contains(got.text, `"`+database+`"="SQLite"`) {
		t.Errorf("answered in the inbox, the model got:\n%s", got.text)
	}

	// The question, answered in OpenCode's dialog.
	s.until("the question in both places", time.Minute, func(cli, inbox string) bool { return shows(inbox, cache) && strings.Contains(cli, "Memcached") })
	took = s.gone(cache, s.press("cli", "2"))
	t.Logf("answered in %s's dialog, the question left the inbox %s after the key", c.name, took)
	if took > time.Second {
		t.Errorf("answered in %s's dialog, the question left the inbox %s after the key, want within 1 s", c.name, took)
	}
	if got := s.result(4); !strings.Contains(got.text, `"`+cache+`"="Memcached"`) {
		t.Errorf("answered in OpenCode's dialog, the model got:\n%s", got.text)
	}
}
