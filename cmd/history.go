package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/history"
	"github.com/askuser/askuser/prompt"
)

// historyLong is askuser history's help.
const historyLong = `Show the history of the inbox: every set of questions that ended in it,
newest first, with who asked, when it ended, how long the asker waited, how
it ended and where (answered here, on the page, from the notification, in
the chat, or in another inbox on the same queue; cancelled; withdrawn by
its asker; closed when the inbox quit) and the headers of its questions.
Then, for each agent, how many of its sets you answered in the inbox and
how long it waited for your answer: the median (p50) and the wait that 95
in 100 of them did not pass (p95).

Every inbox of yours appends to the same file, $XDG_STATE_HOME/askuser/
history.jsonl (else ~/.local/state/askuser/history.jsonl), one JSON object
a line; it is kept under 1 MiB by dropping the oldest sets. The answers are
kept, and shown, only with ASKUSER_HISTORY=answers; ASKUSER_HISTORY=off
keeps nothing. --json prints the sets and the waits as one JSON object.`

func newHistoryCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "history [--json]",
		Short: "Show the sets that ended in the inbox, and how long agents waited",
		Long:  historyLong,
		Example: `  askuser history
  askuser history --json | jq '.sets[] | select(.outcome == "withdrawn")'
  ASKUSER_HISTORY=answers askuser inbox    # keep the answers too`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, err := historyPath(env)
			if err != nil {
				return err
			}
			home, _ := os.UserHomeDir()
			return historyRun(historyOptions{Path: path, JSON: asJSON, Home: home}, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the sets, newest first, and the waits of each agent, as one JSON object")
	return cmd
}

// historyOptions are askuser history's options.
type historyOptions struct {
	Path string
	JSON bool
	// Home is shown as ~ in the directories that sets came from.
	Home string
}

// historyRun prints the history at o.Path on w; what is wrong with the
// file goes to errw.
func historyRun(o historyOptions, w, errw io.Writer) error {
	records, skipped, err := history.Read(o.Path)
	if err != nil {
		return fmt.Errorf("read the history: %w", err)
	}
	switch {
	case skipped == 1:
		_, _ = fmt.Fprintf(errw, "Warning: a line of %s is not a set of the history, and was left out.\n", o.Path)
	case skipped > 1:
		_, _ = fmt.Fprintf(errw, "Warning: %d lines of %s are not sets of the history, and were left out.\n", skipped, o.Path)
	}
	agents := history.Agents(records)
	if o.JSON {
		return writeHistoryJSON(w, records, agents)
	}
	if len(records) == 0 {
		_, err := fmt.Fprintf(errw, "No set has ended in the inbox yet (the history is %s).\n", o.Path)
		return err
	}
	return writeHistory(w, o.Home, records, agents)
}

// writeHistory writes the sets, a line each (and a line for each answer
// kept), then the waits of each agent, in aligned columns.
func writeHistory(w io.Writer, home string, records []history.Record, agents []history.Agent) error {
	var b strings.Builder
	b.WriteString("ENDED\tFROM\tWAITED\tHOW\tQUESTIONS\n")
	for _, r := range records {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\n", r.Ended.Local().Format("2006-01-02 15:04"), prompt.Display(prompt.ShortHome(r.From, home)),
			prompt.Waited(r.WaitedFor()), prompt.Display(r.How()), prompt.Display(strings.Join(r.Questions, ", ")))
		for _, a := range r.Answers {
			fmt.Fprintf(&b, "\t\t\t\t%s: %s\n", prompt.Display(a.Header), prompt.Display(a.Answer))
		}
	}
	if len(agents) > 0 {
		b.WriteString("\nTIME TO ANSWER\tANSWERED\tP50\tP95\n")
		for _, a := range agents {
			fmt.Fprintf(&b, "%s\t%d\t%s\t%s\n", prompt.Display(prompt.ShortHome(a.From, home)), a.Answered, prompt.Waited(a.P50), prompt.Waited(a.P95))
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if _, err := io.WriteString(tw, b.String()); err != nil {
		return err
	}
	return tw.Flush()
}

// historyJSON is the history as --json prints it.
type historyJSON struct {
	Sets   []history.Record `json:"sets"`
	Agents []agentJSON      `json:"agents"`
}

// agentJSON is an agent's waits, in seconds.
type agentJSON struct {
	From     string  `json:"from"`
	Answered int     `json:"answered"`
	P50      float64 `json:"p50_seconds"`
	P95      float64 `json:"p95_seconds"`
}

func writeHistoryJSON(w io.Writer, records []history.Record, agents []history.Agent) error {
	// Both lists are [] when empty, never null.
	out := historyJSON{Sets: append([]history.Record{}, records...), Agents: []agentJSON{}}
	for _, a := range agents {
		out.Agents = append(out.Agents, agentJSON{From: a.From, Answered: a.Answered, P50: seconds(a.P50), P95: seconds(a.P95)})
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(out)
}

// seconds returns d in seconds, to the millisecond.
func seconds(d time.Duration) float64 { return d.Round(time.Millisecond).Seconds() }

// historyKeep returns what the inbox keeps in its history (ASKUSER_HISTORY).
func historyKeep(env *Env) (history.Keep, error) {
	keep, err := history.ParseKeep(env.get(varHistory))
	if err != nil {
		return 0, envErrorf("invalid %s %q: %s", varHistory.name, env.get(varHistory), err)
	}
	return keep, nil
}

// historyPath returns where the inbox's history is: in $XDG_STATE_HOME/askuser,
// else ~/.local/state/askuser, as the XDG base directories have it. A
// relative XDG_STATE_HOME is refused, as Go refuses a relative
// XDG_CONFIG_HOME.
func historyPath(env *Env) (string, error) {
	dir := env.get(varStateHome)
	switch {
	case dir != "" && !filepath.IsAbs(dir):
		return "", envErrorf("invalid %s %q: must be an absolute path", varStateHome.name, dir)
	case dir == "":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the history: %w; set %s", err, varStateHome.name)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "askuser", history.FileName), nil
}
