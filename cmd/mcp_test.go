package cmd

import (
	"testing"

	"github.com/askuser/askuser/internal/ask"
)

// --ui chooses among mcp's own ways; ASKUSER_UI, read as every command
// reads it, chooses when --ui is not given, and its terminal ways count as
// auto.
func TestMCPUI(t *testing.T) {
	for _, tc := range []struct {
		flag    string
		given   bool
		env     string
		want    ask.UI
		wantErr string
	}{
		{given: false, want: ask.UIAuto},
		{flag: "inbox", given: true, want: ask.UIInbox},
		{flag: "elicit", given: true, env: "web", want: ask.UIElicit},
		{flag: "auto", given: true, env: "inbox", want: ask.UIAuto},
		{flag: "tui", given: true, wantErr: `invalid --ui "tui": must be auto, elicit, inbox or web`},
		{env: "inbox", want: ask.UIInbox},
		{env: " web ", want: ask.UIWeb},
		{env: "auto", want: ask.UIAuto},
		{env: "tui", want: ask.UIAuto},
		{env: "line", want: ask.UIAuto},
		{env: "elicit", wantErr: `invalid ASKUSER_UI "elicit": must be auto, tui, line, web or inbox`},
		{env: "popup", wantErr: `invalid ASKUSER_UI "popup": must be auto, tui, line, web or inbox`},
	} {
		env := &Env{Getenv: varsEnv(map[string]string{"ASKUSER_UI": tc.env})}
		cmd := newMCPCmd(env, mcpRun)
		if tc.given {
			if err := cmd.ParseFlags([]string{"--ui", tc.flag}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := settingUI.get(cmd, env).ui(settingUI.uis[mcpCommand], "")
		switch {
		case tc.wantErr != "":
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("--ui %q (given %v), ASKUSER_UI %q: %v, want the error %q", tc.flag, tc.given, tc.env, err, tc.wantErr)
			}
		case err != nil || got != tc.want:
			t.Errorf("--ui %q (given %v), ASKUSER_UI %q: %q, %v; want %q", tc.flag, tc.given, tc.env, got, err, tc.want)
		}
	}
}
