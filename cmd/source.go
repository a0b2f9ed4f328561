package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/askuser/askuser/schema"
)

// source is a questions document as read, before it is parsed.
type source struct {
	data []byte
	// rest is what follows the document when it came on stdin: the
	// answers. It is nil when the document came from elsewhere.
	rest io.Reader
}

// readSource reads the questions from the argument, the file, or stdin, in
// that order of preference. A document on a terminal is never waited for:
// with neither argument nor file, a terminal stdin means the parameter is
// missing.
func readSource(env *Env, args []string, file string) (*source, error) {
	switch {
	case len(args) > 0 && file != "":
		return nil, usageErrorf("give the questions either as an argument or with --file, not both")
	case len(args) > 0:
		if isBlank([]byte(args[0])) {
			return nil, missingJSON()
		}
		if isFileName(args[0]) {
			// A common slip: the file given where its contents belong.
			return nil, usageErrorf("%q is a file, not JSON: read it with -f %s", args[0], args[0])
		}
		if len(args[0]) > schema.MaxInputSize {
			return nil, &schema.TooLargeError{Size: int64(len(args[0]))}
		}
		return &source{data: []byte(args[0])}, nil
	case file != "" && file != "-":
		data, err := readFile(file)
		if err != nil {
			return nil, err
		}
		if isBlank(data) {
			return nil, missingJSON()
		}
		return &source{data: data}, nil
	}
	if env.IO.InTTY && file != "-" {
		return nil, missingJSON()
	}
	return readStream(env.IO.In)
}

func missingJSON() error {
	return &usageError{msg: "Missing JSON parameter", showUsage: true}
}

func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// isFileName reports whether arg, which is not a JSON object, names a
// regular file.
func isFileName(arg string) bool {
	if strings.HasPrefix(strings.TrimSpace(arg), "{") || strings.ContainsAny(arg, "\n\x00") {
		return false
	}
	fi, err := os.Stat(arg)
	return err == nil && fi.Mode().IsRegular()
}

// readFile reads a questions file, refusing one over the size limit before
// reading it all.
func readFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("read questions: %w", err)
	}
	defer f.Close()
	// Read into a buffer of the file's size, rather than one that doubles
	// as it fills: a 1 MiB file would otherwise peak at about twice that.
	var b bytes.Buffer
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		b.Grow(int(min(fi.Size(), schema.MaxInputSize)) + bytes.MinRead)
	}
	_, err = b.ReadFrom(io.LimitReader(f, schema.MaxInputSize+1))
	data := b.Bytes()
	if err != nil {
		return nil, fmt.Errorf("read questions: %w", err)
	}
	if len(data) > schema.MaxInputSize {
		return nil, &schema.TooLargeError{Size: int64(len(data))}
	}
	return data, nil
}

// readStream reads one JSON document from r and keeps what follows it for
// the answers. It reads no more than the size limit allows, and it does not
// wait for the end of r: answers may still be on their way.
func readStream(r io.Reader) (*source, error) {
	br := bufio.NewReader(r)
	var seen bytes.Buffer
	lr := &io.LimitedReader{R: br, N: schema.MaxInputSize + 1}
	dec := json.NewDecoder(io.TeeReader(lr, &seen))
	err := dec.Decode(&discard{})
	switch {
	case err == nil:
	case lr.N <= 0:
		return nil, &schema.TooLargeError{Size: int64(seen.Len())}
	case errors.Is(err, io.EOF) && isBlank(seen.Bytes()):
		return nil, missingJSON()
	default:
		// Parse finds the same problem and says where it is.
		return &source{data: seen.Bytes()}, nil
	}
	end := dec.InputOffset()
	if end > schema.MaxInputSize {
		return nil, &schema.TooLargeError{Size: end}
	}
	// What the decoder read past the document is copied out, so that its
	// buffer, as large as the document, is not kept for the whole run.
	ahead, _ := io.ReadAll(dec.Buffered())
	rest := bufio.NewReader(io.MultiReader(bytes.NewReader(ahead), br))
	skipLineEnd(rest)
	return &source{data: seen.Bytes()[:end], rest: rest}, nil
}

// discard is a JSON value read only to find where it ends: seen keeps its
// text, so a copy (as json.RawMessage would make) is not needed.
type discard struct{}

func (*discard) UnmarshalJSON([]byte) error { return nil }

// skipLineEnd drops the rest of the line the document ended on when it
// holds nothing but spaces, so that the first answer is the next line.
func skipLineEnd(r *bufio.Reader) {
	for {
		b, err := r.ReadByte()
		if err != nil {
			return
		}
		switch b {
		case ' ', '\t', '\r':
			continue
		case '\n':
			return
		}
		r.UnreadByte()
		return
	}
}
