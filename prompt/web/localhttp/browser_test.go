package localhttp

import (
	"reflect"
	"runtime"
	"testing"
)

// TestBrowserCommand checks that $BROWSER is split into its words, with
// the address in place of %s or after them, and that without it the
// system's opener is given the address.
func TestBrowserCommand(t *testing.T) {
	system := map[string][]string{"darwin": {"open", "U"}, "windows": {"rundll32", "url.dll,FileProtocolHandler", "U"}}[runtime.GOOS]
	if system == nil {
		system = []string{"xdg-open", "U"}
	}
	for browser, want := range map[string][]string{
		"firefox":                       {"firefox", "U"},
		" firefox  --new-tab ":          {"firefox", "--new-tab", "U"},
		"chromium --app=%s --incognito": {"chromium", "--app=U", "--incognito"},
		"sh -c 'open %s'":               {"sh", "-c", "'open", "U'"},
		"":                              system,
		"   ":                           system,
	} {
		if got := browserCommand(browser, "U").Args; !reflect.DeepEqual(got, want) {
			t.Errorf("browserCommand(%q) runs %q, want %q", browser, got, want)
		}
	}
}
