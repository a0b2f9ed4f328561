package prompt

import (
	"reflect"
	"testing"

	"github.com/askuser/askuser/schema"
)

func TestSummarize(t *testing.T) {
	qs := []schema.Question{{Header: "Database"}, {Header: "Features"}, schema.ConfirmQuestion("Deploy?", true), {Header: "Not answered"}}
	answers := []Answer{
		{Labels: []string{"PostgreSQL (Recommended)"}},
		{Labels: []string{"Auth", "Search"}, Other: "Audit log"},
		{Labels: []string{"No"}},
	}
	// A question asked alone is summed up under itself, not its header.
	want := []Summary{
		{Asked: "Database:", Answer: "PostgreSQL (Recommended)"},
		{Asked: "Features:", Answer: "Auth, Search, Audit log"},
		{Asked: "Deploy?", Answer: "No"},
	}
	if got := Summarize(qs, answers); !reflect.DeepEqual(got, want) {
		t.Errorf("Summarize = %q\nwant %q", got, want)
	}
}
