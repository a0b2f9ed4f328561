package jsonout

import "testing"

// JSON text is on one line, without a newline after it, and <, > and &
// stay as they are; what cannot be encoded is an error, and String's "".
func TestMarshal(t *testing.T) {
	b, err := marshal(map[string]any{"a": "<b> & c", "d": []int{1, 2}})
	if err != nil || string(b) != `{"a":"<b> & c","d":[1,2]}` {
		t.Errorf("marshal = %q, %v", b, err)
	}
	if _, err := marshal(make(chan int)); err == nil {
		t.Error("a channel encoded")
	}
	if s := String(make(chan int)); s != "" {
		t.Errorf("String of a channel = %q", s)
	}
}
