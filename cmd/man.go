package cmd

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

func newManCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "man [DIR]",
		Short: "Write the man pages of askuser and its commands into a folder",
		Long: `Write a man page for askuser and one for each of its commands (askuser.1,
askuser-inbox.1, ...) into DIR, made if need be (default: the working
directory). man reads them from a folder in its path, such as
~/.local/share/man/man1, or one by one with man -l. The release archives
carry the same pages.`,
		Example: `  askuser man ~/.local/share/man/man1 && man askuser-inbox
  askuser man /tmp/askuser-man && man -l /tmp/askuser-man/askuser.1`,
		Args: atMostOne("man takes one folder, but got %d"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			version, _, _ := env.Build.recorded()
			if err := WriteManPages(cmd.Root(), dir, version, time.Now()); err != nil {
				return err
			}
			_, err := fmt.Fprintf(cmd.ErrOrStderr(), "Wrote the man pages of askuser into %s.\n", dir)
			return err
		},
	}
}

// WriteManPages writes cobra's man page of root, askuser's command tree,
// and of every command under it into dir, made if need be: each names
// version, and is dated at date. The tree is changed for the pages: see
// escapeAngles.
func WriteManPages(root *cobra.Command, dir, version string, date time.Time) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root.DisableAutoGenTag = true
	escapeAngles(root)
	// No title: cobra names each page after its command (ASKUSER-MCP).
	header := &doc.GenManHeader{
		Section: "1",
		Date:    &date,
		Source:  "askuser " + version,
		Manual:  "askuser manual",
	}
	if err := doc.GenManTree(root, header, dir); err != nil {
		return fmt.Errorf("write the man pages: %w", err)
	}
	return nil
}

// escapeAngles keeps the <json> and <header> of the commands' texts on the
// man pages: cobra writes a page as Markdown, where <...> would be HTML and
// be dropped.
func escapeAngles(c *cobra.Command) {
	escape := strings.NewReplacer("<", `\<`).Replace
	c.Use, c.Short, c.Long = escape(c.Use), escape(c.Short), escape(c.Long)
	for _, sub := range c.Commands() {
		escapeAngles(sub)
	}
}
