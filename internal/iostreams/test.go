package iostreams

import "bytes"

// Test returns streams for a test, with no terminal among them, and the
// buffers behind them: what the test writes to in is read, and out and
// errOut keep what is written. A test that reads them while they are
// written, or gives input through a pipe, puts streams of its own in
// their place.
func Test() (s *Streams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = new(bytes.Buffer), new(bytes.Buffer), new(bytes.Buffer)
	return &Streams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}
