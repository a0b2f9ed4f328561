package approve

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// noRuleText ends the description of Allow for a command that gets no
// rule for the session for its * or \ (see prefixRule), where the person
// would look for one: the option is not offered, and this says why.
const noRuleText = " It gets no rule for this session: Claude Code's rules read * and \\ in their own way, so that one would allow more than this command."

// sessionRules returns the rules that Allow for this session adds for the
// rest of the agent's session: never wider than what was asked, and none
// where no rule that narrow can be given (the option is then not
// offered), with why, to end Allow's description, when the person would
// look for one (noRuleText). Claude Code's PermissionRequest hook gives
// the rules its own dialog offers (permission_suggestions: Bash(go test *)
// for go test ./..., none for rm -rf build), each kept for the session; a
// rule for a whole tool other than an MCP server's is dropped. Its
// permission prompt tool gives none, and the rule is made as Claude Code
// words them (see prefixRule). OpenCode gives the patterns its own "Allow
// always" would allow, unless they are every call of the tool ("*"). The
// other dialects' decisions carry no rules.
func (r Request) sessionRules() (rules []rule, why string) {
	switch {
	case !r.Dialect.rules():
		return nil, ""
	case r.Dialect == OpenCodePermission:
		if len(r.always) == 0 || slices.Contains(r.always, "*") {
			return nil, ""
		}
		for _, p := range r.always {
			rules = append(rules, rule{ToolName: r.Tool, RuleContent: p})
		}
		return rules, ""
	case r.suggestions != nil:
		for _, u := range r.suggestions {
			if u.Type != "addRules" || u.Behavior != "allow" {
				continue
			}
			for _, ru := range u.Rules {
				if ru.RuleContent != "" || mcpTool(ru.ToolName) {
					rules = append(rules, ru)
				}
			}
		}
		return rules, ""
	case strings.ContainsAny(r.command(), "*\\"):
		return nil, noRuleText
	case prefixRule(r.command()) != "":
		return []rule{{ToolName: "Bash", RuleContent: prefixRule(r.command())}}, ""
	case mcpTool(r.Tool):
		// The tool of one server, which does one thing.
		return []rule{{ToolName: r.Tool}}, ""
	}
	return nil, ""
}

// mcpTool reports whether name is an MCP server's tool, as Claude Code
// names them.
func mcpTool(name string) bool { return strings.HasPrefix(name, "mcp__") }

// commandWord and subcommand are the words of a command that its rule may
// name: the program, and what it is asked to do (go test, npm run, git
// push), but not an argument (a file, a flag, a path).
var (
	commandWord = regexp.MustCompile(`^[A-Za-z0-9_.+-]+$`)
	subcommand  = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)
)

// prefixRule returns the content of a rule for the shell command cmd, as Claude
// Code 2.1.332 words the rule its dialog offers: the program and its
// subcommand, then anything ("go test *" for go test ./...), or the command
// itself when its second word is an argument ("make -j4 all"). A command of
// several (&&, |, ;, a substitution, a redirection) gets none: a rule for
// its first part would allow what the others do. Nor does a command with
// a character that Claude Code's rules do not read as itself: * is their
// wildcard (Bash(rm -rf /tmp/x*) would allow rm -rf /tmp/xyz/ and more),
// and \ escapes it in Claude Code's matcher, which its documentation does
// not promise, so that no escaped rule is sure to be read as written.
func prefixRule(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	if cmd == "" || strings.ContainsAny(cmd, ";&|<>`$()\n*\\") {
		return ""
	}
	words := strings.Fields(cmd)
	if !commandWord.MatchString(words[0]) {
		return ""
	}
	if len(words) > 1 && subcommand.MatchString(words[1]) {
		return words[0] + " " + words[1] + " *"
	}
	return strings.Join(words, " ")
}

// sessionText returns the description of Allow for this session with rules,
// naming them; "" when there are none, or they do not fit.
func sessionText(rules []rule) string {
	if len(rules) == 0 {
		return ""
	}
	names := make([]string, len(rules))
	for i, r := range rules {
		names[i] = r.String()
	}
	text := fmt.Sprintf("Let it run, and every later call that %s covers, until the agent's session ends.", strings.Join(names, ", "))
	if len([]rune(text)) > maxDescription {
		return ""
	}
	return text
}

// maxDescription is how long an option's description may be (schema.json).
const maxDescription = 200
