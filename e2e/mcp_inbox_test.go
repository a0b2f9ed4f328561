package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/internal/testutil"
)

// The tests of askuser mcp asking in the inbox: the built askuser mcp,
// talked to by the SDK's client over stdio, and a running askuser inbox
// whose line screen the test reads and types into, as the person would.

// The questions of these tests, besides oneQuestion and twoQuestions.
const (
	colourQuestion = `{"questions":[{"question":"Which colour?","header":"Colour","multiSelect":false,
	  "options":[{"label":"Red","description":"Warm"},{"label":"Blue","description":"Cool"}]}]}`
	nameQuestion = `{"questions":[{"question":"What should it be called?","header":"Name","type":"text"}]}`
)

// The tool error of a call whose questions the person cancelled.
const cancelledText = "Error: Cancelled: the person closed the questions without answering. Do not ask again at once: carry on with what you know, or stop and say what you need."

// inboxClient is a client named name, without forms, whose askuser mcp
// asks in the inbox in: it runs in ~/project, for a home of its own.
func inboxClient(t *testing.T, in *inboxProcess, name string) mcpClient {
	t.Helper()
	home := t.TempDir()
	dir := filepath.Join(home, "project")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return mcpClient{name: name, dir: dir, env: []string{"ASKUSER_INBOX=" + string(in.addr), "HOME=" + home, "NO_COLOR=1"}}
}

// type_ types a line into the inbox, as the person does.
func (in *inboxProcess) type_(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(in.stdin, line+"\n"); err != nil {
		t.Fatalf("type %q into the inbox: %v", line, err)
	}
}

// A client without forms is asked in the inbox that runs: the inbox shows
// which client asked, from which directory, and the answers typed there
// come back exactly, as text and as structured content. The client's log
// and stderr say where the questions wait.
func TestMCPInboxAnswers(t *testing.T) {
	in := startInbox(t)
	r := startMCP(t, inboxClient(t, in, "claude-code"))
	call := r.start(t, context.Background(), twoQuestions)
	in.screen.waitFor(t, "From claude-code via MCP in ~/project · waiting ", 10*time.Second)
	in.screen.waitFor(t, "Which database should we use?", 10*time.Second)
	in.type_(t, "0")
	in.type_(t, "Edge cache")
	in.screen.waitFor(t, "Which features should the first release have?", 10*time.Second)
	in.type_(t, "1,3")
	res, err := wait(t, call)
	answered(t, res, err, `{"answers":{"Database":"Edge cache","Features":"Login, Export"}}`)
	in.screen.waitFor(t, "✔ Sent to claude-code via MCP in ~/project.\n", 10*time.Second)

	where := "Waiting for an answer in the inbox (askuser inbox) at " + string(in.addr)
	select {
	case msg := <-r.logs:
		if msg != where+"." {
			t.Errorf("the client's log says %q, want %q", msg, where+".")
		}
	default:
		t.Error("the client's log does not say where the questions wait")
	}
	if !r.printed(regexp.MustCompile(regexp.QuoteMeta(where + "…\n"))) {
		t.Errorf("stderr does not say where the questions wait:\n%s", r.stderr)
	}

	// --from and ASKUSER_FROM name the asker instead; --key keys the
	// answers given in the inbox as for any call.
	for _, tc := range []struct {
		name, shown string // shown: how the inbox names the asker
		env         []string
		args        []string
		want        string
	}{
		{"--from", "From docs-agent · waiting ", nil, []string{"--from", "docs-agent", "--key", "question"}, `{"answers":{"What should it be called?":"OrderList"}}`},
		{"ASKUSER_FROM", "From api-agent · waiting ", []string{"ASKUSER_FROM=api-agent"}, nil, `{"answers":{"Name":"OrderList"}}`},
		// A name longer than the inbox takes is cut to fit, not refused;
		// the screen shows as much of it as fits.
		{"long ASKUSER_FROM", "From " + strings.Repeat("a", 40), []string{"ASKUSER_FROM=" + strings.Repeat("a", 250)}, nil, `{"answers":{"Name":"OrderList"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := inboxClient(t, in, "claude-code")
			c.env = append(c.env, tc.env...)
			r := startMCP(t, c, tc.args...)
			call := r.start(t, context.Background(), nameQuestion)
			in.screen.waitFor(t, tc.shown, 10*time.Second)
			in.type_(t, "OrderList")
			res, err := wait(t, call)
			answered(t, res, err, tc.want)
		})
	}
}

// In auto order, a client that shows forms is asked in them and, while an
// inbox runs, in the inbox beside them, where an answer in the form
// withdraws the set; one without forms is asked in the inbox when one runs, and
// on the web page when none does. --ui inbox and ASKUSER_UI=inbox ask in
// the inbox even a client with forms; ASKUSER_UI=tui counts as auto.
func TestMCPInboxInAutoOrder(t *testing.T) {
	in := startInbox(t)
	sqlite := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1_pick": "SQLite"}}, nil
	}
	t.Run("forms answered first", func(t *testing.T) {
		for _, v := range elicitVersions {
			for _, ui := range []string{"", "tui"} {
				c := inboxClient(t, in, "vscode")
				c.version, c.elicit = v.version, sqlite
				c.env = append(c.env, "ASKUSER_UI="+ui)
				r := startMCP(t, c)
				res, err := r.call(t, context.Background(), oneQuestion)
				answered(t, res, err, `{"answers":{"Database":"SQLite"}}`)
			}
		}
		// The question waited in the inbox beside the form, where the
		// client's version lets askuser end the form: answered in the
		// form, it was withdrawn from the inbox, and nothing waits there.
		// A set may be withdrawn before the inbox shows it: what counts
		// is that one came, and left.
		in.screen.waitFor(t, "The questions from vscode via MCP in ~/project were withdrawn (answered in the MCP client's form).", testutil.Slow)
		in.waitWaiting(t, 0, testutil.Slow)
	})

	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{"--ui inbox", nil, []string{"--ui", "inbox"}},
		{"ASKUSER_UI=inbox", []string{"ASKUSER_UI=inbox"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := inboxClient(t, in, tc.name)
			c.env = append(c.env, tc.env...)
			c.elicit = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				t.Error("asked in the client's form, not in the inbox")
				return &mcp.ElicitResult{Action: "cancel"}, nil
			}
			r := startMCP(t, c, tc.args...)
			call := r.start(t, context.Background(), oneQuestion)
			in.screen.waitFor(t, "From "+tc.name+" via MCP in ~/project · waiting ", 10*time.Second)
			in.type_(t, "1")
			res, err := wait(t, call)
			answered(t, res, err, `{"answers":{"Database":"PostgreSQL (Recommended)"}}`)
		})
	}

	t.Run("inbox, else the web page", func(t *testing.T) {
		in := startInbox(t)
		r := startMCP(t, inboxClient(t, in, "claude-desktop"))
		call := r.start(t, context.Background(), oneQuestion)
		in.screen.waitFor(t, "From claude-desktop via MCP in ~/project · waiting ", 10*time.Second)
		in.type_(t, "2")
		res, err := wait(t, call)
		answered(t, res, err, `{"answers":{"Database":"SQLite"}}`)

		in.type_(t, "/quit")
		select {
		case <-in.done:
		case <-time.After(10 * time.Second):
			t.Fatalf("the inbox did not quit; it shows:\n%s", in.screen)
		}
		call = r.start(t, context.Background(), oneQuestion)
		page := r.page(t)
		wantCode(t, "answer", page.do(t, "POST", page.at(t, "/answer"), "q0=1", page.sameOrigin(t)), http.StatusOK)
		res, err = wait(t, call)
		answered(t, res, err, `{"answers":{"Database":"PostgreSQL (Recommended)"}}`)
	})
}

// --ui inbox with no inbox running asks nothing, and tells the model to
// have the person start one.
func TestMCPInboxNone(t *testing.T) {
	r := startMCP(t, mcpClient{}, "--ui", "inbox")
	res, err := r.call(t, context.Background(), oneQuestion)
	want := "Error: No inbox answers at " + os.Getenv("ASKUSER_INBOX") + ". Ask the person to run 'askuser inbox' in a terminal they keep in view, then ask again."
	if got := failed(t, res, err); got != want {
		t.Errorf("tool error %q, want %q", got, want)
	}
}

// A call that stops waiting withdraws its questions from the inbox: they
// leave its queue within a second, shown or not, and the screen says so of
// the one shown. The server goes on serving.
func TestMCPInboxWithdrawn(t *testing.T) {
	const withdrawn = "The questions from claude-code via MCP in ~/project were withdrawn ("
	t.Run("client cancels", func(t *testing.T) {
		in := startInbox(t)
		r := startMCP(t, inboxClient(t, in, "claude-code"))
		shownCtx, cancelShown := context.WithCancel(context.Background())
		shown := r.start(t, shownCtx, oneQuestion)
		in.screen.waitFor(t, "Which database should we use?", 10*time.Second)
		queuedCtx, cancelQueued := context.WithCancel(context.Background())
		queued := r.start(t, queuedCtx, colourQuestion)
		in.waitWaiting(t, 2, 10*time.Second)

		start := time.Now()
		cancelQueued()
		in.waitWaiting(t, 1, testutil.Slow)
		cancelShown()
		in.screen.waitFor(t, withdrawn, testutil.Slow)
		in.waitWaiting(t, 0, testutil.Slow)
		t.Logf("both withdrawn within %s", time.Since(start))
		for _, call := range []<-chan outcome{queued, shown} {
			if _, err := wait(t, call); !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled call: %v", err)
			}
		}

		call := r.start(t, context.Background(), colourQuestion)
		in.screen.waitFor(t, "Which colour?", 10*time.Second)
		in.type_(t, "2")
		res, err := wait(t, call)
		answered(t, res, err, `{"answers":{"Colour":"Blue"}}`)
	})

	t.Run("timeout", func(t *testing.T) {
		in := startInbox(t)
		r := startMCP(t, inboxClient(t, in, "claude-code"), "--timeout", "2s")
		call := r.start(t, context.Background(), oneQuestion)
		in.screen.waitFor(t, "Which database should we use?", 10*time.Second)
		res, err := wait(t, call)
		start := time.Now()
		if got, want := failed(t, res, err), "Error: Timed out after 2s: nobody answered in time. Do not ask again at once: carry on with what you know, or stop and say what you need."; got != want {
			t.Errorf("tool error %q, want %q", got, want)
		}
		in.screen.waitFor(t, withdrawn, testutil.Slow)
		in.waitWaiting(t, 0, testutil.Slow-time.Since(start))
	})

	t.Run("client goes away", func(t *testing.T) {
		// The client's end of stdin closes, as when it crashes: a client
		// session of the SDK's would wait for its calls before closing it.
		in := startInbox(t)
		c := inboxClient(t, in, "claude-code")
		cmd := exec.Command(askuserPath(t), "mcp")
		cmd.Env, cmd.Dir = mcpEnv(c.env...), c.dir
		stderr := &testutil.Buffer{}
		cmd.Stderr = stderr
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		p := startProcess(t, cmd, (*exec.Cmd).Start)
		call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
			"params": map[string]any{"name": "askuser", "arguments": json.RawMessage(oneQuestion)}})
		io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-code","version":"1"}}}`+"\n"+
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+string(call)+"\n")
		in.screen.waitFor(t, "Which database should we use?", 10*time.Second)
		stdin.Close()
		in.screen.waitFor(t, withdrawn, testutil.Slow)
		in.waitWaiting(t, 0, testutil.Slow)
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			t.Fatalf("askuser mcp still running 5s after its client went; stderr:\n%s", stderr)
		}
		if p.code() != 0 {
			t.Errorf("exit %d, want 0; stderr:\n%s", p.code(), stderr)
		}
	})

	t.Run("SIGTERM", func(t *testing.T) {
		in := startInbox(t)
		r := startMCP(t, inboxClient(t, in, "claude-code"))
		call := r.start(t, context.Background(), oneQuestion)
		in.screen.waitFor(t, "Which database should we use?", 10*time.Second)
		if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		in.screen.waitFor(t, withdrawn, testutil.Slow)
		in.waitWaiting(t, 0, testutil.Slow)
		res, err := wait(t, call)
		if got, want := failed(t, res, err), "Error: Askuser mcp stopped, and the questions were withdrawn."; got != want {
			t.Errorf("tool error %q, want %q", got, want)
		}
	})
}

// Cancelling the questions in the inbox, and the inbox quitting or dying
// while a call waits there, are tool errors that say so; the server goes
// on serving, through the next inbox that runs at the address.
func TestMCPInboxCancelAndQuit(t *testing.T) {
	in := startInbox(t)
	r := startMCP(t, inboxClient(t, in, "claude-code"))
	dont := " Do not ask again at once: carry on with what you know, or stop and say what you need."

	call := r.start(t, context.Background(), oneQuestion)
	in.screen.waitFor(t, "Which database should we use?", 10*time.Second)
	in.type_(t, "/cancel")
	res, err := wait(t, call)
	if got := failed(t, res, err); got != cancelledText {
		t.Errorf("cancelled in the inbox: %q, want %q", got, cancelledText)
	}
	in.screen.waitFor(t, "Cancelled the questions from claude-code via MCP in ~/project.\n", 10*time.Second)

	call = r.start(t, context.Background(), colourQuestion)
	in.screen.waitFor(t, "Which colour?", 10*time.Second)
	in.type_(t, "/quit")
	res, err = wait(t, call)
	want := "Error: The inbox at " + string(in.addr) + " closed before the questions were answered (the person quit the inbox)." + dont
	if got := failed(t, res, err); got != want {
		t.Errorf("the inbox quit: %q, want %q", got, want)
	}
	<-in.done

	in = startInboxAt(t, string(in.addr))
	call = r.start(t, context.Background(), colourQuestion)
	in.screen.waitFor(t, "Which colour?", 10*time.Second)
	in.type_(t, "red")
	res, err = wait(t, call)
	answered(t, res, err, `{"answers":{"Colour":"Red"}}`)

	call = r.start(t, context.Background(), colourQuestion)
	in.waitWaiting(t, 1, 10*time.Second)
	if err := in.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	res, err = wait(t, call)
	want = "Error: The inbox at " + string(in.addr) + " went away before the questions were answered." + dont
	if got := failed(t, res, err); got != want {
		t.Errorf("the inbox died: %q, want %q", got, want)
	}
}

// Calls at once, from one client and from another's server, wait in the
// inbox together, each saying where it came from, and each gets its own
// answers.
func TestMCPInboxCallsAtOnce(t *testing.T) {
	in := startInbox(t)
	claude := startMCP(t, inboxClient(t, in, "claude-code"))
	codex := startMCP(t, inboxClient(t, in, "codex"))
	colour := claude.start(t, context.Background(), colourQuestion)
	in.waitWaiting(t, 1, 10*time.Second)
	database := claude.start(t, context.Background(), oneQuestion)
	in.waitWaiting(t, 2, 10*time.Second)
	name := codex.start(t, context.Background(), nameQuestion)
	in.waitWaiting(t, 3, 10*time.Second)

	// The oldest is shown first; each answer goes to its own call.
	in.screen.waitFor(t, "Which colour?", 10*time.Second)
	in.type_(t, "2")
	in.screen.waitFor(t, "Which database should we use?", 10*time.Second)
	in.type_(t, "sqlite")
	in.screen.waitFor(t, "From codex via MCP in ~/project · waiting ", 10*time.Second)
	in.type_(t, "OrderList")
	res, err := wait(t, colour)
	answered(t, res, err, `{"answers":{"Colour":"Blue"}}`)
	res, err = wait(t, database)
	answered(t, res, err, `{"answers":{"Database":"SQLite"}}`)
	res, err = wait(t, name)
	answered(t, res, err, `{"answers":{"Name":"OrderList"}}`)
}

// A client that declares forms and declines or cancels them at once, as
// headless Claude Code and codex exec do, asked the person nothing: the
// call is asked in the inbox that runs, and stderr and the client's log
// say why.
func TestMCPInstantDeclineAsksInTheInbox(t *testing.T) {
	in := startInbox(t)
	for _, v := range elicitVersions {
		for _, action := range []string{"decline", "cancel"} {
			t.Run(v.name+" "+action, func(t *testing.T) {
				c := inboxClient(t, in, "claude-code")
				c.version = v.version
				c.elicit = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: action}, nil
				}
				r := startMCP(t, c)
				call := r.start(t, context.Background(), nameQuestion)
				// The question waits in the inbox beside the form from the
				// start; the person answers there once the form was passed
				// over, so that the form's end is the client's, not moot.
				why := regexp.MustCompile(`askuser mcp: The MCP client could not show the form: it ` + map[string]string{"decline": "declined", "cancel": "cancelled"}[action] + ` the form \d+ ms after it was sent, sooner than a person can read it\. Asking another way\.\n`)
				if !r.printed(why) {
					t.Errorf("stderr does not say why the form was passed over:\n%s", r.stderr)
				}
				in.screen.waitFor(t, "From claude-code via MCP in ~/project · waiting ", 10*time.Second)
				in.type_(t, "OrderList")
				res, err := wait(t, call)
				answered(t, res, err, `{"answers":{"Name":"OrderList"}}`)
			})
		}
	}
}
