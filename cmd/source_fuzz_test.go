package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
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
	if src.rest != nil {
		if rest, err = io.ReadAll(src.rest); err != nil {
			t.Fatalf("read rest: %v", err)
		}
	}
	return src.data, rest, nil
}

// FuzzReadStream: any stdin is split into one document and the answers that
// follow it, or refused cleanly, and how the bytes arrive (all at once or
// one at a time) changes nothing.
func FuzzReadStream(f *testing.F) {
	for _, s := range []string{
		"", " \n\t", oneQuestion, oneQuestion + "\n2\n", oneQuestion + "  \r\n1\n", oneQuestion + "2\n",
		oneQuestion + " \t 2\n", "{\"a\":1}{\"b\":2}", "[1,2", "{\"questions\":\xff}", "12 34\n", "\"\\u001b\"\n\x1b[2J\n",
		"nul\x00l", "{" + strings.Repeat(" ", 100) + "}\n\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
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
			var usage *usageError
			var large *schema.TooLargeError
			switch {
			case errors.As(err, &large):
			case errors.As(err, &usage) && usage.msg == "Missing JSON parameter":
				if len(bytes.TrimSpace(input)) != 0 {
					t.Fatalf("input %q called missing", input)
				}
			default:
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if !bytes.HasPrefix(input, data) {
			t.Fatalf("document %q is not the start of %q", data, input)
		}
		if rest == nil {
			// Not one JSON document: Parse says why and where.
			if json.Valid(data) {
				t.Fatalf("valid JSON %q treated as broken", data)
			}
			var syntax *schema.SyntaxError
			if _, err := testSchema(t).Parse(data, schema.KeyHeader); !errors.As(err, &syntax) {
				t.Fatalf("broken document %q: Parse says %v", data, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("document %q is not JSON", data)
		}
		// Between the document and the answers there is at most the rest
		// of the document's line, if it is blank.
		gap := input[len(data) : len(input)-len(rest)]
		if !bytes.HasSuffix(input, rest) || len(bytes.Trim(gap, " \t\r\n")) != 0 || bytes.Count(gap, []byte("\n")) > 1 ||
			bytes.Contains(gap, []byte("\n")) && !bytes.HasSuffix(gap, []byte("\n")) {
			t.Fatalf("input %q split into %q, gap %q, answers %q", input, data, gap, rest)
		}
	})
}

func testSchema(t testing.TB) *schema.Schema {
	t.Helper()
	raw, err := os.ReadFile("../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := schema.Compile(raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// parseError is what Parse says of data.
func parseError(t testing.TB, data []byte) string {
	_, err := testSchema(t).Parse(data, schema.KeyHeader)
	return fmt.Sprint(err)
}
