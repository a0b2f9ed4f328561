package prompt

import (
	"testing"
	"time"
)

func TestWaited(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 59 * time.Second: "59s", time.Minute: "1m", 61 * time.Second: "1m",
		59*time.Minute + 59*time.Second: "59m", time.Hour: "1h0m", 65 * time.Minute: "1h5m",
		25*time.Hour + 7*time.Minute: "25h7m",
	} {
		if got := Waited(d); got != want {
			t.Errorf("Waited(%s) = %q, want %q", d, got, want)
		}
	}
}

func TestShortHome(t *testing.T) {
	for _, tc := range []struct{ path, home, want string }{
		{"/home/ann/src/api", "/home/ann", "~/src/api"},
		{"/home/ann", "/home/ann/", "~"},
		{"/home/annex/api", "/home/ann", "/home/annex/api"},
		{"/srv/app", "/", "/srv/app"},
		{"/srv/app", "", "/srv/app"},
	} {
		if got := ShortHome(tc.path, tc.home); got != tc.want {
			t.Errorf("ShortHome(%q, %q) = %q, want %q", tc.path, tc.home, got, tc.want)
		}
	}
}
