package view

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt/web"
	"github.com/askuser/askuser/prompt/web/localhttp"
)

// The limits of the page's requests.
const (
	// webMaxQuestions is the number of questions whose largest form the
	// guard lets through; each form is then held to its own set's limit
	// (web.MaxFormBytes).
	webMaxQuestions = 32
	// webMaxSeen bounds the sets that ended and are still remembered, to
	// tell a page that sends a form for one how it ended.
	webMaxSeen = 256
)

// Web serves the inbox's queue on a web page built from prompt/web's (its
// page, style and form), behind a localhttp.Guard: every request carries the
// page's token and names this server, and what changes something comes
// from the page's own origin, within the size of a form.
//
// GET / shows the oldest waiting set, with where it came from, how long it
// has waited and how many more wait, or that nothing waits. Each set's
// page lives under /sets/ID/, which shows it (the address a notification
// opens, ASKUSER_URL), and its form posts to answer, cancel or next
// there, so that a form can answer only the set it was made for, and the
// server answers 409 when that set has ended first (answered in the
// terminal or another tab, withdrawn, cancelled). Its wait (GET
// /sets/ID/wait?more=N, a long poll) is held until that set ends, the
// number of sets behind it is no longer N, or the inbox quits, and then
// answers with the page to show; /sets/0/wait waits for a set to come.
type Web struct {
	// Handler serves the page; see Web.
	http.Handler
	o WebOptions

	mu   sync.Mutex
	seen map[uint64]*inbox.Set // the sets shown on a page, to tell how they ended
}

// WebOptions configure a Web.
type WebOptions struct {
	Queue *inbox.Queue
	// Addr is the address of the listener that serves the page, and Host
	// the host its address is shown with ("" for Addr's own): see
	// localhttp.NewGuard.
	Addr net.Addr
	Host string
	// Token is the page's token: not the askers' (an asker that holds
	// theirs must not answer for the person).
	Token string
	// Home is the person's home directory, shown as ~ in the working
	// directories that sets come from.
	Home string
	// Links make the links that answer a set from its
	// notification (see Web.Taps), which the page serves.
	Links *Links
}

// NewWeb returns the page of o.Queue.
func NewWeb(o WebOptions) (*Web, error) {
	v := &Web{o: o, seen: map[uint64]*inbox.Set{}}
	g, err := localhttp.NewGuard(o.Addr, o.Host, o.Token, web.MaxFormBytes(webMaxQuestions))
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) { v.writeShown(w, http.StatusOK, "", false) })
	mux.HandleFunc("GET /sets/{id}/{$}", v.serveSet)
	mux.HandleFunc("GET /sets/{id}/wait", v.serveWait)
	mux.HandleFunc("POST /sets/{id}/answer", v.serveAnswer)
	mux.HandleFunc("POST /sets/{id}/cancel", v.serveCancel)
	mux.HandleFunc("POST /sets/{id}/next", v.serveNext)
	// A link that answers from a notification is its own credential: it
	// carries a key of its own, not the page's token.
	outer := http.NewServeMux()
	outer.Handle("/", g.Wrap(mux))
	outer.Handle("/sets/{id}/tap/{n}", g.WrapLink(tapMaxBody, http.HandlerFunc(v.serveTap)))
	v.Handler = outer
	return v, nil
}

// SetPath is the path under which set s's page lives; the idle page's is
// /sets/0/, as no set has the ID 0.
func SetPath(s *inbox.Set) string {
	if s == nil {
		return "/sets/0/"
	}
	return "/sets/" + strconv.FormatUint(s.ID, 10) + "/"
}

// page is the page of s (nil for none), with more sets waiting behind it
// and notice on top.
func (v *Web) page(s *inbox.Set, more int, notice string, problem bool) *web.Page {
	p := &web.Page{Base: SetPath(s), Token: v.o.Token, Queue: &web.InQueue{Notice: notice, Problem: problem, Home: "/"}}
	if s == nil {
		return p
	}
	v.remember(s)
	p.Questions = s.Questions
	p.Queue.From = Source(s, v.o.Home)
	p.Queue.Waited = max(v.o.Queue.Now().Sub(s.Arrived), 0)
	p.Queue.More = more
	return p
}

// writeShown writes, with code, the page of the set the queue shows (or
// that nothing waits, or that the inbox has quit), with notice on top.
func (v *Web) writeShown(w http.ResponseWriter, code int, notice string, problem bool) {
	snap := v.o.Queue.Snapshot()
	switch {
	case snap.Closed:
		v.page(nil, 0, "", false).WriteClosed(w, code)
	case len(snap.Sets) == 0:
		v.page(nil, 0, notice, problem).WriteIdle(w, code)
	default:
		v.page(snap.Sets[0], len(snap.Sets)-1, notice, problem).WriteForm(w, code, nil)
	}
}

// serveSet shows the set whose page it is.
func (v *Web) serveSet(w http.ResponseWriter, r *http.Request) {
	id, _ := setID(r)
	v.writeSet(w, id, v.o.Queue.Snapshot())
}

// writeSet writes the page of the set with id while it waits in snap;
// once it has ended, the page of the set shown now, saying how it ended.
func (v *Web) writeSet(w http.ResponseWriter, id uint64, snap inbox.Snapshot) {
	if i := index(snap.Sets, id); i >= 0 && !snap.Closed {
		v.page(snap.Sets[i], len(snap.Sets)-1, "", false).WriteForm(w, http.StatusOK, nil)
		return
	}
	v.writeShown(w, http.StatusOK, v.ended(v.lookup(id), false), false)
}

// serveWait holds a page's wait until what it shows is out of date: the
// set it shows has ended, or the number of sets behind it has changed; for
// the idle page, until a set comes. It answers with the page to show then,
// saying what became of the set, or with 204 after localhttp.PollWait.
func (v *Web) serveWait(w http.ResponseWriter, r *http.Request) {
	id, ok := setID(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	// Without the number it says, a page is told only of the end of its
	// set.
	more, err := strconv.Atoi(r.URL.Query().Get("more"))
	if err != nil || more < 0 {
		more = v.o.Queue.Len() - 1
	}
	localhttp.Poll(w, r, func() <-chan struct{} {
		snap := v.o.Queue.Snapshot()
		switch {
		case id == 0 && len(snap.Sets) > 0:
			v.writeShown(w, http.StatusOK, "", false)
			return nil
		case snap.Closed, id != 0 && (index(snap.Sets, id) < 0 || len(snap.Sets)-1 != more):
			v.writeSet(w, id, snap)
			return nil
		}
		return snap.Changed
	})
}

// serveAnswer takes the answers to the set the form was made for.
func (v *Web) serveAnswer(w http.ResponseWriter, r *http.Request) {
	s, values, ok := v.readPost(w, r, "sent")
	if !ok {
		return
	}
	p := v.page(s, max(v.o.Queue.Len()-1, 0), "", false)
	switch sub := p.Parse(values); {
	case sub.OK():
		err := v.o.Queue.Answer(s, inbox.ViaPage, sub.Answers)
		v.writeDone(w, s, "sent", err, fmt.Sprintf("Sent to %s.", Source(s, v.o.Home)))
	case s.End().State != inbox.Waiting:
		v.writeEnded(w, s, "sent")
	default:
		p.WriteForm(w, http.StatusBadRequest, sub)
	}
}

// serveCancel cancels the set the form was made for: its asker exits 130.
func (v *Web) serveCancel(w http.ResponseWriter, r *http.Request) {
	if s, _, ok := v.readPost(w, r, "cancelled"); ok {
		err := v.o.Queue.Cancel(s, inbox.ViaPage)
		v.writeDone(w, s, "cancelled", err, fmt.Sprintf("Cancelled the questions from %s.", Source(s, v.o.Home)))
	}
}

// serveNext moves the set the form was made for behind the others, and
// shows the next.
func (v *Web) serveNext(w http.ResponseWriter, r *http.Request) {
	if s, _, ok := v.readPost(w, r, ""); ok {
		err, notice := v.o.Queue.Skip(s), ""
		if snap := v.o.Queue.Snapshot(); len(snap.Sets) == 1 && snap.Sets[0] == s {
			notice = "No other set is waiting."
		}
		v.writeDone(w, s, "", err, notice)
	}
}

// writeDone shows the page that follows what a form for s asked, which the
// queue did (err), with notice on top; or what became of an answer or
// cancel that was not sent; or, when s had ended first, that nothing was
// what.
func (v *Web) writeDone(w http.ResponseWriter, s *inbox.Set, what string, err error, notice string) {
	switch {
	case err == nil:
		v.writeShown(w, http.StatusOK, notice, false)
	case isNotSent(err):
		v.writeShown(w, http.StatusOK, notSent(s, s.End(), Source(s, v.o.Home)), false)
	case errors.Is(err, inbox.ErrEnded):
		v.writeEnded(w, s, what)
	default:
		// The page checks what the queue checks: this is a bug.
		http.Error(w, "The answer could not be taken: "+err.Error(), http.StatusBadRequest)
	}
}

// readPost reads the form of a POST under /sets/ID/, and returns the set
// it was made for. When that set is gone or has ended, or the form cannot
// be read, it has replied: 409 with the page to show instead, saying that
// nothing was done (what says what would have been), 413 or 400.
func (v *Web) readPost(w http.ResponseWriter, r *http.Request, what string) (*inbox.Set, url.Values, bool) {
	id, _ := setID(r)
	s := v.lookup(id)
	if s != nil {
		// The guard lets through the form of the largest set; each set's
		// form is held to its own size.
		r.Body = http.MaxBytesReader(w, r.Body, web.MaxFormBytes(len(s.Questions)))
	}
	values, ok := web.ReadForm(w, r)
	if !ok {
		return nil, nil, false
	}
	if s == nil || s.End().State != inbox.Waiting {
		v.writeEnded(w, s, what)
		return nil, nil, false
	}
	return s, values, true
}

// writeEnded answers a form for s, which has ended (nil for a set not
// known), with 409 and the page of the set shown now, saying how s ended
// and that nothing was done.
func (v *Web) writeEnded(w http.ResponseWriter, s *inbox.Set, what string) {
	v.writeShown(w, http.StatusConflict, notDone(what, v.ended(s, true)), true)
}

// notDone says that what the person sent was not done, because of why, a
// sentence of ours.
func notDone(what, why string) string {
	if what == "" {
		return why
	}
	return "Not " + what + ": " + strings.ToLower(why[:1]) + why[1:]
}

// ended says how s ended (nil for a set not known): for a page that showed
// it, or, late, for a form or a link for it that came too late.
func (v *Web) ended(s *inbox.Set, late bool) string {
	if s == nil {
		return "Those questions are no longer waiting."
	}
	from, e := Source(s, v.o.Home), s.End()
	notified := e.State == inbox.Answered && e.Via == inbox.ViaNotification
	switch {
	case late && notified:
		return fmt.Sprintf("The questions from %s had already been answered from the notification.", from)
	case late && e.State == inbox.Answered:
		return fmt.Sprintf("The questions from %s had already been answered.", from)
	case late && e.State == inbox.Cancelled:
		return fmt.Sprintf("The questions from %s had been cancelled.", from)
	case notified:
		return fmt.Sprintf("The questions from %s were answered from the notification.", from)
	case e.State == inbox.Answered, e.State == inbox.Cancelled:
		return fmt.Sprintf("The questions from %s were %s elsewhere%s.", from, e.State, e.ByWhom())
	case e.State == inbox.Withdrawn:
		return fmt.Sprintf("The asker from %s stopped waiting: its questions were withdrawn.", from)
	case e.State == inbox.Closed:
		return "The inbox has quit."
	}
	return fmt.Sprintf("The questions from %s are no longer waiting.", from)
}

// remember keeps s, shown on a page, to say how it ended when a page asks.
// Of the sets that have ended, only the last few hundred are kept.
func (v *Web) remember(s *inbox.Set) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.seen[s.ID] = s
	if len(v.seen) <= webMaxSeen {
		return
	}
	oldest := uint64(0)
	for id, t := range v.seen {
		if t.End().State != inbox.Waiting && (oldest == 0 || id < oldest) {
			oldest = id
		}
	}
	delete(v.seen, oldest)
}

// lookup returns the set with id: waiting, or shown on a page and ended
// since; nil when there is none.
func (v *Web) lookup(id uint64) *inbox.Set {
	snap := v.o.Queue.Snapshot()
	if i := index(snap.Sets, id); i >= 0 {
		return snap.Sets[i]
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.seen[id]
}

// index is the position of the set with id in sets, or -1.
func index(sets []*inbox.Set, id uint64) int {
	return slices.IndexFunc(sets, func(s *inbox.Set) bool { return s.ID == id })
}

// setID reads the set's ID from the request's path.
func setID(r *http.Request) (uint64, bool) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	return id, err == nil
}
