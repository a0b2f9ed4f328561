package ask

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/schema"
)

// oneQuestion is a valid document of one question.
const oneQuestion = `{"questions":[{"question":"Which?","header":"Which","options":[{"label":"A","description":"a"},{"label":"B","description":"b"}],"multiSelect":false}]}`

func streamEnv(stdin io.Reader, inTTY bool) *iostreams.Streams {
	return &iostreams.Streams{In: stdin, InTTY: inTTY}
}

func isMissing(err error) bool {
	u, ok := errors.AsType[*UsageError](err)
	return ok && u.Msg == "Missing JSON parameter" && u.showUsage
}

func TestReadSourceArgument(t *testing.T) {
	env := streamEnv(strings.NewReader("1\n"), false)
	src, err := ReadSource(env, []string{oneQuestion}, "", true)
	if err != nil {
		t.Fatal(err)
	}
	if string(src.Data) != oneQuestion || src.Rest != nil {
		t.Errorf("got %q, rest %v", src.Data, src.Rest)
	}
	for _, blank := range []string{"", "  ", "\n\t"} {
		if _, err := ReadSource(env, []string{blank}, "", true); !isMissing(err) {
			t.Errorf("argument %q: err = %v, want a missing parameter", blank, err)
		}
	}
	_, err = ReadSource(env, []string{strings.Repeat(" ", schema.MaxInputSize) + "{}"}, "", true)
	_, ok := errors.AsType[*schema.TooLargeError](err)
	if !ok {
		t.Errorf("large argument: err = %v, want a *schema.TooLargeError", err)
	}
	_, err = ReadSource(env, []string{oneQuestion}, "q.json", true)
	u, ok := errors.AsType[*UsageError](err)
	if !ok || u.showUsage {
		t.Errorf("argument and file: err = %v, want a usage error", err)
	}
}

func TestReadSourceFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	env := streamEnv(strings.NewReader("never read"), false)

	src, err := ReadSource(env, nil, write("q.json", oneQuestion+"\n"), true)
	if err != nil {
		t.Fatal(err)
	}
	if string(src.Data) != oneQuestion+"\n" || src.Rest != nil {
		t.Errorf("got %q, rest %v", src.Data, src.Rest)
	}
	if _, err := ReadSource(env, nil, write("blank.json", " \n"), true); !isMissing(err) {
		t.Errorf("blank file: err = %v", err)
	}
	_, err = ReadSource(env, nil, write("big.json", strings.Repeat(" ", schema.MaxInputSize+1)), true)
	_, ok := errors.AsType[*schema.TooLargeError](err)
	if !ok {
		t.Errorf("large file: err = %v", err)
	}
	if _, err := ReadSource(env, nil, write("limit.json", oneQuestion+strings.Repeat(" ", schema.MaxInputSize-len(oneQuestion))), true); err != nil {
		t.Errorf("file of exactly the limit: %v", err)
	}
	// A file's name given as the argument points to -f.
	_, err = ReadSource(env, []string{filepath.Join(dir, "q.json")}, "", true)
	u, ok := errors.AsType[*UsageError](err)
	if !ok || !strings.Contains(u.Msg, "read it with -f") {
		t.Errorf("file name as the argument: err = %v, want a usage error", err)
	}
	_, err = ReadSource(env, []string{dir}, "", true)
	if _, ok := errors.AsType[*UsageError](err); ok {
		t.Errorf("a directory is not a file to read: %v", err)
	}
	_, err = ReadSource(env, nil, filepath.Join(dir, "missing.json"), true)
	if _, code := Outcome(err, "askuser"); !errors.Is(err, os.ErrNotExist) || code != exitError {
		t.Errorf("missing file: err = %v (exit %d)", err, code)
	}
}

func TestReadSourceTerminal(t *testing.T) {
	// A terminal on stdin is not waited on for questions...
	env := streamEnv(failingReader{}, true)
	if _, err := ReadSource(env, nil, "", true); !isMissing(err) {
		t.Errorf("terminal stdin: err = %v, want a missing parameter", err)
	}
	// ...unless asked for with -f -.
	env = streamEnv(strings.NewReader(oneQuestion), true)
	if _, err := ReadSource(env, nil, "-", true); err != nil {
		t.Errorf("-f - from a terminal: %v", err)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("read from a terminal") }

func TestReadStream(t *testing.T) {
	tests := []struct {
		name, input, data, rest string
	}{
		{"answers on the next line", oneQuestion + "\n2\n", oneQuestion, "2\n"},
		{"CRLF", oneQuestion + "\r\n2\r\n", oneQuestion, "2\r\n"},
		{"spaces before the line ends", oneQuestion + "  \t\n\n2\n", oneQuestion, "\n2\n"},
		{"answer on the same line", oneQuestion + " 2\n", oneQuestion, "2\n"},
		{"no answers", oneQuestion, oneQuestion, ""},
		{"pretty", "{\n  \"questions\": []\n}\n1\n", "{\n  \"questions\": []\n}", "1\n"},
		{"leading space", "\n\n  " + oneQuestion + "\n1\n", "\n\n  " + oneQuestion, "1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, err := readStream(strings.NewReader(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			if string(src.Data) != tt.data {
				t.Errorf("data = %q, want %q", src.Data, tt.data)
			}
			rest, err := io.ReadAll(src.Rest)
			if err != nil {
				t.Fatal(err)
			}
			if string(rest) != tt.rest {
				t.Errorf("rest = %q, want %q", rest, tt.rest)
			}
		})
	}
}

func TestReadStreamErrors(t *testing.T) {
	for _, blank := range []string{"", " \n\n"} {
		if _, err := readStream(strings.NewReader(blank)); !isMissing(err) {
			t.Errorf("%q: err = %v, want a missing parameter", blank, err)
		}
	}
	// Not JSON: what was read is kept, for Parse to say where the problem
	// is.
	src, err := readStream(strings.NewReader(`{"questions": x}` + "\n1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(src.Data), `{"questions": x`) {
		t.Errorf("data = %q", src.Data)
	}
	// A document over the limit is refused without reading it all.
	big := io.MultiReader(strings.NewReader(`{"metadata":"`), infinite('x'))
	_, err = readStream(big)
	_, ok := errors.AsType[*schema.TooLargeError](err)
	if !ok {
		t.Errorf("endless document: err = %v, want a *schema.TooLargeError", err)
	}
	// Answers may follow a document of nearly the limit.
	pad := strings.Repeat(" ", schema.MaxInputSize-len(oneQuestion)-1)
	src, err = readStream(strings.NewReader(pad + oneQuestion + "\n" + strings.Repeat("1\n", 1000)))
	if err != nil {
		t.Fatalf("document under the limit followed by answers: %v", err)
	}
	if len(src.Data) != schema.MaxInputSize-1 {
		t.Errorf("data is %d bytes", len(src.Data))
	}
}

// infinite is a reader of one byte, endlessly.
type infinite byte

func (b infinite) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// TestReadStreamDoesNotWait checks that the questions are read as soon as
// the document ends: the answers may not have been typed yet.
func TestReadStreamDoesNotWait(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte(oneQuestion + "\n"))
	done := make(chan error, 1)
	go func() {
		_, err := readStream(r)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("readStream waited for the end of its input")
	}
}

// The three sources of the questions — the argument, -f FILE and stdin —
// read the same bytes the same way: the same document, or the same error.
// When asking, what follows the document on stdin is the answers; when
// only validating, it must be nothing but white space, as in a file.
func TestSourcesAgree(t *testing.T) {
	sch := testSchema(t)
	atLimit := oneQuestion + strings.Repeat(" ", schema.MaxInputSize-len(oneQuestion))
	tests := []struct {
		name, input string
		want        string // what comes of it: "ok", or the error
		asked       string // when asking with the questions on stdin, if not want
	}{
		{"a document", oneQuestion, "ok", ""},
		{"white space around it", "\n  " + oneQuestion + " \n\n", "ok", ""},
		{"a byte-order mark", "\ufeff" + oneQuestion + "\n", "ok", ""},
		{"a byte-order mark before a broken document", "\ufeff" + `{"questions":[}`,
			"unexpected '}' at line 1, column 15; expected a value: an object, an array, a string in double quotes, a number, true, false or null", ""},
		{"content after the document", oneQuestion + "\n2\n",
			"unexpected content after the JSON document at line 2, column 1; expected nothing more: give one document", "ok"},
		{"a second document", oneQuestion + ` {"questions":[]}`,
			"unexpected content after the JSON document at line 1, column 152; expected nothing more: give one document", "ok"},
		{"only white space", " \n\t", "missing", ""},
		{"only a byte-order mark", "\ufeff\n", "missing", ""},
		{"1 MiB exactly", atLimit, "ok", ""},
		{"1 MiB exactly and a line end", atLimit + "\n", "too large", ""},
		{"1 MiB with a byte-order mark", "\ufeff" + atLimit[:len(atLimit)-3], "ok", ""},
		{"a byte more with a byte-order mark", "\ufeff" + atLimit[:len(atLimit)-2], "too large", ""},
		{"white space after the document counts", oneQuestion + strings.Repeat("\n", schema.MaxInputSize), "too large", "ok"},
	}
	if n := len(oneQuestion); n != 150 {
		t.Fatalf("oneQuestion is %d bytes; the column above expects 150", n)
	}
	outcome := func(src *Source, err error) string {
		_, tooLarge := errors.AsType[*schema.TooLargeError](err)
		switch {
		case isMissing(err):
			return "missing"
		case tooLarge:
			return "too large"
		case err != nil:
			return "read: " + err.Error()
		}
		if _, err := sch.Parse(src.Data, schema.KeyHeader); err != nil {
			return err.Error()
		}
		return "ok"
	}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := filepath.Join(dir, fmt.Sprintf("q%d.json", i))
			if err := os.WriteFile(name, []byte(tt.input), 0o666); err != nil {
				t.Fatal(err)
			}
			env := streamEnv(strings.NewReader(tt.input), false)
			got := map[string]string{
				"argument":          outcome(ReadSource(streamEnv(failingReader{}, false), []string{tt.input}, "", false)),
				"-f FILE":           outcome(ReadSource(streamEnv(failingReader{}, false), nil, name, true)),
				"stdin, validating": outcome(ReadSource(env, nil, "", false)),
				"-f -, validating":  outcome(ReadSource(streamEnv(strings.NewReader(tt.input), true), nil, "-", false)),
				"stdin, asking":     outcome(ReadSource(streamEnv(strings.NewReader(tt.input), false), nil, "", true)),
			}
			if tt.input != "" && isBlank([]byte(tt.input)) {
				// A blank argument is missing too, but is not read.
				got["argument"] = "missing"
			}
			for source, g := range got {
				want := tt.want
				if source == "stdin, asking" && tt.asked != "" {
					want = tt.asked
				}
				if g != want {
					t.Errorf("%s: %s, want %s", source, g, want)
				}
			}
		})
	}
}
