package ask

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/schema"
)

// Source is a questions document as read, before it is parsed.
type Source struct {
	Data []byte
	// Rest is what follows the document when it came on stdin: the
	// answers. It is nil when the document came from elsewhere.
	Rest io.Reader
}

// ReadSource reads the questions from the argument, the file, or s's
// stdin, in that order of preference. A document on a terminal is never
// waited for: with neither argument nor file, a terminal stdin means the
// parameter is missing. answersFollow says what may follow the document on stdin: the
// answers, when asking on line prompts, or nothing but white space, when
// only validating.
//
// The size limit counts every byte of the questions as given — a leading
// byte-order mark and white space included — whichever the source: the
// whole argument, the whole file, the whole of stdin; when the answers
// follow on stdin, everything up to where they start (the document, then
// the spaces and line end after it), which is the same bytes a file holding
// only the questions would have.
func ReadSource(s *iostreams.Streams, args []string, file string, answersFollow bool) (*Source, error) {
	var src *Source
	var err error
	switch {
	case len(args) > 0 && file != "":
		return nil, UsageErrorf("give the questions either as an argument or with --file, not both")
	case len(args) > 0 && isFileName(args[0]):
		// A common slip: the file given where its contents belong.
		return nil, UsageErrorf("%q is a file, not JSON: read it with -f %s", args[0], args[0])
	case len(args) > 0:
		src, err = ReadLimited(strings.NewReader(args[0]), int64(len(args[0])))
	case file != "" && file != "-":
		src, err = readFile(file)
	case s.InTTY && file != "-":
		return nil, missingJSON()
	case answersFollow:
		return readStream(s.In)
	default:
		src, err = ReadLimited(s.In, -1)
	}
	if err != nil {
		return nil, fmt.Errorf("read questions: %w", err)
	}
	if isBlank(src.Data) {
		return nil, missingJSON()
	}
	return src, nil
}

func missingJSON() error {
	return &UsageError{Msg: "Missing JSON parameter", showUsage: true}
}

// isBlank reports whether b holds no document: only white space, after a
// byte-order mark if any.
func isBlank(b []byte) bool {
	return len(bytes.TrimSpace(bytes.TrimPrefix(b, []byte(schema.BOM)))) == 0
}

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
func readFile(name string) (*Source, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return ReadLimited(f, size)
}

// ReadLimited reads r to its end, refusing more than the size limit without
// reading it all. size, when not negative, is what r will give, to read it
// into a buffer of that size rather than one that doubles as it fills: a
// 1 MiB file would otherwise peak at about twice that.
func ReadLimited(r io.Reader, size int64) (*Source, error) {
	if size > schema.MaxInputSize {
		return nil, &schema.TooLargeError{Size: size}
	}
	var b bytes.Buffer
	if size >= 0 {
		b.Grow(int(size) + bytes.MinRead)
	}
	if _, err := b.ReadFrom(io.LimitReader(r, schema.MaxInputSize+1)); err != nil {
		return nil, err
	}
	if b.Len() > schema.MaxInputSize {
		return nil, &schema.TooLargeError{Size: int64(b.Len())}
	}
	return &Source{Data: b.Bytes()}, nil
}

// readStream reads one JSON document from r and keeps what follows it for
// the answers. It reads no more than the size limit allows, and it does not
// wait for the end of r: answers may still be on their way.
func readStream(r io.Reader) (*Source, error) {
	br := bufio.NewReader(r)
	lr := &io.LimitedReader{R: br, N: schema.MaxInputSize + 1}
	// A byte-order mark is not part of the document, but it is part of
	// the input, and counts toward its size. (Only a document that starts
	// with 0xEF can start with one: two bytes more are then on their way.)
	var bomLen int64
	if b, _ := br.Peek(1); len(b) == 1 && b[0] == schema.BOM[0] {
		if b, _ := br.Peek(len(schema.BOM)); string(b) == schema.BOM {
			br.Discard(len(schema.BOM))
			bomLen = int64(len(schema.BOM))
			lr.N -= bomLen
		}
	}
	var seen bytes.Buffer
	dec := json.NewDecoder(io.TeeReader(lr, &seen))
	err := dec.Decode(&discard{})
	switch {
	case err == nil:
	case lr.N <= 0:
		return nil, &schema.TooLargeError{Size: int64(seen.Len())}
	case errors.Is(err, io.EOF) && isBlank(seen.Bytes()):
		return nil, missingJSON()
	default:
		// Parse finds the same problem and says where it is, after the
		// byte-order mark it skips as this did.
		return &Source{Data: append([]byte(schema.BOM[:bomLen]), seen.Bytes()...)}, nil
	}
	end := dec.InputOffset()
	// What the decoder read past the document is copied out, so that its
	// buffer, as large as the document, is not kept for the whole run.
	ahead, _ := io.ReadAll(dec.Buffered())
	rest := bufio.NewReader(io.MultiReader(bytes.NewReader(ahead), br))
	if size := bomLen + end + skipLineEnd(rest); size > schema.MaxInputSize {
		return nil, &schema.TooLargeError{Size: size}
	}
	return &Source{Data: seen.Bytes()[:end], Rest: rest}, nil
}

// discard is a JSON value read only to find where it ends: seen keeps its
// text, so a copy (as json.RawMessage would make) is not needed.
type discard struct{}

func (*discard) UnmarshalJSON([]byte) error { return nil }

// skipLineEnd drops the rest of the line the document ended on when it
// holds nothing but spaces, so that the first answer is the next line. It
// returns the number of bytes dropped.
func skipLineEnd(r *bufio.Reader) int64 {
	for n := int64(0); ; n++ {
		b, err := r.ReadByte()
		switch {
		case err != nil:
			return n
		case b == '\n':
			return n + 1
		case b != ' ' && b != '\t' && b != '\r':
			r.UnreadByte()
			return n
		}
	}
}

// singleQuoted reports whether a questions document starts as if JSON took
// single quotes: with ' or {' (white space aside).
func singleQuoted(data []byte) bool {
	b := bytes.TrimLeft(bytes.TrimPrefix(data, []byte(schema.BOM)), " \t\r\n")
	if rest, ok := bytes.CutPrefix(b, []byte("{")); ok {
		b = bytes.TrimLeft(rest, " \t\r\n")
	}
	return bytes.HasPrefix(b, []byte("'"))
}
