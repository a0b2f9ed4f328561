package prompt

import (
	"strconv"
	"strings"

	"github.com/askuser/askuser/schema"
)

// Pick reads one typed choice as an option index, or -1 for Other.
func Pick(q schema.Question, s string) (int, bool) {
	if k, err := strconv.Atoi(s); err == nil {
		if k == 0 {
			return -1, true
		}
		if k >= 1 && k <= len(q.Options) {
			return k - 1, true
		}
		return 0, false
	}
	if strings.EqualFold(s, "other") {
		return -1, true
	}
	for j, o := range q.Options {
		if strings.EqualFold(strings.TrimSpace(o.Label), s) {
			return j, true
		}
	}
	return 0, false
}
