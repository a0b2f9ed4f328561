package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestInboxStress puts the questions of 50 askers (10 under -short) to one
// inbox at once, kills about a third of them at random moments while they
// wait, and answers the rest through the inbox's line screen, reading what
// it shows: every answer is derived from the set on screen (each asker's
// options are its own, and are answered by label), so that an answer given
// to the wrong set, or a set shown under another's name, fails the test.
// Every asker must end; each that was not killed must print exactly its own
// answers; none may get another's. Then the inbox must quit at the end of
// its input.
func TestInboxStress(t *testing.T) {
	n := 50
	if testing.Short() {
		n = 10
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("ASKUSER_STRESS_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	t.Logf("seed %d (set ASKUSER_STRESS_SEED to repeat)", seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	in := startInbox(t)
	dir := t.TempDir()
	plans := map[string]*stressPlan{}
	var order []*stressPlan
	ask := func(p *stressPlan) {
		plans[p.name] = p
		order = append(order, p)
		args := []string{"confirm", p.confirm}
		if p.questions != nil {
			b, _ := json.Marshal(map[string]any{"questions": p.questions})
			if err := os.WriteFile(filepath.Join(dir, p.name+".json"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			args = []string{"-f", p.name + ".json"}
		}
		p.asker = startAsker(t, string(in.addr), dir, p.name, args...)
	}

	start := time.Now()
	for i := 0; i < n; i++ {
		p := newStressPlan(rng, fmt.Sprintf("asker-%02d", i), rng.IntN(3) == 0)
		p.killShown = p.victim && rng.IntN(2) == 0
		ask(p)
	}
	in.waitWaiting(t, n, 2*time.Minute)
	// One more asker, never killed, comes last. The inbox's input is not a
	// terminal, so a line it has not read when the set it was typed for is
	// withdrawn stays for the next set, which refuses it (each asker's
	// labels are its own) and asks again (see driveScreen). Were the last
	// set shown withdrawn with such a line unread, the line would wait for
	// a set to come, as answers given ahead do, and the inbox would rightly
	// not quit at the end of its input.
	ask(newStressPlan(rng, fmt.Sprintf("asker-%02d", n), false))
	in.waitWaiting(t, n+1, time.Minute)
	t.Logf("%d sets queued in %s", n+1, time.Since(start).Round(time.Millisecond))
	// Every set waits before the first is answered; then half the victims
	// are killed at random moments, wherever their sets are in the queue,
	// and the others by the person's side as their sets are on screen.
	for _, p := range order {
		if p.victim && !p.killShown {
			victim := p.asker
			time.AfterFunc(time.Duration(rng.IntN(100))*time.Millisecond, func() { victim.cmd.Process.Kill() })
		}
	}
	driven := make(chan error, 1)
	stop := make(chan struct{})
	go func() { driven <- driveScreen(in, plans, stop) }()
	deadline := time.After(2 * time.Minute)
	for _, p := range order {
		select {
		case <-p.asker.done:
		case err := <-driven:
			t.Fatalf("driving the screen: %v; it shows:\n%s", err, in.screen)
		case <-deadline:
			t.Fatalf("%s has not ended after 2 minutes; the inbox shows:\n%s", p.name, in.screen)
		}
	}
	close(stop)
	if err := <-driven; err != nil {
		t.Fatalf("driving the screen: %v", err)
	}
	t.Logf("%d askers ended in %s", len(order), time.Since(start).Round(time.Millisecond))

	// An asker may have its answer before the screen says it was sent: the
	// screen is read once it says that nothing waits.
	idle := "Waiting for questions at " + string(in.addr) + ".\n"
	in.screen.waitUntil(t, "show that nothing waits", func(text string) bool { return strings.HasSuffix(text, idle) }, 10*time.Second)
	screen := in.screen.String()
	answered, killed, lateSent := 0, 0, 0
	for _, p := range order {
		code, stdout := p.asker.code(), p.asker.stdout.String()
		sent := strings.Count(screen, "✔ Sent to "+p.name+".\n")
		switch {
		case p.victim && code != 0 && code != 1:
			// Killed: perhaps just after its answer was sent, or even
			// after it printed it, before it exited; what it printed is
			// then the answer sent.
			killed++
			lateSent += sent
			if (stdout != "" && (stdout != p.want || sent != 1)) || sent > 1 {
				t.Errorf("%s was killed (exit %d) yet printed %q; sent %d times", p.name, code, stdout, sent)
			}
		case p.questions == nil:
			want := map[bool]int{true: 0, false: 1}[p.yes]
			if code != want || stdout != "" || sent != 1 {
				t.Errorf("%s: exit %d (want %d), stdout %q, sent %d times; stderr:\n%s", p.name, code, want, stdout, sent, p.asker.stderr)
			}
			answered++
		default:
			if code != 0 || stdout != p.want || sent != 1 {
				t.Errorf("%s: exit %d, stdout %q, want %q, sent %d times; stderr:\n%s", p.name, code, stdout, p.want, sent, p.asker.stderr)
			}
			answered++
		}
	}
	t.Logf("%d answered, %d killed while they waited (%d while shown)", answered, killed, strings.Count(screen, " were withdrawn ("))
	if sent := strings.Count(screen, "✔ Sent to "); sent != answered+lateSent {
		t.Errorf("the screen sent %d answers for %d askers answered and %d killed after theirs was sent", sent, answered, lateSent)
	}
	in.waitWaiting(t, 0, 10*time.Second)
	in.stdin.Close()
	select {
	case <-in.done:
		if in.code() != 0 {
			t.Errorf("the inbox exited %d", in.code())
		}
	case <-time.After(time.Minute):
		t.Fatal("the inbox did not quit at the end of its input")
	}
}

// stressPlan is one asker of the stress test: its questions, and what the
// person answers to each.
type stressPlan struct {
	name   string
	victim bool // killed while it waits
	// killShown has the victim killed when the screen shows one of its
	// questions (killAt), rather than at a random moment.
	killShown bool
	killAt    int
	questions []map[string]any
	// picks are the labels answered, question by question.
	picks [][]string
	want  string // the output meant
	// confirm is the question of an asker that asks a yes/no question
	// instead; yes is the answer. Only askers that are not killed ask one:
	// "y" typed for a set that vanishes could answer another.
	confirm string
	yes     bool
	asker   *asker
}

func newStressPlan(rng *rand.Rand, name string, victim bool) *stressPlan {
	p := &stressPlan{name: name, victim: victim}
	if !victim && rng.IntN(5) == 0 {
		p.confirm, p.yes = "Deploy "+name+"?", rng.IntN(2) == 0
		return p
	}
	var want strings.Builder
	want.WriteString(`{"answers":{`)
	nq := 1 + rng.IntN(2)
	for k := 0; k < nq; k++ {
		multi := rng.IntN(2) == 0
		var options []map[string]string
		var labels, picks []string
		no := 2 + rng.IntN(3)
		for j := 0; j < no; j++ {
			l := fmt.Sprintf("%s-%d%c", name, k, 'a'+j)
			labels = append(labels, l)
			options = append(options, map[string]string{"label": l, "description": "option " + l})
		}
		if multi {
			for _, l := range labels {
				if rng.IntN(2) == 0 {
					picks = append(picks, l)
				}
			}
			if len(picks) == 0 {
				picks = labels[:1]
			}
		} else {
			picks = []string{labels[rng.IntN(no)]}
		}
		header := fmt.Sprintf("H%d", k)
		p.questions = append(p.questions, map[string]any{
			"question": fmt.Sprintf("Question %d of %s?", k, name), "header": header, "options": options, "multiSelect": multi,
		})
		p.picks = append(p.picks, picks)
		if k > 0 {
			want.WriteByte(',')
		}
		fmt.Fprintf(&want, `%q:%q`, header, strings.Join(picks, ", "))
	}
	want.WriteString("}}\n")
	p.want = want.String()
	p.killAt = rng.IntN(nq)
	return p
}

var (
	fromLine   = regexp.MustCompile(`(?m)^From (asker-\d+) · `)
	headerLine = regexp.MustCompile(`(?m)^\[(\d+)/\d+\] (H\d+)$`)
	optionLine = regexp.MustCompile(`(?m)^  \d+\. (\S+)$`)
	// readLine is a prompt that the driver answers, with the line the
	// inbox read for it.
	readLine = regexp.MustCompile(`(own answer\)|\[[Yy]/[Nn]\]): [^\n]+\n`)
)

// driveScreen answers every prompt the inbox's screen shows, as the person
// would, until stop is closed: it reads whose set is shown and which of its
// questions, checks that the options shown are that asker's own, and types
// the labels meant for it.
//
// It types nothing while a line it typed is unread: the inbox repeats each
// line it reads after its prompt (its input is not a terminal), and a line
// typed for a set withdrawn before the inbox read it is read by the next
// prompt, which refuses it and asks again. Typing for that next prompt as
// well would leave a line over for the prompt after, and so on to the end.
func driveScreen(in *inboxProcess, plans map[string]*stressPlan, stop <-chan struct{}) error {
	answeredAt, typed := 0, 0
	for {
		text, changed := in.screen.snapshot()
		if len(text) > answeredAt && strings.HasSuffix(text, ": ") && len(readLine.FindAllStringIndex(text, -1)) == typed {
			answer, victim, err := answerFor(text, plans)
			if err != nil {
				return err
			}
			answeredAt = len(text)
			if victim != nil {
				// The asker goes while the person looks at its question.
				victim.cmd.Process.Kill()
			} else {
				if _, err := io.WriteString(in.stdin, answer+"\n"); err != nil {
					return err
				}
				typed++
			}
		}
		select {
		case <-changed:
		case <-stop:
			return nil
		}
	}
}

// answerFor is the line that answers the prompt at the end of text, or the
// asker to kill instead.
func answerFor(text string, plans map[string]*stressPlan) (string, *asker, error) {
	froms := fromLine.FindAllStringSubmatchIndex(text, -1)
	if len(froms) == 0 {
		return "", nil, fmt.Errorf("a prompt with no set shown")
	}
	last := froms[len(froms)-1]
	name := text[last[2]:last[3]]
	p := plans[name]
	if p == nil {
		return "", nil, fmt.Errorf("a set from %q, which is no asker", name)
	}
	set := text[last[0]:]
	prompt := set[strings.LastIndex(set, "\n")+1:]
	if p.questions == nil {
		if !strings.HasPrefix(prompt, p.confirm+" [Y/n]: ") {
			return "", nil, fmt.Errorf("the set of %s shows %q", name, prompt)
		}
		if p.yes {
			return "y", nil, nil
		}
		return "n", nil, nil
	}
	headers := headerLine.FindAllStringSubmatchIndex(set, -1)
	if len(headers) == 0 {
		return "", nil, fmt.Errorf("the set of %s shows no question before %q", name, prompt)
	}
	h := headers[len(headers)-1]
	var k int
	fmt.Sscan(set[h[2]:h[3]], &k)
	k--
	if k < 0 || k >= len(p.questions) || set[h[4]:h[5]] != p.questions[k]["header"] {
		return "", nil, fmt.Errorf("the set of %s shows question %q", name, set[h[0]:h[1]])
	}
	var shown []string
	for _, m := range optionLine.FindAllStringSubmatch(set[h[1]:], -1) {
		shown = append(shown, m[1])
	}
	var mine []string
	for _, o := range p.questions[k]["options"].([]map[string]string) {
		mine = append(mine, o["label"])
	}
	if strings.Join(shown, " ") != strings.Join(mine, " ") {
		return "", nil, fmt.Errorf("the set of %s, question %d, shows the options %q, not its own %q", name, k+1, shown, mine)
	}
	if p.killShown && k == p.killAt {
		return "", p.asker, nil
	}
	return strings.Join(p.picks[k], ", "), nil, nil
}
