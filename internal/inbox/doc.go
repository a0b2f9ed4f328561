// Package inbox owns the inbox of askuser: one place where the question
// sets of every asker (any agent, any subagent) wait for the person. Its
// rooms, one or a few files each:
//
//   - the address (addr.go): ASKUSER_INBOX and its defaults; an Addr is
//     the socket's, TCP's, or one that another package's transport parses
//     (a Remote, which cmd hands in), and dials and listens itself;
//   - the protocol (protocol.go): what askers and the inbox say to each
//     other, in JSON, whatever carries it;
//   - the queue (queue.go): the waiting sets, which every view reads and
//     changes, and the answers checked against their questions (answer.go);
//   - the server (server.go): a request checked and queued, its wait
//     streamed back;
//   - the asker (asker.go): the asker's side, which sends a set through a
//     Transport and checks what comes back;
//   - the transports (transport.go): Transport is how an asker reaches an
//     inbox, Listener how an inbox is reached. Each has its files: the
//     Unix socket (socket*.go, peercred*.go), TCP (tcp.go), the HTTP
//     client of both (client.go); NATS is a package of its own
//     (natsinbox). A new transport is a new Addr, Transport and
//     Listener, and touches neither the queue nor the views; one that
//     carries HTTP is written here and needs only the server's handler
//     and Server.Serve, one of another package Server.Check,
//     Server.Queue and Server.OnClose.
//
// The views that show the queue are in the package view, and serve runs
// an inbox: the queue, its listeners and a view.
package inbox
