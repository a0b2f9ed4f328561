// Package inbox owns the inbox of askuser: one place where the question
// sets of every asker (any agent, any subagent) wait for the person. It
// reads where an inbox is (ASKUSER_INBOX and its defaults), speaks the
// protocol between askers and the inbox in JSON, whatever carries it,
// keeps the queue of waiting sets that every view reads and changes, with
// their answers checked against their questions, serves askers (a request
// checked and queued, its wait streamed back), and asks as an asker,
// sending a set and checking what comes back.
//
// An asker reaches an inbox through a Transport, and an inbox is reached
// through a Listener: here the Unix socket and TCP, with the HTTP client
// of both; NATS is a package of its own (natsinbox). A new transport is a
// new Addr, Transport and Listener, and touches neither the queue nor the
// views; one that carries HTTP needs only the server's handler and
// Server.Serve, one of another package Server.Check, Server.Queue and
// Server.OnClose.
//
// The views that show the queue are in the package view, and serve runs
// an inbox: the queue, its listeners and a view.
package inbox
