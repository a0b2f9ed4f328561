// Package natsinbox is the inbox across machines: askers and the inbox
// meet on a NATS server or cluster with JetStream (nats:// or tls:// in
// ASKUSER_INBOX), both connecting out to it, and the sets wait there while
// no inbox runs. It is a transport of package inbox, behind its Addr,
// Transport and Listener; cmd hands its Remote to inbox.ParseAddr.
//
// An asker seals its set with age to the inbox's recipient, stores it,
// and beats while it waits; the inbox reads every set and beat as the
// server stores them, shows each set while its asker beats (judged by the
// server's clock, so that a laptop that sleeps withdraws nothing), and
// stores how each ended, sealed to its asker. Every inbox on one queue
// shows every set, and the first end stored wins; an answer is sent once
// it is stored.
//
// People are kept apart by NATS accounts (see docs/across-machines.md),
// and each person's agents from the inbox by an account of their own,
// which reaches only the subjects the inbox's account exports to it as
// services (so that no reply subject an agent names is one of the inbox's
// account) and never the JetStream API; the asker's subjects are the same
// whether it reaches them so or in one account. An agent may be hostile,
// holding the agents' credentials: it
// can ask, but cannot read another's questions or answers (they are
// sealed), name another set's copies or end (its secret names them),
// replace a stored set or forge an end (a subject takes one message),
// plant the inbox's recipient (its subject names it), claim to have
// waited longer than the server saw, or store what outlives the stream's
// age; what the inbox cannot open costs it no key work, is deleted, and is
// told in fixed words. An end counts as stored only on the sets' stream's
// own acknowledgement, and a set asked again is dated from its root only
// when an inbox proves it withdrew that root. Within the streams' limits,
// it can take up the queue's room with sets and ends of its own, for a
// day at most.
package natsinbox

// On NATS, an inbox NAME (address.Name) is two JetStream streams, which
// only the inbox makes (see address.setsConfig and address.beatsConfig):
//
//	ASKUSER_NAME        (the sets) every message stored once, never replaced:
//	  askuser.NAME.set.ID.0     the set's anchor, stored for endTTL: when
//	                            it was first asked, as the server saw it;
//	                            stored after its first copy, naming it,
//	                            which the server checks (feed.onAnchor)
//	  askuser.NAME.set.ID.COPY  a copy of a set (a wireSet, sealed to the
//	                            inbox's recipient), stored for setTTL; its
//	                            asker stores the next every setTTL/2
//	  askuser.NAME.end.END      how the set ended (a wireEnd, sealed to the
//	                            inbox, and to the asker when an inbox ended
//	                            it), stored for endTTL: the first stored is
//	                            the end
//	  askuser.NAME.key.R        the inbox's recipient R, which the stream
//	                            takes on this subject alone: askers whose
//	                            address has no to= seal to it, and an inbox
//	                            with another identity is refused
//	ASKUSER-BEATS_NAME  (the beats, in memory; on disk with replicas=N)
//	                    the last of each subject kept:
//	  askuser.NAME.beat.ID      the asker's beat, every beatEvery, and the
//	                            inbox's tick: the server's time on each says
//	                            who still waits (see feed.tick)
//
// ID, COPY and END are digests of the set's secret (setID, copyID, endID):
// only its asker and the inboxes that opened it can name its copies and
// its end. Subjects and headers hold no question. Each side takes its
// replies under a prefix of its own (address.replyPrefix), so that no user
// of the server sees another's.
