package iostreams_test

import (
	"fmt"
	"io"

	"github.com/askuser/askuser/internal/iostreams"
)

// A command given the test's streams reads what the test wrote to in, and
// the test reads what it wrote to out and errOut.
func ExampleTest() {
	s, in, out, errOut := iostreams.Test()
	in.WriteString("yes\n")
	answer, _ := io.ReadAll(s.In)
	fmt.Fprintf(s.Out, "read %q\n", answer)
	fmt.Fprintln(s.ErrOut, "no terminal:", !s.InTTY && !s.ErrTTY)
	fmt.Print(out.String(), errOut.String())
	// Output:
	// read "yes\n"
	// no terminal: true
}
