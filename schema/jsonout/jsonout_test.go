package jsonout

import "testing"

// JSON text is on one line, without a newline after it, and <, > and &
// stay as they are; what cannot be encoded is "".
func TestString(t *testing.T) {
	if s := String(map[string]any{"a": "<b> & c", "d": []int{1, 2}}); s != `{"a":"<b> & c","d":[1,2]}` {
		t.Errorf("String = %q", s)
	}
	if s := String(make(chan int)); s != "" {
		t.Errorf("String of a channel = %q", s)
	}
	// A value that fails partway (a list whose second value cannot be
	// encoded) leaves nothing of itself either.
	if s := String([]any{"a", make(chan int)}); s != "" {
		t.Errorf("String of a list with a channel = %q", s)
	}
}

// Without takes out each member of the names given, however often it is
// given, and leaves the others as they were written; a name is a name,
// not a path, and what is not an object stays as it is.
func TestWithout(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":1,"x":2,"b":{"x":3},"x":4}`, `{"a":1,"b":{"x":3}}`},
		{`{"a.b":1,"a":{"b":2}}`, `{"a":{"b":2}}`},
		{`{"a": 1}`, `{"a": 1}`},
		{`[{"x":1}]`, `[{"x":1}]`},
		{`"x"`, `"x"`},
	} {
		if got := string(Without([]byte(c.in), "x", "a.b")); got != c.want {
			t.Errorf("Without(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	// A name that no path can delete by ends the search for it.
	if got := string(Without([]byte(`{"":1,"x":2}`), "", "x")); got != `{"":1}` {
		t.Errorf(`Without({"":1,"x":2}, "", "x") = %s, want {"":1}`, got)
	}
}
