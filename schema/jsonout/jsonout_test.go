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
}
