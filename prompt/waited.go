package prompt

import (
	"fmt"
	"time"
)

// Waited says how long a set of questions has waited, as a person would
// read it: 12s, 3m, 1h5m. Every view of the inbox shows it the same way.
func Waited(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh%dm", int(d.Hours()), int(d.Minutes())%60)
}
