package tui

import "testing"

func TestDecodeKey(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want key
		n    int
		ok   bool
	}{
		{"letter", "j", key{kind: keyRune, r: 'j'}, 1, true},
		{"digit then more", "12", key{kind: keyRune, r: '1'}, 1, true},
		{"two-byte character", "é", key{kind: keyRune, r: 'é'}, 2, true},
		{"half a character", "\xc3", key{}, 0, false},
		{"enter", "\r", key{kind: keyEnter}, 1, true},
		{"enter as CR LF", "\r\n", key{kind: keyEnter}, 2, true},
		{"newline", "\n", key{kind: keyEnter}, 1, true},
		{"ctrl+c", "\x03", key{kind: keyInterrupt}, 1, true},
		{"backspace", "\x7f", key{kind: keyBackspace}, 1, true},
		{"ctrl+h", "\x08", key{kind: keyBackspace}, 1, true},
		{"ctrl+u", "\x15", key{kind: keyClearLine}, 1, true},
		{"ctrl+w", "\x17", key{kind: keyDeleteWord}, 1, true},
		{"ctrl+p", "\x10", key{kind: keyUp}, 1, true},
		{"ctrl+n", "\x0e", key{kind: keyDown}, 1, true},
		{"tab", "\t", key{kind: keyTab}, 1, true},
		{"shift+tab", "\x1b[Z", key{kind: keyTab}, 3, true},
		{"ctrl+a", "\x01", key{kind: keyHome}, 1, true},
		{"ctrl+e", "\x05", key{kind: keyEnd}, 1, true},
		{"other control", "\x02", key{kind: keyIgnore}, 1, true},
		{"lone esc, maybe more to come", "\x1b", key{}, 0, false},
		{"esc esc", "\x1b\x1b", key{kind: keyEsc}, 1, true},
		{"esc then a letter", "\x1bj", key{kind: keyEsc}, 1, true},
		{"up", "\x1b[A", key{kind: keyUp}, 3, true},
		{"down then more", "\x1b[Bx", key{kind: keyDown}, 3, true},
		{"up, application mode", "\x1bOA", key{kind: keyUp}, 3, true},
		{"keypad enter", "\x1bOM", key{kind: keyEnter}, 3, true},
		{"ctrl+up", "\x1b[1;5A", key{kind: keyUp}, 6, true},
		{"home", "\x1b[H", key{kind: keyHome}, 3, true},
		{"home, vt", "\x1b[1~", key{kind: keyHome}, 4, true},
		{"end", "\x1b[4~", key{kind: keyEnd}, 4, true},
		{"page down", "\x1b[6~", key{kind: keyPageDown}, 4, true},
		{"delete", "\x1b[3~", key{kind: keyDelete}, 4, true},
		{"unknown sequence", "\x1b[200~", key{kind: keyIgnore}, 6, true},
		{"cursor report", "\x1b[12;40R", key{kind: keyIgnore}, 8, true},
		{"half a sequence", "\x1b[1;", key{}, 0, false},
		{"broken sequence", "\x1b[1\x03", key{kind: keyIgnore}, 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, n, ok := decodeKey([]byte(tt.in))
			if k != tt.want || n != tt.n || ok != tt.ok {
				t.Errorf("decodeKey(%q) = %+v, %d, %v; want %+v, %d, %v", tt.in, k, n, ok, tt.want, tt.n, tt.ok)
			}
		})
	}
}

func TestKeyMove(t *testing.T) {
	for _, tc := range []struct {
		k          key
		cursor, to int
		moves      bool
	}{
		{key{kind: keyDown}, 0, 1, true},
		{key{kind: keyRune, r: 'j'}, 2, 0, true}, // round from the last
		{key{kind: keyUp}, 0, 2, true},           // round from the first
		{key{kind: keyRune, r: 'k'}, 2, 1, true},
		{key{kind: keyPageUp}, 2, 0, true},
		{key{kind: keyHome}, 1, 0, true},
		{key{kind: keyEnd}, 0, 2, true},
		{key{kind: keyPageDown}, 1, 2, true},
		{key{kind: keyEnter}, 1, 1, false},
		{key{kind: keyRune, r: 'x'}, 1, 1, false},
	} {
		if to, moves := tc.k.move(tc.cursor, 3); to != tc.to || moves != tc.moves {
			t.Errorf("%+v from %d of 3: %d, %v; want %d, %v", tc.k, tc.cursor, to, moves, tc.to, tc.moves)
		}
	}
}
