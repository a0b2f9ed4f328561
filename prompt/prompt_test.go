package prompt

import (
	"reflect"
	"testing"

	"github.com/askuser/askuser/schema"
)

func TestSummarize(t *testing.T) {
	qs := []schema.Question{{Header: "Database"}, {Header: "Features"}, {Header: "Not answered"}}
	answers := []Answer{
		{Labels: []string{"PostgreSQL (Recommended)"}},
		{Labels: []string{"Auth", "Search"}, Other: "Audit log"},
	}
	want := []Summary{
		{Asked: "Database:", Answer: "PostgreSQL (Recommended)"},
		{Asked: "Features:", Answer: "Auth, Search, Audit log"},
	}
	if got := Summarize(qs, answers); !reflect.DeepEqual(got, want) {
		t.Errorf("Summarize = %q\nwant %q", got, want)
	}
}
