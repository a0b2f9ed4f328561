package chat

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/askuser/askuser/prompt"
)

// Telegram is a chat with the person through a Telegram bot, by the Bot
// API's long polling (getUpdates): the inbox connects out, and nothing
// listens. Buttons are the message's inline keyboard; a tap comes back as
// a callback query, which is answered with the view's line.
type Telegram struct {
	bot   *bot.Bot
	token string
	chat  int64
}

// TelegramOptions are what the bot needs.
type TelegramOptions struct {
	// Token is the bot's token, from @BotFather: never printed or logged.
	Token string
	// Chat is the chat the bot posts to: the person's own chat with the
	// bot (the person's user ID), or a group's.
	Chat int64
	// Server is the Bot API's address; "" for Telegram's own. Tests give
	// a local one.
	Server string
}

// telegramPoll is how long one getUpdates waits for an update, as long
// polling has it: the longer, the fewer requests while nothing happens.
const telegramPoll = 50 * time.Second

// telegramMaxText is the longest text of a message the Bot API takes, in
// characters (4096 UTF-16 code units; characters outside the BMP take
// two, hence the margin).
const telegramMaxText = 4000

// NewTelegram returns the Telegram chat of o; it reaches the Bot API only
// once used. warn is told of what goes wrong while the bot polls, which it
// tries again.
func NewTelegram(o TelegramOptions, warn func(error)) (*Telegram, error) {
	t := &Telegram{token: o.Token, chat: o.Chat}
	opts := []bot.Option{
		bot.WithSkipGetMe(),
		bot.WithNotAsyncHandlers(),
		bot.WithHTTPClient(telegramPoll+10*time.Second, &http.Client{Timeout: telegramPoll + 10*time.Second}),
		bot.WithAllowedUpdates(bot.AllowedUpdates{"message", "callback_query"}),
		// The library's own handler logs with the log package; the
		// inbox says it once, without the token.
		bot.WithErrorsHandler(func(err error) { warn(t.scrub(err)) }),
		bot.WithDefaultHandler(func(context.Context, *bot.Bot, *models.Update) {}),
	}
	if o.Server != "" {
		opts = append(opts, bot.WithServerURL(strings.TrimRight(o.Server, "/")))
	}
	b, err := bot.New(o.Token, opts...)
	if err != nil {
		return nil, t.scrub(err)
	}
	t.bot = b
	return t, nil
}

// scrub is err with the token, which a request's URL holds, taken out.
func (t *Telegram) scrub(err error) error {
	if err == nil || t.token == "" || !strings.Contains(err.Error(), t.token) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), t.token, "***"))
}

// Room is the chat's ID, as Event.Room gives it.
func (t *Telegram) Room() string { return strconv.FormatInt(t.chat, 10) }

// Listen checks the token (getMe), then polls for updates until ctx ends.
func (t *Telegram) Listen(ctx context.Context, got func(Event)) error {
	if _, err := t.bot.GetMe(ctx); err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return fmt.Errorf("the Telegram bot: %w; check ASKUSER_TELEGRAM_TOKEN", t.scrub(err))
	}
	t.bot.RegisterHandlerMatchFunc(func(*models.Update) bool { return true }, func(_ context.Context, _ *bot.Bot, u *models.Update) {
		if e, ok := telegramEvent(u); ok {
			got(e)
		}
	})
	t.bot.Start(ctx)
	return context.Cause(ctx)
}

// telegramEvent is what u says a person did: a tap, or a message.
func telegramEvent(u *models.Update) (Event, bool) {
	switch {
	case u.CallbackQuery != nil:
		cq := u.CallbackQuery
		// A tap must be answered, even one with nothing to do: its data
		// is never "".
		e := Event{Sender: strconv.FormatInt(cq.From.ID, 10), Data: cmp.Or(cq.Data, "-"), Ref: cq.ID}
		if m := cq.Message.Message; m != nil {
			e.Room = strconv.FormatInt(m.Chat.ID, 10)
		}
		return e, true
	case u.Message != nil && u.Message.From != nil:
		m := u.Message
		e := Event{Sender: strconv.FormatInt(m.From.ID, 10), Room: strconv.FormatInt(m.Chat.ID, 10), Text: m.Text, Ref: strconv.Itoa(m.ID)}
		if m.ReplyToMessage != nil {
			e.To = MessageID(strconv.Itoa(m.ReplyToMessage.ID))
		}
		return e, e.Text != ""
	}
	return Event{}, false
}

// keyboard is m's buttons as an inline keyboard, a row each: an empty one
// when it has none, which takes the message's buttons away.
func keyboard(m Message) *models.InlineKeyboardMarkup {
	k := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{}}
	for _, b := range m.Buttons {
		k.InlineKeyboard = append(k.InlineKeyboard, []models.InlineKeyboardButton{{Text: b.Label, CallbackData: b.Data}})
	}
	return k
}

// Post sends m to the chat.
func (t *Telegram) Post(ctx context.Context, m Message) (MessageID, error) {
	sent, err := t.bot.SendMessage(ctx, &bot.SendMessageParams{ChatID: t.chat, Text: prompt.Cut(m.Text, telegramMaxText), ReplyMarkup: keyboard(m)})
	if err != nil {
		return "", t.scrub(err)
	}
	return MessageID(strconv.Itoa(sent.ID)), nil
}

// Edit changes the text and the buttons of the message id.
func (t *Telegram) Edit(ctx context.Context, id MessageID, m Message) error {
	n, err := strconv.Atoi(string(id))
	if err != nil {
		return fmt.Errorf("not a Telegram message: %q", id)
	}
	_, err = t.bot.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: t.chat, MessageID: n, Text: prompt.Cut(m.Text, telegramMaxText), ReplyMarkup: keyboard(m)})
	if err != nil && strings.Contains(err.Error(), "message is not modified") {
		// The Bot API refuses an edit that changes nothing.
		return nil
	}
	return t.scrub(err)
}

// Tell answers a tap with line (Telegram shows it briefly over the chat),
// or replies to a message with it.
func (t *Telegram) Tell(ctx context.Context, e Event, line string) error {
	if e.Data != "" {
		_, err := t.bot.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: e.Ref, Text: line})
		return t.scrub(err)
	}
	// The Bot API takes the chat's ID as the event gives it, in digits.
	p := &bot.SendMessageParams{ChatID: e.Room, Text: line}
	if n, err := strconv.Atoi(e.Ref); err == nil {
		p.ReplyParameters = &models.ReplyParameters{MessageID: n, AllowSendingWithoutReply: true}
	}
	_, err := t.bot.SendMessage(ctx, p)
	return t.scrub(err)
}
