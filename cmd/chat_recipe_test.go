package cmd

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/history"
	"github.com/askuser/askuser/internal/testutil/chattest"
)

// The Telegram recipe, as printed, with a bot whose Bot API is a local
// server of the test's: the set is posted to the person's chat with a
// button per option, a tap answers the asker, and the inbox's terminal
// and its history say it was answered in the chat. The token is never
// printed.
func TestTelegramRecipe(t *testing.T) {
	const token = "123456789:SECRET-token-of-the-test"
	api := chattest.NewBotAPI(t, token)
	vars := awaySnippet(t, "telegram", map[string]string{"123456789:your-bots-token": token, "your-user-id": "1001"})
	vars["ASKUSER_TELEGRAM_API"] = api.URL
	vars["XDG_STATE_HOME"] = t.TempDir()
	r := startWebInbox(t, vars, "--web")
	ended := r.ask(choiceRequest("deployer"))
	deadline := time.Now().Add(chattest.Within)
	for api.Messages() < 1 {
		if time.Now().After(deadline) {
			t.Fatalf("nothing was posted; the inbox's stderr:\n%s", r.stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if m := api.Message(1); m.Chat != 1001 || !strings.Contains(m.Text, "[Database] Which database?") || len(m.Labels()) != 3 {
		t.Errorf("posted %+v", m)
	}
	api.Tap(1001, 1001, 1, "SQLite")
	answered(t, ended, "SQLite")
	r.waitStderr(t, "✔ deployer, in the chat · Database: SQLite\n")
	kept := waitHistory(t, filepath.Join(vars["XDG_STATE_HOME"], "askuser", history.FileName))
	if kept.How() != "answered in the chat" {
		t.Errorf("the history keeps %+v", kept)
	}
	if strings.Contains(r.stderr.String(), token) {
		t.Errorf("the token was printed:\n%s", r.stderr)
	}
}
