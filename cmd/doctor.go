package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/askuser/askuser/internal/ask"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/prompt"
)

// doctorLong is askuser doctor's help.
const doctorLong = `Say where things stand for askuser here: the version; where an asker run
here looks for the inbox (ASKUSER_INBOX, else the socket of the runtime
directory) and whether an inbox answers there; each way to reach an inbox
(the Unix socket, TCP, NATS), its address and its state; and the environment
variables askuser reads that are set, each checked as the commands check it.
The values that may hold a secret (a token, a private address) are not
shown.

It waits at most a second for each address. It exits 0 when every setting
is valid, whether an inbox runs or not, and 1 when a setting is not.`

// doctorWait is how long askuser doctor waits for an address to answer:
// an inbox answers its status at once, and a doctor that hangs on a
// server that is down is no help.
const doctorWait = time.Second

func newDoctorCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Say where an asker here finds the inbox, and the settings in force",
		Long:  doctorLong,
		Example: `  askuser doctor
  ASKUSER_INBOX=nats://nats.example.com:4222/alice askuser doctor`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return doctorRun(cmd.Context(), env, cmd.OutOrStdout())
		},
	}
}

// doctorRun writes the report on w; see doctorLong.
func doctorRun(ctx context.Context, env *Env, w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", env.Build)
	ok := doctorInbox(ctx, env, &b)
	ok = doctorSettings(env, &b) && ok
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if !ok {
		// The report said which setting: nothing more to print.
		return ask.ErrReported
	}
	return nil
}

// doctorInbox writes where an asker here looks for the inbox, and the
// state of each transport, and reports whether the address is valid.
func doctorInbox(ctx context.Context, env *Env, b *strings.Builder) bool {
	b.WriteString("\nThe inbox\n")
	a, err := inboxAddr(env)
	if err != nil {
		fmt.Fprintf(b, "  ✖ %s\n", prompt.Capitalize(err.Error()))
		return false
	}
	from := "from " + varRuntimeDir.name
	switch {
	case env.get(varInbox) != "":
		from = "from " + varInbox.name
	case env.get(varRuntimeDir) == "":
		from = "the default without " + varRuntimeDir.name
	}
	fmt.Fprintf(b, "  Askers here ask at %s (%s).\n", a, from)
	switch st, err := probe(ctx, a); {
	case err != nil:
		fmt.Fprintf(b, "  ✖ %s.\n    An asker with nobody at its stdin exits 66 (69 with --ui inbox): start an\n    inbox in a terminal you keep in view, with askuser inbox.\n", prompt.Capitalize(err.Error()))
	case a.Durable():
		fmt.Fprintf(b, "  ✔ The server answers: the questions of askers wait there for an inbox.\n")
	default:
		fmt.Fprintf(b, "  ✔ An inbox answers there, with %s waiting.\n    An asker with nobody at its stdin asks in it.\n", sets(st.Waiting))
		if st.Page != "" {
			fmt.Fprintf(b, "    Its web page: %s\n", prompt.Display(st.Page))
		}
	}

	b.WriteString("\nWays to reach an inbox\n")
	// The socket is this machine's way, whatever ASKUSER_INBOX names: the
	// default address, which Where gives without an error.
	sock, _ := inbox.Where{RuntimeDir: env.get(varRuntimeDir), TempDir: env.get(varTempDir)}.Addr()
	here := ": askers here ask there"
	unix, tcp, nats := sock.String()+here, "not in use (askuser inbox --listen ADDR)", "not in use (ASKUSER_INBOX=nats://HOST:PORT/NAME)"
	if sock != a {
		unix = sock.String() + ": " + socketState(ctx, sock)
	}
	switch a.(type) {
	case inbox.SocketAddr:
	case inbox.TCPAddr:
		tcp = a.String() + here
	default:
		nats = a.String() + here
	}
	fmt.Fprintf(b, "  Unix socket  %s\n  TCP          %s\n  NATS         %s\n", unix, tcp, nats)
	return true
}

// probe asks whether an inbox answers at a, waiting doctorWait at most:
// a transport may take longer to give up (NATS's connect), and is left to
// it.
func probe(ctx context.Context, a inbox.Addr) (inbox.Status, error) {
	ctx, cancel := context.WithTimeout(ctx, doctorWait)
	defer cancel()
	var st inbox.Status
	done := make(chan error, 1)
	go func() {
		var err error
		st, err = a.Dial().Probe(ctx)
		done <- err
	}()
	select {
	case err := <-done:
		return st, err
	case <-ctx.Done():
		return inbox.Status{}, fmt.Errorf("nothing answers at %s within %s", a, doctorWait)
	}
}

// socketState says what is at the socket a: an inbox that answers,
// nothing, or a socket left behind.
func socketState(ctx context.Context, a inbox.Addr) string {
	if _, err := os.Lstat(a.String()); errors.Is(err, os.ErrNotExist) {
		return "no inbox runs there"
	}
	st, err := probe(ctx, a)
	if err != nil {
		return prompt.Capitalize(err.Error())
	}
	return fmt.Sprintf("an inbox answers, with %s waiting", sets(st.Waiting))
}

// sets returns "no set", "1 set", "2 sets".
func sets(n int) string {
	switch n {
	case 0:
		return "no set"
	case 1:
		return "1 set"
	}
	return fmt.Sprintf("%d sets", n)
}

// doctorSettings writes the variables of the table that are set, and
// checks each as the commands read it, with the error of each value they
// would refuse, as they would report it (ASKUSER_INBOX is checked with
// the inbox); it reports whether all are valid.
func doctorSettings(env *Env, b *strings.Builder) bool {
	b.WriteString("\nEnvironment (askuser help environment)\n")
	before := b.Len()
	writeSetVariables(env, b)
	if b.Len() == before {
		b.WriteString("  None of the variables askuser reads is set.\n")
	}
	ok := true
	for _, err := range []error{
		errOf(envSetting(env, settingUI.variable).ui(settingUI.uis[askingCommands], "")),
		errOf(envSetting(env, settingTimeout.variable).duration()),
		errOf(envSetting(env, settingArrays.variable).boolean()),
		errOf(envSetting(env, settingNotifyAfter.variable).duration()),
		errOf(envSetting(env, settingRemind.variable).duration()),
		errOf(envSetting(env, varNotifyPrivate).boolean()),
		errOf(replyURL(env)),
		errOf(chatSettings(env)),
		errOf(historyKeep(env)),
		errOf(accessible(env)),
		errOf(env.limits()),
		errOf(presetAnswers(env)),
	} {
		if err != nil {
			fmt.Fprintf(b, "  ✖ %s\n", prompt.Capitalize(err.Error()))
			ok = false
		}
	}
	return ok
}

// errOf returns the error of a call that returns a value and an error.
func errOf[T any](_ T, err error) error { return err }

// writeSetVariables writes the variables of the table that are set in env,
// a line each, with their values ("ASKUSER_UI=inbox"), in the table's
// order, an older name after its variable. The value of one that may hold
// a secret is not shown.
func writeSetVariables(env *Env, b *strings.Builder) {
	show := func(name, value string, secret bool) {
		switch {
		case value == "":
		case secret:
			fmt.Fprintf(b, "  %s is set (its value may hold a secret: not shown)\n", name)
		default:
			fmt.Fprintf(b, "  %s=%s\n", name, prompt.Display(value))
		}
	}
	for _, v := range variables {
		show(v.name, env.get(v), v.secret)
		show(v.alias, env.getAlias(v), v.secret)
	}
}
