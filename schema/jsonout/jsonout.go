// Package jsonout writes JSON as askuser prints it: on one line, with <,
// > and & as they are, since programs read it, not web pages.
package jsonout

import (
	"bytes"
	"encoding/json"
)

// marshal returns v as JSON text on one line, without a newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	// Encode ends the text with a newline.
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// String returns the JSON text of v, a value that always encodes: strings,
// numbers, booleans, JSON read before, and maps, slices and structs of
// them.
func String(v any) string {
	b, _ := marshal(v)
	return string(b)
}
