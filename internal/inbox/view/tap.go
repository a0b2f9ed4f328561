package view

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/prompt/web/localhttp"
)

// The links of a set's notification: with them, a set of one single
// choice is answered in one tap, from the notification's buttons (ntfy's
// http actions), each of which sends a POST to the link of its option.

// MaxTaps is the most options a set's notification offers as buttons: a
// phone shows at most three on a notification (Android, and ntfy, which
// refuses more). A choice among more is answered on the set's page.
const MaxTaps = 3

// tapMaxBody bounds what a link's request may carry: nothing is read
// from it, and a push service's button sends little or nothing.
const tapMaxBody = 1 << 10

// Links makes the links that answer a set from its notification, and the
// name that the set has for the push service, each from a secret of its
// own (HMAC-SHA256 of what it is for), so that nothing is kept for them.
// A link is good only for the set and the option it was made for, and only
// while the set waits; its first use ends the set, so it is used once. Its
// key, 256 bits, is never shown or logged by the inbox.
type Links struct {
	secret []byte
}

// NewLinks returns the links of one inbox: its secret is new at each
// start, so that no link outlives it.
func NewLinks() *Links {
	secret := make([]byte, 32)
	// crypto/rand.Read returns no error (it crashes the program rather
	// than return one).
	_, _ = rand.Read(secret)
	return &Links{secret: secret}
}

// mac is the secret's HMAC of what, a purpose and the numbers it is for.
func (l *Links) mac(what string, ids ...uint64) []byte {
	m := hmac.New(sha256.New, l.secret)
	m.Write([]byte(what))
	for _, id := range ids {
		m.Write([]byte("/" + strconv.FormatUint(id, 10)))
	}
	return m.Sum(nil)
}

// SetName names s for the push service (ASKUSER_SET, ntfy's sequence
// ID), so that a later notice of s replaces or takes back its
// notification: 32 hex digits that tell nothing of the set, nor how many
// came before it.
func (l *Links) SetName(s *inbox.Set) string {
	return hex.EncodeToString(l.mac("set", s.ID)[:16])
}

// key is the key of the link that answers option n (from 1) of the set
// with id.
func (l *Links) key(id uint64, n int) string {
	return base64.RawURLEncoding.EncodeToString(l.mac("tap", id, uint64(n)))
}

// ButtonKey is the key of button n of version ver of the message that
// shows the set with id in the person's chat (see package chat): good for
// that one button of that one message only, as the chat view checks it.
// It is cut to 128 bits, so that with the numbers it names it fits in
// Telegram's 64 bytes of a button's data.
func (l *Links) ButtonKey(id, ver uint64, n int) string {
	return base64.RawURLEncoding.EncodeToString(l.mac("chat", id, ver, uint64(n))[:16])
}

// Keys returns the key of each option of s, in order, the keys of its
// links, for a push service's reply topic to carry back to the inbox (see
// notify.Subscribe); none when s cannot be answered in one tap.
func (l *Links) Keys(s *inbox.Set) []string {
	if !OneTap(s) {
		return nil
	}
	keys := make([]string, len(s.Questions[0].Options))
	for i := range keys {
		keys[i] = l.key(s.ID, i+1)
	}
	return keys
}

// OneTap reports whether s can be answered in one tap: it is one question
// that chooses one of at most MaxTaps options (Other, when it is offered,
// is chosen on the set's page).
func OneTap(s *inbox.Set) bool {
	if len(s.Questions) != 1 {
		return false
	}
	q := s.Questions[0]
	return !q.Kind.Typed() && !q.MultiSelect && len(q.Options) <= MaxTaps
}

// Taps returns the path of the link that answers each option of s, in
// order, with its key ("/sets/ID/tap/N?key=K"); none when s cannot be
// answered in one tap.
func (v *Web) Taps(s *inbox.Set) []string {
	if !OneTap(s) {
		return nil
	}
	// Kept, to say how it ended when a link comes late.
	v.remember(s)
	taps := v.o.Links.Keys(s)
	for i, key := range taps {
		taps[i] = fmt.Sprintf("%stap/%d?key=%s", SetPath(s), i+1, key)
	}
	return taps
}

// serveTap answers the set of a link with the link's option, as a form
// would be: the key must be that set's and option's own, the set must
// still wait, and the answer is checked as every answer is. A link used
// again, late, or for another set changes nothing, and the reply says why
// (403, 409), in a line of text that a push service's app can show.
func (v *Web) serveTap(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		// Whatever opens or previews a link sends a GET: only the
		// notification's button, which sends a POST, answers.
		w.Header().Set("Allow", http.MethodPost)
		localhttp.Refuse(w, http.StatusMethodNotAllowed, "Not answered: this link answers with a POST, as the notification's button sends it. To answer in a browser, open the set's page.")
		return
	}
	id, okID := setID(r)
	n, err := strconv.Atoi(r.PathValue("n"))
	if !okID || err != nil || !hmac.Equal([]byte(r.URL.Query().Get("key")), []byte(v.o.Links.key(id, n))) {
		localhttp.Refuse(w, http.StatusForbidden, "Not answered: this link was not made for that set and option.")
		return
	}
	s := v.lookup(id)
	if s == nil || s.End().State != inbox.Waiting || !OneTap(s) || n < 1 || n > len(s.Questions[0].Options) {
		v.writeTapEnded(w, s)
		return
	}
	label, from := s.Questions[0].Options[n-1].Label, prompt.Display(Source(s, v.o.Home))
	text := fmt.Sprintf("Answered %s to the questions from %s.", prompt.Display(label), from)
	switch err := v.o.Queue.Answer(s, inbox.ViaNotification, []prompt.Answer{{Labels: []string{label}}}); {
	case errors.Is(err, inbox.ErrEnded):
		v.writeTapEnded(w, s)
		return
	case isNotSent(err):
		text = notSent(s, s.End(), from)
	case err != nil:
		// The link answers as the queue checks: this is a bug.
		localhttp.Refuse(w, http.StatusBadRequest, "Not answered: "+err.Error())
		return
	}
	w.Header().Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = fmt.Fprintln(w, text)
}

// writeTapEnded answers a link of s, which no longer waits (nil for a set
// not known), with 409 and why nothing was answered.
func (v *Web) writeTapEnded(w http.ResponseWriter, s *inbox.Set) {
	localhttp.Refuse(w, http.StatusConflict, prompt.Display(notDone("answered", v.ended(s, true))))
}
