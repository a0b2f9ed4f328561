package approve

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// A shell command passes without asking only when it asks the person and
// does nothing else. It is read as bash reads it, by mvdan.cc/sh's parser,
// not by matching its text, so that no quoting, here-document or
// substitution is misread: it must be askuser in one of its asking forms,
// or several such joined by &&, || or |, each word a literal that the
// shell neither expands nor substitutes, with no variable set for it and
// no redirection but a here-document or here-string (< opens a file, or a
// connection through bash's /dev/tcp and /dev/udp; > writes one). Anything
// else, however harmless, is asked about as any other command.

// askingCommands are askuser's commands that ask the person and do nothing
// else, as askuser itself does: its questions of one kind. The others,
// and any added later, are asked about as any other program is:
//
//   - approve decides the agent tool's calls: run by the agent, it would
//     ask about a call that no agent tool made
//   - inbox and mcp serve until stopped, listening for others' questions
//   - man writes files, into the directory it is given
//   - history prints the person's answers to every agent's questions
//   - doctor reaches the inbox, and reads the settings, to report on them
//   - completion, docs, schema, tool, validate, version, environment and
//     help only print: harmless, but asking nobody (an Allow for this
//     session covers them)
var askingCommands = map[string]bool{"confirm": true, "input": true, "choose": true}

// askingFlags are the flags of the asking commands that change only how
// and for how long the person is asked and how the answer is written,
// each with whether it takes a value. Left out: --file (-f), which reads
// a file the person never sees, --listen, which serves the questions'
// page on an address that may be reachable beyond this machine, and
// --help and --version, which ask nothing.
var askingFlags = map[string]bool{
	"ui": true, "timeout": true, "from": true, "key": true,
	"default": true, "placeholder": true, "header": true, "question": true,
	"tty": false, "bell": false, "open": false, "no-review": false, "arrays": false, "json": false, "multi": false,
}

// onlyAsks reports whether cmd, a bash command, only asks the person
// through askuser (see above).
func onlyAsks(cmd string) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil || len(f.Stmts) == 0 {
		return false
	}
	for _, s := range f.Stmts {
		if !stmtAsks(s) {
			return false
		}
	}
	return true
}

// stmtAsks reports whether s runs only askuser's asking forms, in the
// foreground, with here-documents or here-strings only.
func stmtAsks(s *syntax.Stmt) bool {
	if s.Negated || s.Background || s.Coprocess || s.Disown {
		return false
	}
	for _, r := range s.Redirs {
		if r.N != nil || r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc && r.Op != syntax.WordHdoc {
			return false
		}
		// A here-string's word (never nil: the parser asks for one), or
		// the body of a here-document whose delimiter is not quoted, is
		// expanded as a word is.
		if _, ok := wordValue(r.Word); r.Op == syntax.WordHdoc && !ok || r.Hdoc != nil && !literalParts(r.Hdoc.Parts) {
			return false
		}
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 || len(c.Args) == 0 {
			return false
		}
		args := make([]string, len(c.Args))
		for i, w := range c.Args {
			v, ok := wordValue(w)
			if !ok {
				return false
			}
			args[i] = v
		}
		return args[0] == "askuser" && askingArgs(args[1:])
	case *syntax.BinaryCmd:
		return (c.Op == syntax.AndStmt || c.Op == syntax.OrStmt || c.Op == syntax.Pipe) && stmtAsks(c.X) && stmtAsks(c.Y)
	}
	return false
}

// askingArgs reports whether args, askuser's arguments, run askuser or one
// of its asking commands, with asking flags only. Cobra takes for the
// command the first argument that is neither a flag nor a flag's value;
// rather than follow it through the flags, the command must come first,
// before any flag, and askuser's own arguments must each be a questions
// document, a JSON object, which no command's name is.
func askingArgs(args []string) bool {
	documents := len(args) == 0 || !askingCommands[args[0]]
	if !documents {
		args = args[1:]
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return !documents || !slices.ContainsFunc(args[i+1:], func(a string) bool { return !isDocument(a) })
		}
		if name, ok := strings.CutPrefix(a, "--"); ok {
			name, _, withValue := strings.Cut(name, "=")
			takes, known := askingFlags[name]
			if !known {
				return false
			}
			if takes && !withValue {
				// Its value, as cobra reads it, even "--" or a
				// command's name (--ui inbox).
				i++
			}
			continue
		}
		// askuser's only shorthands are -f, -h and -v.
		if strings.HasPrefix(a, "-") || documents && !isDocument(a) {
			return false
		}
	}
	return true
}

// isDocument reports whether a, one of askuser's own arguments, is a
// questions document: a JSON object, opened by its brace.
func isDocument(a string) bool {
	return strings.HasPrefix(strings.TrimSpace(a), "{")
}

// wordValue returns the value of w as bash passes it: ok only when w is
// literal text, quoted or not, that bash neither expands (a parameter, a
// glob, a tilde, braces) nor substitutes. Its quotes and escapes are
// taken away as bash does, by mvdan.cc/sh's expand.
func wordValue(w *syntax.Word) (string, bool) {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			// Unquoted: any character that globs, expands or escapes.
			if strings.ContainsAny(p.Value, "*?[]{}~\\") {
				return "", false
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
		case *syntax.DblQuoted:
			if p.Dollar || !literalParts(p.Parts) {
				return "", false
			}
		default:
			return "", false
		}
	}
	v, err := expand.Literal(nil, w)
	return v, err == nil
}

// literalParts reports whether parts, a here-document's body or a
// double-quoted string's, are text that bash passes as it is (escapes
// aside): every part literal, none a parameter or a substitution.
func literalParts(parts []syntax.WordPart) bool {
	for _, p := range parts {
		if _, ok := p.(*syntax.Lit); !ok {
			return false
		}
	}
	return true
}
