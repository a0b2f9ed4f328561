//go:build heavy

package agents

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// approveCommand is the Bash call that no rule allows: it leaves a file
// behind when it runs, and says so.
const approveCommand = "touch approved.txt && echo the command ran"

// claude -p, set up as README says, asks the person in the inbox whether
// the scripted model's Bash call may run, by either of Claude Code's ways:
// askuser mcp's approve named as the permission prompt tool, or askuser
// approve as the PermissionRequest hook. Allow runs the call and the model
// gets its output; Deny with a note keeps it from running, and the model
// reads that the person denied it, and why. Each run, in a home and with
// an inbox of its own, waits on Claude Code beside the suite's others.
func TestClaudeApproves(t *testing.T) {
	for _, way := range []string{"claude-approve", "claude-hook"} {
		t.Run(way+"/Allow", func(t *testing.T) {
			t.Parallel()
			o := runApproval(t, way, "1")
			if o.result != "the command ran" || o.isError || !o.ran {
				t.Errorf("the model got (error %v, the command ran: %v):\n%s\n\n%s", o.isError, o.ran, o.result, o.describe())
			}
		})
		t.Run(way+"/Deny", func(t *testing.T) {
			t.Parallel()
			o := runApproval(t, way, "n", "not on a Friday\r", "2")
			const want = "The person denied this call of Bash, and said why: not on a Friday"
			if o.result != want || !o.isError || o.ran {
				t.Errorf("the model got (error %v, the command ran: %v):\n%s\nwant %q\n\n%s", o.isError, o.ran, o.result, want, o.describe())
			}
		})
	}
}

// approval is what one run of TestClaudeApproves showed.
type approval struct {
	outcome
	ran bool // the command left its file
}

// runApproval runs claude -p set up as README's snippet way says (and
// askuser mcp added), with a scripted model that calls Bash, and has the
// person answer the approval in the inbox with keys.
func runApproval(t *testing.T, way string, keys ...string) approval {
	t.Helper()
	r := newRun(t, readmeMode, mcpPath)
	mk := newMock(t, toolCall{Name: "Bash", Args: map[string]any{"command": approveCommand, "description": "Leave a file"}}, anthropicAPI)
	r.api = mk.URL()
	in := startInbox(t, baseEnv(t.TempDir()))
	r.env = append(baseEnv(r.home), "ASKUSER_INBOX="+in.addr)
	claude.setup(t, r) // the API's address, and askuser mcp added
	script := snippet(t, way)
	if way == "claude-hook" {
		writeFile(t, filepath.Join(r.home, ".claude", "settings.json"), script)
		script = `claude -p "$0"`
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-ec", script, prompt)
	cmd.Dir, cmd.Env = r.dir, r.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatalf("start claude: %v", err)
	}
	ended := make(chan struct{})
	go func() { cmd.Wait(); close(ended) }()
	o := approval{outcome: outcome{mock: mk, addr: in.addr}}
	o.asked = in.approve(mk, ended, keys)
	<-ended
	o.output = out.String()
	o.result, o.isError, o.got = mk.Result()
	o.result = strings.TrimSpace(o.result)
	_, err := os.Stat(filepath.Join(r.dir, "approved.txt"))
	o.ran = err == nil
	if !o.asked {
		t.Fatalf("the approval never showed in the inbox\n%s", o.describe())
	}
	return o
}

// approve waits for the scripted Bash call, then for its approval on the
// inbox's screen, with the command, and answers it with keys. It reports
// false when the CLI ended first.
func (p *person) approve(m *mock, ended <-chan struct{}, keys []string) bool {
	p.t.Helper()
	for m.Sent().IsZero() {
		select {
		case <-ended:
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
	shows := func(screen string) bool {
		return strings.Contains(screen, "asks to use Bash:") && strings.Contains(screen, approveCommand)
	}
	p.tm.ExpectScreenFunc("the approval, or the CLI's end", func(screen string) bool {
		select {
		case <-ended:
			return true
		default:
			return shows(screen)
		}
	})
	if !shows(p.tm.Screen()) {
		p.t.Logf("the inbox's screen:\n%s", p.tm.Screen())
		return false
	}
	p.tm.ExpectScreenFunc("keys no longer paused", func(s string) bool { return !strings.Contains(s, "⏸") })
	for _, k := range keys {
		p.tm.Send(k)
	}
	p.tm.ExpectScreen("✔")
	return true
}

// hooked is a CLI's interactive session with askuser approve as its
// approval hook, as README's snippet sets it up.
type hooked struct {
	c cli
	// tool is the CLI's shell tool, as its hook names it.
	tool string
	// setup sets the run up, with the hook, and returns the command line;
	// call is the scripted call, changed as the CLI needs to ask about it.
	setup func(t *testing.T, r *runCtx, args []string) []string
	call  func(toolCall) toolCall
	// own is the CLI's own approval, and the keys that allow the call;
	// first, a dialog that shows before it, when the CLI has one (its
	// folder trust).
	own, first keys
}

// hookedCLIs are the CLIs whose approvals askuser approve answers as
// their hook, besides Claude Code (TestClaudeApproves).
var hookedCLIs = []hooked{
	{c: codex, tool: "Bash", own: keys{shows: "Would you like to run the following command?", send: []string{"1"}},
		// The command asks to run outside the sandbox, which Codex asks
		// the person about.
		call: func(c toolCall) toolCall {
			c.Args["sandbox_permissions"], c.Args["justification"] = "require_escalated", "Leave a file"
			return c
		},
		setup: func(t *testing.T, r *runCtx, args []string) []string {
			codexHome := filepath.Join(r.home, ".codex")
			config, err := os.ReadFile(filepath.Join(codexHome, "config.toml"))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(codexHome, "config.toml"), "approval_policy = \"on-request\"\n"+string(config))
			writeFile(t, filepath.Join(codexHome, "hooks.json"), snippet(t, "codex-hook"))
			// The person trusted the hook once, in /hooks.
			return append(args[:1], append([]string{"--dangerously-bypass-hook-trust"}, args[1:]...)...)
		}},
	{c: qwen, tool: "run_shell_command", own: keys{shows: "Allow execution of", send: []string{"1"}},
		setup: func(t *testing.T, r *runCtx, args []string) []string {
			name := filepath.Join(r.home, ".qwen", "settings.json")
			var settings map[string]any
			b, err := os.ReadFile(name)
			if err != nil || json.Unmarshal(b, &settings) != nil {
				t.Fatalf("%s: %v", name, err)
			}
			settings["hooks"] = snippetJSON(t, "qwen-hook")["hooks"]
			b, _ = json.Marshal(settings)
			writeFile(t, name, string(b))
			// Every command asks, rather than Qwen Code's own classifier
			// deciding.
			return append(args, "--approval-mode", "default")
		}},
	{c: copilot, tool: "bash",
		setup: func(t *testing.T, r *runCtx, args []string) []string {
			writeFile(t, filepath.Join(r.dir, ".github", "hooks", "askuser.json"), snippet(t, "copilot-hook"))
			return args
		},
		first: keys{shows: "Do you trust the files in this folder?", send: []string{"1"}},
		own:   keys{shows: "Do you want to run this command?", send: []string{"1"}}},
}

// The interactive sessions of Codex, Qwen Code and Copilot CLI, with
// askuser approve as their approval hook as README sets it up (Codex's
// trusted as the person trusts it, in /hooks): the command's approval is
// asked in the inbox; Allow runs it, and the model gets its output; Deny
// with a note stops it, and the model reads why. With no inbox, the CLI
// asks in its own dialog, where the person allows it.
func TestHookApprovals(t *testing.T) {
	for _, h := range hookedCLIs {
		for _, tc := range []struct {
			name  string
			inbox bool
			keys  []string
			want  string // in the tool result the model gets
			ran   bool
		}{
			{"Allow", true, []string{"1"}, "the command ran", true},
			{"Deny", true, []string{"n", "not on a Friday", "Enter", "2"}, "not on a Friday", false},
			{"no_inbox", false, nil, "the command ran", true},
		} {
			t.Run(strings.ReplaceAll(h.c.name, " ", "_")+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				r := newRun(t, interactiveMode, shellPath)
				call := h.c.shellCall(approveCommand)
				if h.call != nil {
					call = h.call(call)
				}
				mk := newMock(t, call, h.c.api)
				r.api = mk.URL()
				r.env = append(interactiveEnv(r.home), "ASKUSER_INBOX="+filepath.Join(t.TempDir(), "inbox.sock"))
				args := h.c.setup(t, r)
				args[0] = filepath.Join(binDir, args[0])
				args = h.setup(t, r, args)
				s := &sideBySide{t: t, x: newTmux(t, r), mk: mk, run: r}
				if tc.inbox {
					s.startInbox()
				}
				s.x.start("cli", r.dir, args...)
				s.until("the approval", 3*time.Minute, func(cli, inbox string) bool {
					if h.first.shows != "" && strings.Contains(cli, h.first.shows) {
						s.x.send("cli", h.first.send...)
					}
					if !tc.inbox {
						return strings.Contains(cli, h.own.shows)
					}
					return shows(inbox, "asks to use "+h.tool+":\n"+approveCommand)
				})
				if tc.inbox {
					s.x.send("inbox", tc.keys...)
				} else {
					s.allowOwn(h.own)
				}
				got := s.result(1)
				_, err := os.Stat(filepath.Join(r.dir, "approved.txt"))
				if !strings.Contains(got.text, tc.want) || (err == nil) != tc.ran {
					t.Errorf("the model got (the command ran: %v):\n%s\nwant it to say %q", err == nil, got.text, tc.want)
				}
			})
		}
	}
}

// allowOwn allows the call in the CLI's own dialog: a CLI on a loaded
// machine may draw its dialog before it takes keys, and a person whose key
// did nothing presses it again.
func (s *sideBySide) allowOwn(own keys) {
	s.t.Helper()
	sent := time.Now()
	s.x.send("cli", own.send...)
	s.until("the result of call 1", time.Minute, func(cli, _ string) bool {
		if len(s.mk.Results()) > 0 {
			return true
		}
		if strings.Contains(cli, own.shows) && time.Since(sent) > 2*time.Second {
			s.x.send("cli", own.send...)
			sent = time.Now()
		}
		return false
	})
}
