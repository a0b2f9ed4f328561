package ask

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/askuser/askuser/schema"
)

// readAll reads a stream as readStream leaves it: the document, and all of
// the answers.
func readAll(t testing.TB, r io.Reader) (data, rest []byte, err error) {
	t.Helper()
	src, err := readStream(r)
	if err != nil {
		return nil, nil, err
	}
	if src.Rest != nil {
		if rest, err = io.ReadAll(src.Rest); err != nil {
			t.Fatalf("read rest: %v", err)
		}
	}
	return src.Data, rest, nil
}

// FuzzReadStream: any stdin is split into one document and the answers that
// follow it, or refused cleanly, and how the bytes arrive (all at once or
// one at a time) changes nothing. When only validating, stdin is read as
// the same bytes given as the argument are.
func FuzzReadStream(f *testing.F) {
	for _, s := range []string{
		"", " \n\t", oneQuestion, oneQuestion + "\n2\n", oneQuestion + "  \r\n1\n", oneQuestion + "2\n",
		oneQuestion + " \t 2\n", "{\"a\":1}{\"b\":2}", "[1,2", "{\"questions\":\xff}", "12 34\n", "\"\\u001b\"\n\x1b[2J\n",
		"nul\x00l", "{" + strings.Repeat(" ", 100) + "}\n\n\n", "\ufeff" + oneQuestion + "\n1\n", "\ufeff", "\xef\xbb", "\ufeff\ufeff{}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		checkAsArgument(t, input)
		data, rest, err := readAll(t, bytes.NewReader(input))
		data1, rest1, err1 := readAll(t, iotest.OneByteReader(bytes.NewReader(input)))
		switch {
		case (err == nil) != (err1 == nil), (rest == nil) != (rest1 == nil):
			t.Fatalf("one byte at a time: %q %q %v; all at once: %q %q %v", data1, rest1, err1, data, rest, err)
		case err == nil && rest == nil:
			// A broken document: how much of it was read may differ, but
			// not what is said about it.
			if e, e1 := parseError(t, data), parseError(t, data1); e != e1 {
				t.Fatalf("one byte at a time: %q: %s; all at once: %q: %s", data1, e1, data, e)
			}
		case !bytes.Equal(data, data1) || !bytes.Equal(rest, rest1):
			t.Fatalf("one byte at a time: %q %q; all at once: %q %q", data1, rest1, data, rest)
		}
		if err != nil {
			usage, isUsage := errors.AsType[*UsageError](err)
			_, isLarge := errors.AsType[*schema.TooLargeError](err)
			switch {
			case isLarge:
			case isUsage && usage.Msg == "Missing JSON parameter":
				if !isBlank(input) {
					t.Fatalf("input %q called missing", input)
				}
			default:
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		// A byte-order mark is skipped, and given back with a broken
		// document for Parse to skip in turn.
		body := bytes.TrimPrefix(input, []byte(schema.BOM))
		if !bytes.HasPrefix(input, data) && !bytes.HasPrefix(body, data) {
			t.Fatalf("document %q is not the start of %q", data, input)
		}
		if rest == nil {
			// Not one JSON document: Parse says why and where.
			if json.Valid(data) {
				t.Fatalf("valid JSON %q treated as broken", data)
			}
			_, err := testSchema(t).Parse(data, schema.KeyHeader)
			if _, ok := errors.AsType[*schema.SyntaxError](err); !ok {
				t.Fatalf("broken document %q: Parse says %v", data, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("document %q is not JSON", data)
		}
		// Between the document and the answers there is at most the rest
		// of the document's line, if it is blank.
		gap := body[len(data) : len(body)-len(rest)]
		if !bytes.HasSuffix(input, rest) || len(bytes.Trim(gap, " \t\r\n")) != 0 || bytes.Count(gap, []byte("\n")) > 1 ||
			bytes.Contains(gap, []byte("\n")) && !bytes.HasSuffix(gap, []byte("\n")) {
			t.Fatalf("input %q split into %q, gap %q, answers %q", input, data, gap, rest)
		}
	})
}

// checkAsArgument fails unless input, on stdin when validating, comes to
// what it comes to as the argument: the same document, or the same error.
func checkAsArgument(t *testing.T, input []byte) {
	if isFileName(string(input)) {
		return // the argument would be read as a file's name
	}
	env := streamEnv(iotest.OneByteReader(bytes.NewReader(input)), false)
	stdin, err1 := ReadSource(env, nil, "", false)
	arg, err2 := ReadSource(streamEnv(failingReader{}, false), []string{string(input)}, "", false)
	if len(input) == 0 {
		// An empty argument is missing; an empty stdin too.
		if !isMissing(err1) || !isMissing(err2) {
			t.Fatalf("empty input: stdin %v, argument %v", err1, err2)
		}
		return
	}
	if fmt.Sprint(err1) != fmt.Sprint(err2) {
		t.Fatalf("input %q: on stdin %v, as the argument %v", input, err1, err2)
	}
	if err1 == nil && !bytes.Equal(stdin.Data, arg.Data) {
		t.Fatalf("input %q: on stdin %q, as the argument %q", input, stdin.Data, arg.Data)
	}
}

var (
	testSchemaOnce sync.Once
	testSchemaOf   *schema.Schema
	testSchemaErr  error
)

// testSchema is the embedded schema, compiled once.
func testSchema(t testing.TB) *schema.Schema {
	t.Helper()
	testSchemaOnce.Do(func() {
		var raw []byte
		if raw, testSchemaErr = os.ReadFile("../../schema.json"); testSchemaErr == nil {
			testSchemaOf, testSchemaErr = schema.Compile(raw, schema.Limits{})
		}
	})
	if testSchemaErr != nil {
		t.Fatal(testSchemaErr)
	}
	return testSchemaOf
}

// parseError is what Parse says of data.
func parseError(t testing.TB, data []byte) string {
	_, err := testSchema(t).Parse(data, schema.KeyHeader)
	return fmt.Sprint(err)
}
