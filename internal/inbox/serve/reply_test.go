package serve

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/inbox/view"
)

// Messages on the reply topic that answer no set are counted on the
// inbox's terminal for each of the first ten, then only at each power of
// ten, so that whoever posts to the topic cannot flood it.
func TestRepliesIgnoredAreCounted(t *testing.T) {
	var out strings.Builder
	r := newReplies("https://ntfy.example/topic", inbox.NewQueue(inbox.QueueOptions{}), view.NewLinks(), &out)
	for range 1000 {
		r.read("no key of any set")
	}
	var counts []string
	for _, m := range regexp.MustCompile(`\((\d+) so far\)`).FindAllStringSubmatch(out.String(), -1) {
		counts = append(counts, m[1])
	}
	if want := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "100", "1000"}; !slices.Equal(counts, want) {
		t.Errorf("the inbox counted the ignored messages at %q, want %q", counts, want)
	}
}
