// Package natsinbox is the inbox across machines: askers and the inbox
// meet on a NATS server with JetStream (nats:// or tls:// in
// ASKUSER_INBOX), both connecting out to it. It is a transport of package
// inbox, behind its Addr, Transport and Listener, and adds its schemes to
// the addresses inbox.ParseAddr reads. Its rooms: the address
// (addr.go), the connection and the streams (conn.go), sealing with age
// and the names a set's secret gives it (seal.go), the asker's side
// (asker.go) and the inbox's (feed.go).
//
// One agent may be hostile, holding the agents' credentials: it can ask,
// but cannot read another's questions or answers (they are sealed), replace
// a stored set (a subject takes one message, and a set's secret names its
// subject), forge an end (only who knows the secret can name the end's
// subject), fill the server (the streams have limits; what the inbox
// cannot open, and an end that would never expire, is deleted), or touch
// the streams (only the inbox's credentials may: see the permissions of
// docs/across-machines.md). Within the limits, it can take up the queue's room with
// sets and ends of its own, for as long as they are kept (a day at most):
// the credentials are shared, so the server cannot tell its messages
// from another agent's.
package natsinbox

// On NATS, an inbox NAME (address.Name) is two JetStream streams, which
// only the inbox makes and changes (see address.setsConfig and
// address.beatsConfig):
//
//	ASKUSER_NAME        (the sets) every message stored once, never replaced:
//	  askuser.NAME.set.ID.N  a copy of a set (a wireSet, sealed to the
//	                         inbox's recipient), stored for setTTL; its
//	                         asker stores copy N+1 every setTTL/2
//	  askuser.NAME.end.END   how the set ended (a wireEnd, sealed to the
//	                         inbox, and to the asker when an inbox ended
//	                         it), stored for endTTL: the first stored is
//	                         the end
//	  askuser.NAME.key       the recipient of the first inbox: askers
//	                         whose address has no to= seal to it, and an
//	                         inbox with another identity is refused
//	ASKUSER-BEATS_NAME  (the beats) the last of each subject kept:
//	  askuser.NAME.beat.ID   the asker's beat, every beatEvery, and the
//	                         inbox's tick: the server's time on each says
//	                         who still waits (see feed.tick)
//
// ID and END are digests of the set's secret (setID, endID): only its
// asker and the inboxes that opened it can name its end. Subjects and
// headers hold no question. Each side takes its replies under a prefix of
// its own (address.replyPrefix), so that no user of the server sees
// another's.
