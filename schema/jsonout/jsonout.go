// Package jsonout writes JSON as askuser prints it: on one line, with <,
// > and & as they are, since programs read it, not web pages; and takes
// members out of JSON it was given (Without).
package jsonout

import (
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// String returns the JSON text of v on one line, without a newline: v is a
// value that always encodes (strings, numbers, booleans, JSON read before,
// and maps, slices and structs of them); one that does not gives "".
func String(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	// Encode writes nothing when v does not encode, and ends the text with
	// a newline when it does.
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

// Without returns doc, a JSON object, without its members named names,
// each time one is given (JSON does not forbid a name twice), and every
// other member as it was given. A doc that holds none of them, or is not
// an object, is returned as it is.
func Without(doc []byte, names ...string) []byte {
	for _, name := range names {
		path := gjson.Escape(name)
		for gjson.GetBytes(doc, path).Exists() {
			out, err := sjson.DeleteBytes(doc, path)
			if err != nil || len(out) == len(doc) {
				break // a name sjson cannot delete by its path ("")
			}
			doc = out
		}
	}
	return doc
}
