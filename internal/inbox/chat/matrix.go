package chat

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// Matrix is a chat with the person in a Matrix room, through an account
// of the inbox's own on any homeserver, with mautrix-go's client: the
// inbox syncs (long polling) and never listens. Matrix has no buttons
// that every client shows, so a message lists its buttons, numbered, and
// a reply with a number is its Event.Number. The room must not be
// encrypted (see docs/away.md).
type Matrix struct {
	o     MatrixOptions
	cli   *mautrix.Client
	warn  func(error)
	ready chan struct{} // closed once logged in and in the room
}

// MatrixOptions are what the account needs.
type MatrixOptions struct {
	// Homeserver is the homeserver's address (https://matrix.example.org).
	Homeserver string
	// User is the account's user ID (@askuser:example.org); Password or
	// Token its password or access token: never printed or logged.
	User, Password, Token string
	// Room is the ID of the room to post in (!abc:example.org), which the
	// account was invited to or is in.
	Room string
}

// NewMatrix returns the Matrix chat of o; it reaches the homeserver only
// once used. warn is told of what goes wrong while the account syncs,
// which it tries again.
func NewMatrix(o MatrixOptions, warn func(error)) (*Matrix, error) {
	cli, err := mautrix.NewClient(o.Homeserver, id.UserID(o.User), o.Token)
	if err != nil {
		return nil, fmt.Errorf("the Matrix homeserver: %w", err)
	}
	return &Matrix{o: o, cli: cli, warn: warn, ready: make(chan struct{})}, nil
}

// Listen logs in (with the password), joins the room, and syncs until ctx
// ends: each message of someone else's is an event.
func (m *Matrix) Listen(ctx context.Context, got func(Event)) error {
	if m.o.Token == "" {
		_, err := m.cli.Login(ctx, &mautrix.ReqLogin{
			Type:                     mautrix.AuthTypePassword,
			Identifier:               mautrix.UserIdentifier{Type: mautrix.IdentifierTypeUser, User: m.o.User},
			Password:                 m.o.Password,
			InitialDeviceDisplayName: "askuser inbox",
			StoreCredentials:         true,
		})
		if err != nil {
			return fmt.Errorf("log in to Matrix as %s: %w; check ASKUSER_MATRIX_PASSWORD", m.o.User, err)
		}
	}
	if _, err := m.cli.JoinRoomByID(ctx, id.RoomID(m.o.Room)); err != nil {
		return fmt.Errorf("join the Matrix room %s: %w; invite %s to it", m.o.Room, err, m.o.User)
	}
	var enc event.EncryptionEventContent
	switch err := m.cli.StateEvent(ctx, id.RoomID(m.o.Room), event.StateEncryption, "", &enc); {
	case err == nil && enc.Algorithm != "":
		return fmt.Errorf("the Matrix room %s is encrypted, which askuser cannot read or write yet: use a room without encryption (docs/away.md)", m.o.Room)
	case err != nil && !errors.Is(err, mautrix.MNotFound):
		return fmt.Errorf("read the Matrix room %s: %w", m.o.Room, err)
	}
	syncer := m.cli.Syncer.(*mautrix.DefaultSyncer)
	// What was said before the inbox started is not for it.
	syncer.OnSync(m.cli.DontProcessOldEvents)
	syncer.OnEventType(event.EventMessage, func(_ context.Context, evt *event.Event) {
		if e, ok := m.event(evt); ok {
			got(e)
		}
	})
	close(m.ready)
	for wait := time.Second; ; wait = min(2*wait, 30*time.Second) {
		err := m.cli.SyncWithContext(ctx)
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		m.warn(fmt.Errorf("the Matrix sync: %w", err))
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-time.After(wait):
		}
	}
}

// event is what evt, a message in a room, says a person did.
func (m *Matrix) event(evt *event.Event) (Event, bool) {
	msg := evt.Content.AsMessage()
	if evt.Sender == m.cli.UserID || msg == nil || msg.NewContent != nil {
		return Event{}, false
	}
	to := MessageID(msg.RelatesTo.GetReplyTo())
	msg.RemoveReplyFallback()
	e := Event{Sender: evt.Sender.String(), Room: evt.RoomID.String(), Text: strings.TrimSpace(msg.Body), To: to, Ref: evt.ID.String()}
	e.Number, _ = strconv.Atoi(e.Text)
	return e, e.Text != ""
}

// content is msg as a Matrix message: its text, then its buttons,
// numbered, to reply with.
func content(msg Message) *event.MessageEventContent {
	var b strings.Builder
	b.WriteString(msg.Text)
	if len(msg.Buttons) > 0 {
		b.WriteString("\n\nReply with a number:")
	}
	for i, bt := range msg.Buttons {
		fmt.Fprintf(&b, "\n(%d) %s", i+1, bt.Label)
	}
	return &event.MessageEventContent{MsgType: event.MsgText, Body: b.String()}
}

// send sends c to room, once the account is in the room.
func (m *Matrix) send(ctx context.Context, room string, c *event.MessageEventContent) (MessageID, error) {
	select {
	case <-m.ready:
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
	resp, err := m.cli.SendMessageEvent(ctx, id.RoomID(room), event.EventMessage, c)
	if err != nil {
		return "", err
	}
	return MessageID(resp.EventID), nil
}

// Post sends msg to the room.
func (m *Matrix) Post(ctx context.Context, msg Message) (MessageID, error) {
	return m.send(ctx, m.o.Room, content(msg))
}

// Edit replaces the message mid with msg, as Matrix edits are made: a new
// event that replaces it.
func (m *Matrix) Edit(ctx context.Context, mid MessageID, msg Message) error {
	c := content(msg)
	c.SetEdit(id.EventID(mid))
	_, err := m.send(ctx, m.o.Room, c)
	return err
}

// Tell replies to e's message with line, as a notice.
func (m *Matrix) Tell(ctx context.Context, e Event, line string) error {
	c := &event.MessageEventContent{MsgType: event.MsgNotice, Body: line,
		RelatesTo: &event.RelatesTo{InReplyTo: &event.InReplyTo{EventID: id.EventID(e.Ref)}}}
	_, err := m.send(ctx, e.Room, c)
	return err
}
