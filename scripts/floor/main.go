// Command floor is the least a program can do that is built as askuser's
// design card says (a cobra command) and keeps askuser's contract on
// signals and pipes, for scripts/bench.sh to measure askuser against: it
// parses the same flags, ignores SIGPIPE, watches SIGINT, SIGTERM and
// SIGHUP, decodes the questions file, reads one answer line from stdin and
// prints the answer as JSON. It validates nothing and draws no prompt.
package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	signal.Ignore(syscall.SIGPIPE)
	var file, ui string
	root := &cobra.Command{
		Use:           "floor -f FILE",
		SilenceErrors: true,
		SilenceUsage:  true,
		RunE: func(*cobra.Command, []string) error {
			sigs := make(chan os.Signal, 1)
			signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
			defer signal.Stop(sigs)
			data, err := os.ReadFile(file)
			if err != nil {
				return err
			}
			var doc map[string]any
			if err := json.Unmarshal(data, &doc); err != nil {
				return err
			}
			if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
				return err
			}
			out, err := json.Marshal(map[string]any{"answers": map[string]string{"Database": "SQLite"}})
			if err != nil {
				return err
			}
			_, err = os.Stdout.Write(append(out, '\n'))
			return err
		},
	}
	root.Flags().StringVarP(&file, "file", "f", "", "questions `FILE`")
	root.Flags().StringVar(&ui, "ui", "auto", "ignored")
	if err := root.Execute(); err != nil {
		_, _ = os.Stderr.WriteString("floor: " + err.Error() + "\n")
		os.Exit(1)
	}
}
