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
// reads that the person denied it, and why.
func TestClaudeApproves(t *testing.T) {
	for _, way := range []string{"claude-approve", "claude-hook"} {
		t.Run(way+"/Allow", func(t *testing.T) {
			o := runApproval(t, way, "1")
			if o.result != "the command ran" || o.isError || !o.ran {
				t.Errorf("the model got (error %v, the command ran: %v):\n%s\n\n%s", o.isError, o.ran, o.result, o.describe())
			}
		})
		t.Run(way+"/Deny", func(t *testing.T) {
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

// Codex's interactive session, asking before commands that are not
// trusted, with askuser approve as its PermissionRequest hook (README's
// hooks.json, trusted as the person trusts it in /hooks): the approval is
// asked in the inbox, and Allow runs the command, whose output the model
// gets; Deny with a note stops it, and the model reads why.
func TestCodexApproves(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string
		want string // in the tool result the model gets
		ran  bool
	}{
		{"Allow", []string{"1"}, "the command ran", true},
		{"Deny", []string{"n", "not on a Friday", "Enter", "2"}, "not on a Friday", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRun(t, interactiveMode, shellPath)
			// The command asks to run outside the sandbox, which Codex
			// asks the person about.
			call := codex.shellCall(approveCommand)
			call.Args["sandbox_permissions"] = "require_escalated"
			call.Args["justification"] = "Leave a file"
			mk := newMock(t, call, codex.api)
			r.api = mk.URL()
			addr := filepath.Join(t.TempDir(), "inbox.sock")
			r.env = append(interactiveEnv(r.home), "ASKUSER_INBOX="+addr)
			args := codex.setup(t, r)
			args[0] = filepath.Join(binDir, args[0])
			codexHome := filepath.Join(r.home, ".codex")
			config, err := os.ReadFile(filepath.Join(codexHome, "config.toml"))
			if err != nil {
				t.Fatal(err)
			}
			// Codex asks before a command that leaves the sandbox.
			writeFile(t, filepath.Join(codexHome, "config.toml"), "approval_policy = \"on-request\"\n"+string(config))
			writeFile(t, filepath.Join(codexHome, "hooks.json"), snippet(t, "codex-hook"))
			// The person trusted the hook once, in /hooks.
			args = append(args[:1], append([]string{"--dangerously-bypass-hook-trust"}, args[1:]...)...)
			s := &sideBySide{t: t, x: newTmux(t, r), mk: mk, run: r}
			s.startInbox()
			s.x.start("cli", r.dir, args...)
			s.until("the approval in the inbox", 3*time.Minute, func(_, inbox string) bool {
				return shows(inbox, "asks to use Bash:\n"+approveCommand)
			})
			s.x.send("inbox", tc.keys...)
			got := s.result(1)
			_, err = os.Stat(filepath.Join(r.dir, "approved.txt"))
			if !strings.Contains(got.text, tc.want) || (err == nil) != tc.ran {
				t.Errorf("the model got (the command ran: %v):\n%s\nwant it to say %q", err == nil, got.text, tc.want)
			}
		})
	}
}

// Copilot CLI's interactive session, with askuser approve as its
// permissionRequest hook (README's, in the project's .github/hooks): the
// command's approval is asked in the inbox, Allow runs it, and Deny with
// the person's own words stops it, the model reading them; with no inbox,
// Copilot CLI asks in its own dialog.
func TestCopilotApproves(t *testing.T) {
	for _, tc := range []struct {
		name  string
		inbox bool
		keys  []string
		want  string // in the tool result the model gets
		ran   bool
	}{
		{"Allow", true, []string{"1"}, "the command ran", true},
		{"Deny", true, []string{"0", "not on a Friday", "Enter"}, "not on a Friday", false},
		{"no inbox", false, nil, "the command ran", true},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			r := newRun(t, interactiveMode, shellPath)
			mk := newMock(t, copilot.shellCall(approveCommand), copilot.api)
			r.api = mk.URL()
			r.env = append(interactiveEnv(r.home), "ASKUSER_INBOX="+filepath.Join(t.TempDir(), "inbox.sock"))
			args := copilot.setup(t, r)
			args[0] = filepath.Join(binDir, args[0])
			writeFile(t, filepath.Join(r.dir, ".github", "hooks", "askuser.json"), snippet(t, "copilot-hook"))
			s := &sideBySide{t: t, x: newTmux(t, r), mk: mk, run: r}
			if tc.inbox {
				s.startInbox()
			}
			s.x.start("cli", r.dir, args...)
			s.until("the approval", 3*time.Minute, func(cli, inbox string) bool {
				if strings.Contains(cli, "Do you trust the files in this folder?") {
					s.x.send("cli", "1")
				}
				if !tc.inbox {
					return strings.Contains(cli, "Do you want to run this command?")
				}
				return shows(inbox, "asks to use bash:\n"+approveCommand)
			})
			if tc.inbox {
				s.x.send("inbox", tc.keys...)
			} else {
				s.x.send("cli", "1")
			}
			got := s.result(1)
			_, err := os.Stat(filepath.Join(r.dir, "approved.txt"))
			if !strings.Contains(got.text, tc.want) || (err == nil) != tc.ran {
				t.Errorf("the model got (the command ran: %v):\n%s\nwant it to say %q", err == nil, got.text, tc.want)
			}
		})
	}
}

// Qwen Code's interactive session, asking before each command, with
// askuser approve as its PermissionRequest hook (README's): the command's
// approval is asked in the inbox, Allow runs it, Deny with a note stops
// it, the model reading why.
func TestQwenApproves(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string
		want string // in the tool result the model gets
		ran  bool
	}{
		{"Allow", []string{"1"}, "the command ran", true},
		{"Deny", []string{"n", "not on a Friday", "Enter", "2"}, "not on a Friday", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRun(t, interactiveMode, mcpPath)
			mk := newMock(t, qwen.shellCall(approveCommand), qwen.api)
			r.api = mk.URL()
			r.env = append(interactiveEnv(r.home), "ASKUSER_INBOX="+filepath.Join(t.TempDir(), "inbox.sock"))
			args := qwen.setup(t, r)
			args[0] = filepath.Join(binDir, args[0])
			// Every command asks, rather than Qwen Code's own classifier
			// deciding.
			args = append(args, "--approval-mode", "default")
			name := filepath.Join(r.home, ".qwen", "settings.json")
			var settings map[string]any
			b, err := os.ReadFile(name)
			if err != nil || json.Unmarshal(b, &settings) != nil {
				t.Fatalf("%s: %v", name, err)
			}
			settings["hooks"] = snippetJSON(t, "qwen-hook")["hooks"]
			b, _ = json.Marshal(settings)
			writeFile(t, name, string(b))
			s := &sideBySide{t: t, x: newTmux(t, r), mk: mk, run: r}
			s.startInbox()
			s.x.start("cli", r.dir, args...)
			s.until("the approval in the inbox", 3*time.Minute, func(_, inbox string) bool {
				return shows(inbox, "asks to use run_shell_command:\n"+approveCommand)
			})
			s.x.send("inbox", tc.keys...)
			got := s.result(1)
			_, err = os.Stat(filepath.Join(r.dir, "approved.txt"))
			if !strings.Contains(got.text, tc.want) || (err == nil) != tc.ran {
				t.Errorf("the model got (the command ran: %v):\n%s\nwant it to say %q", err == nil, got.text, tc.want)
			}
		})
	}
}
