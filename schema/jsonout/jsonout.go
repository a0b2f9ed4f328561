// Package jsonout writes JSON as askuser prints it: on one line, with <,
// > and & as they are, since programs read it, not web pages.
package jsonout

import (
	"bytes"
	"encoding/json"
	"strings"
)

// String returns the JSON text of v on one line, without a newline: v is a
// value that always encodes (strings, numbers, booleans, JSON read before,
// and maps, slices and structs of them).
func String(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	// Such a value never fails to encode.
	_ = enc.Encode(v)
	// Encode ends the text with a newline.
	return strings.TrimSuffix(b.String(), "\n")
}
