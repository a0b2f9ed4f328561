package cmd

import (
	"strconv"
	"strings"

	"github.com/askuser/askuser/internal/ask"
)

// envBool reads the boolean environment variable name: what
// strconv.ParseBool accepts, and yes/no and on/off, in any case. set is
// false when the variable is unset or empty. Anything else is a usage
// error that names the variable, so that a value meant as "on" is never
// taken as "off" in silence.
func envBool(getenv func(string) string, name string) (on, set bool, err error) {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return false, false, nil
	}
	switch strings.ToLower(v) {
	case "yes", "on":
		return true, true, nil
	case "no", "off":
		return false, true, nil
	}
	on, err = strconv.ParseBool(strings.ToLower(v))
	if err != nil {
		return false, false, ask.UsageErrorf("invalid %s %q: must be true or false (also 1/0, yes/no, on/off)", name, v)
	}
	return on, true, nil
}
