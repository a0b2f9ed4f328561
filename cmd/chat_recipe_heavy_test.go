//go:build heavy

package cmd

import (
	"context"
	"strings"
	"testing"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/id"

	"github.com/askuser/askuser/internal/testutil/chattest"
)

// The Matrix recipe, as printed, on a Dendrite homeserver of the test's:
// the set is posted to the room, and the person's reply with an option's
// number answers the asker; the inbox's terminal says it was answered in
// the chat, and never prints the password.
func TestMatrixRecipe(t *testing.T) {
	hs := chattest.StartDendrite(t)
	const password = "the-password-of-the-test"
	bot := hs.Register(t, "inbox", password)
	person := hs.Register(t, "you", "your-password-1234")
	room, err := person.CreateRoom(context.Background(), &mautrix.ReqCreateRoom{Preset: "private_chat", Invite: []id.UserID{bot.UserID}})
	if err != nil {
		t.Fatal(err)
	}
	you := chattest.Listen(t, person)
	vars := awaySnippet(t, "matrix", map[string]string{
		"https://matrix.example.org": hs.URL, "@askuser-bot:example.org": bot.UserID.String(),
		"the-bots-password": password, "!yourroom:example.org": room.RoomID.String(), "@you:example.org": person.UserID.String(),
	})
	r := startWebInbox(t, vars, "--web")
	ended := r.ask(choiceRequest("deployer"))
	posted := you.Find(t, "Questions from deployer", nil)
	if body := posted.Content.AsMessage().Body; !strings.Contains(body, "(2) 2. SQLite") {
		t.Errorf("posted %q", body)
	}
	you.Reply(t, room.RoomID, posted.ID, "2")
	answered(t, ended, "SQLite")
	r.waitStderr(t, "✔ deployer, in the chat · Database: SQLite\n")
	you.Find(t, "Questions from deployer: answered in the chat.", chattest.IsEdit)
	if strings.Contains(r.stderr.String(), password) {
		t.Errorf("the password was printed:\n%s", r.stderr)
	}
}
