package history

import (
	"cmp"
	"slices"
	"time"
)

// Agent is how long one agent (one From) waited for the person's answers:
// over the sets the person answered, the median wait (P50) and the wait
// that 95 in 100 of them did not pass (P95), each a wait that one of them
// had (the nearest rank).
type Agent struct {
	From     string        `json:"from"`
	Answered int           `json:"answered"`
	P50      time.Duration `json:"-"`
	P95      time.Duration `json:"-"`
}

// Agents gathers the waits of each agent that the person answered in rs,
// the one answered most first, then by name. A set answered in another inbox
// on the same queue is left out: that inbox's history counts it, and two
// inboxes on one machine share one history.
func Agents(rs []Record) []Agent {
	waits := map[string][]time.Duration{}
	for _, r := range rs {
		if r.Outcome == Answered && r.Via != ViaElsewhere {
			waits[r.From] = append(waits[r.From], r.WaitedFor())
		}
	}
	var agents []Agent
	for from, w := range waits {
		slices.Sort(w)
		agents = append(agents, Agent{From: from, Answered: len(w), P50: rank(w, 50), P95: rank(w, 95)})
	}
	slices.SortFunc(agents, func(a, b Agent) int {
		return cmp.Or(cmp.Compare(b.Answered, a.Answered), cmp.Compare(a.From, b.From))
	})
	return agents
}

// rank returns the p-th percentile of sorted, by the nearest rank: the
// smallest of them that at least p in 100 of them do not pass.
func rank(sorted []time.Duration, p int) time.Duration {
	i := (p*len(sorted) + 99) / 100 // the rank, ceil(p/100 * n), from 1
	return sorted[max(i, 1)-1]
}
