package inbox

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/askuser/askuser/schema/jsonout"
)

// The client's limits.
const (
	// ProbeTimeout bounds Probe: an inbox answers its status at once, but a
	// race-enabled one on a busy machine, with many askers, may take a
	// moment.
	ProbeTimeout = 3 * time.Second
	// headerTimeout bounds the wait for the reply's header: the inbox sends
	// it as soon as it has queued the set.
	headerTimeout = 10 * time.Second
	// tcpSilence is how long an asker over TCP waits without a heartbeat
	// before it takes the inbox for gone: across machines, the end of a
	// connection may never be seen. Over a Unix socket the system reports
	// it, and a stopped inbox (Ctrl+Z) is only paused. It leaves room for
	// a heartbeat late by as much again as the longest between two.
	tcpSilence = 2 * maxHeartbeat
	// maxEventBytes bounds one line of the stream.
	maxEventBytes = 4 * MaxRequestBytes
)

// client is the Transport of an inbox over HTTP at addr: on its Unix
// socket (a SocketAddr), or over TCP (a TCPAddr).
type client struct {
	addr Addr
	hc   *http.Client
}

func newClient(a Addr) *client {
	d := &net.Dialer{Timeout: ProbeTimeout}
	dial := d.DialContext
	if path, ok := a.(SocketAddr); ok {
		self := os.Getuid()
		dial = func(ctx context.Context, _, _ string) (net.Conn, error) {
			return dialSocket(ctx, d.DialContext, string(path), self)
		}
	}
	// No Proxy: the inbox is on this machine, or at an address the person
	// gave, never behind a proxy of the environment.
	tr := &http.Transport{
		DisableKeepAlives:      true,
		ResponseHeaderTimeout:  headerTimeout,
		MaxResponseHeaderBytes: 64 << 10,
		DialContext:            dial,
	}
	return &client{addr: a, hc: &http.Client{Transport: tr}}
}

// withdrawalGrace is how long the Withdrawal may take to be written, which
// holds up the end of the Ask.
const withdrawalGrace = time.Second

// dialSocket connects to the inbox's socket, after checking that it is a
// socket of this user, and checks who accepted: questions go to no other
// user's process, and no answer comes from one. A socket that this process
// may not reach is a *BlockedError.
func dialSocket(ctx context.Context, dial func(ctx context.Context, network, addr string) (net.Conn, error), path string, self int) (net.Conn, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrPermission) {
		// A directory on the way may not be entered: whose it is says
		// whether it keeps another user's inbox or a sandbox keeps this
		// process out.
		dir, owner := blockerOf(path)
		return nil, &BlockedError{path: path, dir: dir, owner: owner, self: self, err: err}
	}
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSocket == 0 {
		return nil, fmt.Errorf("%s is not a socket", path)
	}
	owner := fileOwner(fi)
	if owner >= 0 && owner != self {
		return nil, &BlockedError{path: path, owner: owner, self: self, err: fs.ErrPermission}
	}
	conn, err := dial(ctx, "unix", path)
	if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES) {
		return nil, &BlockedError{path: path, owner: owner, self: self, err: err}
	}
	if err != nil {
		return nil, err
	}
	uid, credErr := peerCred(conn)
	if err := allowPeer(uid, credErr, self); err != nil {
		_ = conn.Close()
		return nil, &peerError{Err: err}
	}
	return conn, nil
}

// blockerOf returns the directory that keeps this process from path, the
// innermost one it can look at, and the user id of its owner: -1 where the
// system does not tell.
func blockerOf(path string) (string, int) {
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if fi, err := os.Lstat(dir); err == nil {
			return dir, fileOwner(fi)
		}
		if dir == filepath.Dir(dir) {
			return dir, -1
		}
	}
}

// peerError is a socket that is not this user's inbox.
type peerError struct{ Err error }

func (e *peerError) Error() string { return e.Err.Error() }

func (e *peerError) Unwrap() error { return e.Err }

// BlockedError is an inbox's socket that this process may not reach:
// another user's inbox (it, or its directory, is theirs), or one of this
// user's that the system refused to connect to, as the sandboxes of agent
// tools do (Codex's refuse connect with EPERM).
type BlockedError struct {
	path string
	// dir is the directory on the way to path that may not be entered, or
	// "" when the socket itself was reached.
	dir string
	// owner is the user of the socket, or of dir; -1 where the system does
	// not tell.
	owner int
	// self is this process's user.
	self int
	err  error
}

// another reports whether the socket is another user's inbox.
func (e *BlockedError) another() bool { return e.owner >= 0 && e.owner != e.self }

func (e *BlockedError) Error() string {
	const sandbox = "a sandbox or a security policy around the command blocks it"
	switch {
	case e.another() && e.dir != "":
		return fmt.Sprintf("the inbox at %s is in %s, a directory of another user's (%s) that this user (%s) may not enter (permission denied)", e.path, e.dir, userName(e.owner), userName(e.self))
	case e.another():
		return fmt.Sprintf("the inbox at %s is another user's (%s), and askuser asks only in an inbox of the user it runs as (%s)", e.path, userName(e.owner), userName(e.self))
	case e.dir != "":
		return fmt.Sprintf("this command may not reach the inbox's socket at %s (%v): %s", e.path, errors.Unwrap(e.err), sandbox)
	}
	return fmt.Sprintf("the inbox's socket at %s is there, but this command may not connect to it (%v): %s", e.path, errors.Unwrap(e.err), sandbox)
}

// Hint says what to do, for the person or the program that reads the error.
func (e *BlockedError) Hint() string {
	if e.another() {
		return fmt.Sprintf("Run 'askuser inbox' as %s and answer there, or run this command as the inbox's user; %s names the inbox (unset, each user has their own).", userName(e.self), EnvAddr)
	}
	return "In Codex, reach the person through askuser's MCP server (askuser mcp), which runs outside the sandbox, or use its workspace-write sandbox (--sandbox workspace-write) with sandbox_workspace_write.network_access = true in ~/.codex/config.toml. With another tool, allow the command to reach this socket, or run it outside the sandbox."
}

func (e *BlockedError) Unwrap() error { return e.err }

// UnreachableError is an inbox that does not answer at the address.
type UnreachableError struct {
	Addr Addr
	Err  error
}

func (e *UnreachableError) Error() string {
	if blocked, ok := errors.AsType[*BlockedError](e.Err); ok {
		return blocked.Error()
	}
	if peer, ok := errors.AsType[*peerError](e.Err); ok {
		return fmt.Sprintf("no inbox of yours answers at %s: %v", e.Addr, peer)
	}
	return fmt.Sprintf("no inbox answers at %s", e.Addr)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// WithHint adds to err, an error of Probe or Ask, what to do: for an inbox
// that may not be reached, why and how to get through; else how to start
// one.
func WithHint(err error) error {
	if _, ok := errors.AsType[*ServerError](err); ok {
		// A NATS server's error says its fix already.
		return err
	}
	if blocked, ok := errors.AsType[*BlockedError](err); ok {
		return fmt.Errorf("%w.\n%s", err, blocked.Hint())
	}
	return fmt.Errorf("%w: start one with 'askuser inbox' in a terminal the person sees", err)
}

// RefusedError is a request that the inbox refused: its reply's status and
// what the inbox said.
type RefusedError struct {
	Addr   Addr
	Status int
	Body   ErrorBody
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("the inbox at %s refused the questions: %s", e.Addr, cmp.Or(e.Body.Error, http.StatusText(e.Status)))
}

// GoneError is an inbox whose connection ended, or fell silent, before the
// set did: it quit, died or became unreachable.
type GoneError struct {
	Addr Addr
	Err  error
}

func (e *GoneError) Error() string {
	return fmt.Sprintf("the inbox at %s went away before the questions were answered", e.Addr)
}

func (e *GoneError) Unwrap() error { return e.Err }

// lookupIP is the resolver's; tests replace it.
var lookupIP = net.DefaultResolver.LookupIP

// resolve turns the host name of hostport into an address: the inbox
// answers only to its own addresses (a page that a DNS-rebinding attacker
// points at it carries the attacker's name), and an asker in a container
// knows it by a name such as host.docker.internal.
func resolve(ctx context.Context, hostport string) (string, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil || net.ParseIP(host) != nil || strings.EqualFold(host, "localhost") {
		return hostport, nil
	}
	ips, err := lookupIP(ctx, "ip", host)
	if err != nil {
		return "", err
	}
	if len(ips) == 0 {
		return "", fmt.Errorf("%s has no address", host)
	}
	return net.JoinHostPort(ips[0].String(), port), nil
}

// do sends a request for path to the inbox, and returns its reply when
// its status is 200 (the caller closes its body). No inbox at the address
// is an *UnreachableError; a request it refused, a *RefusedError. Over the
// socket the host means nothing; over TCP it is the inbox's, which it
// checks.
func (c *client) do(ctx context.Context, method, path string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, "http://inbox"+path, body)
	if tcp, ok := c.addr.(TCPAddr); ok && err == nil {
		req.Header.Set("Authorization", "Bearer "+tcp.Token)
		req.URL.Host, err = resolve(ctx, tcp.Host)
		req.Host = req.URL.Host
	}
	if err != nil {
		return nil, &UnreachableError{Addr: c.addr, Err: err}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, &UnreachableError{Addr: c.addr, Err: err}
	}
	if resp.StatusCode != http.StatusOK {
		// Only read: closing it loses nothing.
		defer func() { _ = resp.Body.Close() }()
		refused := &RefusedError{Addr: c.addr, Status: resp.StatusCode}
		_ = json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&refused.Body)
		return nil, refused
	}
	return resp, nil
}

// Probe asks whether an inbox answers at the address, within ProbeTimeout,
// and returns its status. Anything else at the address, or nothing, is an
// *UnreachableError.
func (c *client) Probe(ctx context.Context) (Status, error) {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	resp, err := c.do(ctx, http.MethodGet, PathStatus, nil)
	if err != nil {
		return Status{}, err
	}
	// Only read: closing it loses nothing.
	defer func() { _ = resp.Body.Close() }()
	var st Status
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&st); err != nil || st.Inbox != Name {
		return Status{}, &UnreachableError{Addr: c.addr, Err: errors.New("something else than an askuser inbox answers there")}
	}
	return st, nil
}

// Ask puts req to the inbox and waits until the set ends (see Transport).
// When ctx ends, Ask closes the connection, which withdraws the set. A
// connection that ends, or over TCP falls silent, before the final event
// is a *GoneError.
func (c *client) Ask(ctx context.Context, req *Request, queued func(ahead int)) (Event, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return Event{}, fmt.Errorf("encode the questions: %w", err)
	}
	// The request ends when ctx does, once the inbox has been sent the
	// Withdrawal that says why, when its cause is a Withdrawer: the inbox
	// reads the line before the end of the connection.
	reqCtx, stop := context.WithCancelCause(context.WithoutCancel(ctx))
	defer stop(nil)
	// The inbox queues the set before it sends the reply's header: once
	// the request is out, a connection that ends is an inbox that went
	// with the questions, not one that was never there.
	var sent atomic.Bool
	var conn atomic.Pointer[net.Conn]
	traced := httptrace.WithClientTrace(reqCtx, &httptrace.ClientTrace{
		GotConn:      func(got httptrace.GotConnInfo) { conn.Store(&got.Conn) },
		WroteRequest: func(w httptrace.WroteRequestInfo) { sent.Store(w.Err == nil) },
	})
	defer context.AfterFunc(ctx, func() {
		// A line that cannot be written leaves the set withdrawn without
		// its reason; nor is one written into a request not yet sent whole.
		if code, c := WithdrawCode(ctx), conn.Load(); code != "" && c != nil && sent.Load() {
			_ = (*c).SetWriteDeadline(time.Now().Add(withdrawalGrace))
			_, _ = (*c).Write([]byte(jsonout.String(Withdrawal{Withdraw: code}) + "\n"))
		}
		stop(context.Cause(ctx))
	})()
	resp, err := c.do(traced, http.MethodPost, pathAsk, bytes.NewReader(body))
	if err != nil {
		if ctx.Err() != nil {
			return Event{}, context.Cause(ctx)
		}
		if unreachable, ok := errors.AsType[*UnreachableError](err); ok && sent.Load() {
			return Event{}, &GoneError{Addr: c.addr, Err: unreachable.Err}
		}
		return Event{}, err
	}
	// Only read: closing it loses nothing.
	defer func() { _ = resp.Body.Close() }()
	return c.wait(ctx, reqCtx, stop, resp.Body, queued)
}

// errSilent is the end of a wait over TCP that heard nothing from the
// inbox for tcpSilence.
var errSilent = errors.New("no word from the inbox for " + tcpSilence.String())

// wait reads the events of body, the reply to the request of reqCtx,
// until the final one, which it returns. Over TCP, an inbox silent for
// tcpSilence is taken for gone: the request is stopped, which ends the
// read.
func (c *client) wait(ctx, reqCtx context.Context, stop context.CancelCauseFunc, body io.Reader, queued func(ahead int)) (Event, error) {
	heard := func() {}
	// Over TCP, the end of a connection may never be seen; on the socket
	// it is.
	if _, overTCP := c.addr.(TCPAddr); overTCP {
		silence := time.AfterFunc(tcpSilence, func() { stop(errSilent) })
		defer silence.Stop()
		heard = func() { silence.Reset(tcpSilence) }
	}
	lines := bufio.NewScanner(body)
	// No event is larger.
	lines.Buffer(nil, maxEventBytes)
	for lines.Scan() {
		heard()
		var e Event
		if err := json.Unmarshal(lines.Bytes(), &e); err != nil {
			return Event{}, &GoneError{Addr: c.addr, Err: fmt.Errorf("the inbox sent what is not an event: %w", err)}
		}
		switch e.Event {
		case eventQueued:
			if queued != nil {
				queued(e.Ahead)
			}
		case EventAnswered, EventCancelled, EventClosed:
			return e, nil
		}
		// A heartbeat, or an event of a later version: the wait goes on.
	}
	err := lines.Err()
	switch {
	case ctx.Err() != nil:
		return Event{}, context.Cause(ctx)
	case errors.Is(context.Cause(reqCtx), errSilent):
		err = errSilent
	case err == nil:
		// The stream ended before its final event.
		err = io.ErrUnexpectedEOF
	}
	return Event{}, &GoneError{Addr: c.addr, Err: err}
}

// ServerError is an inbox on a server (NATS) that cannot be used: its address cannot be
// read, or its server cannot be reached, refuses the credentials, lacks
// what the inbox needs. Its message names the cause and the fix, on one
// line; it makes the inbox unavailable (exit 69), as every inbox that
// cannot be reached does.
type ServerError struct {
	Msg string
	Err error
}

func (e *ServerError) Error() string { return e.Msg }

func (e *ServerError) Unwrap() error { return e.Err }
