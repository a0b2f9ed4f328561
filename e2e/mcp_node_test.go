package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// nodeDir holds the second MCP client: the reference TypeScript SDK's, at
// the version its package-lock.json pins.
const nodeDir = "mcp-node"

// formQuestions are every kind of question, for a client to answer in its
// own form: a choice, several choices, text, and the person's own answer.
const formQuestions = `{"questions":[
  {"question":"Which database should we use?","header":"Database","multiSelect":false,
   "options":[{"label":"PostgreSQL (Recommended)","description":"Relational","preview":"CREATE TABLE t ();"},{"label":"SQLite","description":"Embedded"}]},
  {"question":"Which features?","header":"Features","multiSelect":true,
   "options":[{"label":"Login","description":"Sign-in"},{"label":"Search","description":"Full text"},{"label":"Export","description":"As JSON"}]},
  {"question":"What should it be called?","header":"Name","type":"text","placeholder":"UserCard"},
  {"question":"Where should it run?","header":"Region","multiSelect":false,
   "options":[{"label":"Europe","description":"Frankfurt"},{"label":"America","description":"Virginia"}]}]}`

// TestMCPNodeClient meets askuser mcp with an MCP client that shares no code
// with it: the reference TypeScript SDK's, run by Node. It lists the tools,
// has a form filled in (a choice, several, text and the person's own
// answer), and has one declined. The SDK is installed from the lock file
// with npm ci when node_modules is missing, except under -short.
func TestMCPNodeClient(t *testing.T) {
	// The test's own files, so that go test reruns it when they change.
	for _, f := range []string{"client.mjs", "schema-check.mjs", "package.json", "package-lock.json"} {
		if _, err := os.ReadFile(filepath.Join(nodeDir, f)); err != nil {
			t.Fatal(err)
		}
	}
	node := nodeSDK(t, nodeDir, !testing.Short())

	questions := filepath.Join(t.TempDir(), "questions.json")
	if err := os.WriteFile(questions, []byte(formQuestions), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runNodeClient(t, node, askuserPath(t), questions, mcpEnv())
	type result struct {
		Content []struct {
			Type, Text string
		}
		StructuredContent any
		IsError           bool
	}
	var got struct {
		Server struct{ Name string }
		Tools  []struct {
			Name, Title, Description string
			InputSchema              any
		}
		Answered, Declined result
		Forms              []struct {
			Message         string
			RequestedSchema struct {
				Properties map[string]map[string]any
				Required   []string
			}
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the client's report: %v\n%s", err, out)
	}

	if got.Server.Name != "askuser" {
		t.Errorf("server %q, want askuser", got.Server.Name)
	}
	def, _ := runAskuser(t, nil, "tool", "--format", "mcp")
	var want struct {
		Name, Title, Description string
		InputSchema              any
	}
	if err := json.Unmarshal([]byte(def), &want); err != nil {
		t.Fatal(err)
	}
	// Beside it, approve, for Claude Code's permission prompts.
	if len(got.Tools) != 2 || got.Tools[0].Name != "approve" || !reflect.DeepEqual(got.Tools[1], want) {
		t.Errorf("the TypeScript client lists %+v, want approve and askuser tool --format mcp's tool", got.Tools)
	}

	const answers = `{"answers":{"Database":"SQLite","Features":"Login, Export","Name":"OrderList","Region":"Mars"}}`
	a := got.Answered
	if a.IsError || len(a.Content) != 1 || a.Content[0].Type != "text" || a.Content[0].Text != answers {
		t.Errorf("answered call: %+v, want the text %s", a, answers)
	}
	var wantStructured any
	_ = json.Unmarshal([]byte(answers), &wantStructured)
	if !reflect.DeepEqual(a.StructuredContent, wantStructured) {
		t.Errorf("structured content %v, want %s", a.StructuredContent, answers)
	}
	d := got.Declined
	if !d.IsError || len(d.Content) != 1 || !strings.HasPrefix(d.Content[0].Text, "Error: The person declined to answer. Do not ask again at once") {
		t.Errorf("declined call: %+v", d)
	}

	if len(got.Forms) != 2 {
		t.Fatalf("the client was shown %d forms, want 2", len(got.Forms))
	}
	p := got.Forms[0].RequestedSchema.Properties
	for name, typ := range map[string]string{"q1_pick": "string", "q1_other": "string", "q2_pick": "array", "q2_other": "string", "q3_text": "string", "q4_pick": "string", "q4_other": "string"} {
		if p[name]["type"] != typ {
			t.Errorf("field %s: %v, want type %s", name, p[name], typ)
		}
	}
	if p["q1_pick"]["oneOf"] == nil || p["q2_pick"]["items"] == nil {
		t.Errorf("choices lost on the way to the client: %v", p)
	}
	if !reflect.DeepEqual(got.Forms[0].RequestedSchema.Required, []string{"q3_text"}) {
		t.Errorf("required %v, want [q3]", got.Forms[0].RequestedSchema.Required)
	}
}

// Every tool definition's schema is one that clients keep intact and
// compile without a word: Ajv in strict mode (Gemini CLI's validator)
// logs no warning, and every pattern compiles as a JavaScript RegExp, with
// the u flag and without, before and after Claude Code's normalisation of
// Unicode spaces and invisible characters.
func TestToolSchemaKeptByClients(t *testing.T) {
	node := nodeSDK(t, nodeDir, !testing.Short())
	for _, format := range toolFormatsForTest {
		for _, env := range [][]string{nil, {"ASK_MAX_OPTIONS=6", "ASK_HEADER_MAX_LENGTH=20"}} {
			def, stderr := runAskuser(t, env, "tool", "--format", format)
			file := filepath.Join(t.TempDir(), "tool.json")
			if err := os.WriteFile(file, []byte(def), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(node, "schema-check.mjs", file)
			cmd.Dir = nodeDir
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node schema-check.mjs: %v\n%s%s", err, out, stderr)
			}
			var got struct {
				Warnings, Errors []string
				Patterns         []struct {
					Pattern  string
					Survives bool
					Compiles []string
				}
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("schema-check.mjs: %v\n%s", err, out)
			}
			for _, w := range append(got.Warnings, got.Errors...) {
				t.Errorf("%s %v: Ajv: %s", format, env, w)
			}
			if len(got.Patterns) == 0 {
				t.Errorf("%s %v: no pattern advertised: the model is not told that a text must not be blank", format, env)
			}
			for _, p := range got.Patterns {
				if !p.Survives || len(p.Compiles) > 0 {
					t.Errorf("%s %v: pattern %q: survives normalisation %v; %v", format, env, p.Pattern, p.Survives, p.Compiles)
				}
			}
		}
	}
}

// toolFormatsForTest are the formats of askuser tool.
var toolFormatsForTest = []string{"anthropic", "openai", "openai-responses", "mcp"}

// nodeSDK returns node, and has the TypeScript MCP SDK and Ajv installed in dir:
// with npm ci from the lock file when it is missing and installing is set.
// The test is skipped without node or npm, and, when installing is not set,
// without the SDK.
func nodeSDK(t testing.TB, dir string, installing bool) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the test against the TypeScript MCP client needs Node.js 18 or later and npm")
	}
	_, errSDK := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	_, errAjv := os.Stat(filepath.Join(dir, "node_modules", "ajv", "package.json"))
	if errSDK == nil && errAjv == nil {
		return node
	}
	if !installing {
		t.Skip("the TypeScript MCP SDK is not installed, and -short installs nothing: the test against it is skipped")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the test against the TypeScript MCP client installs its SDK with npm ci")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
	install.Dir = dir
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
	return node
}

// runNodeClient runs the client against the MCP server that command starts
// (command mcp), with the questions in the file questions and env, and
// returns its report.
func runNodeClient(t *testing.T, node, command, questions string, env []string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs", command, questions)
	cmd.Dir = nodeDir
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client.mjs: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	return out
}
