package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestStress runs the built program 1,000 times on generated questions with
// scripted answers (question and option counts, single and multi-select and
// text questions, numbers, labels, own answers, presets, Unicode, each way
// of giving the questions) and checks every output against the answers meant. It is
// skipped under -short.
func TestStress(t *testing.T) {
	if testing.Short() {
		t.Skip("stress test: skipped under -short")
	}
	bin := askuserPath(t)
	const runs = 1000
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("ASKUSER_STRESS_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	t.Logf("seed %d (set ASKUSER_STRESS_SEED to repeat)", seed)

	dir := t.TempDir()
	cases := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	failures := 0
	start := time.Now()
	for w := 0; w < 2*runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range cases {
				rng := rand.New(rand.NewPCG(seed, uint64(i)))
				c := generateCase(rng)
				if err := c.run(bin, filepath.Join(dir, fmt.Sprintf("q%d.json", i))); err != nil {
					mu.Lock()
					failures++
					if failures <= 5 {
						t.Errorf("case %d (seed %d): %v", i, seed, err)
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < runs; i++ {
		cases <- i
	}
	close(cases)
	wg.Wait()
	if failures > 0 {
		t.Fatalf("%d of %d runs failed", failures, runs)
	}
	t.Logf("%d runs in %s", runs, time.Since(start).Round(time.Millisecond))
}

type stressCase struct {
	input    []byte
	answers  string // the answer lines, for the questions not preset
	via      string // "arg", "file" or "stdin"
	byText   bool   // --key question
	expected []byte // the output meant
}

// Words for labels and headers: ASCII, accents, CJK, emoji, right-to-left
// script, and characters that JSON and HTML treat specially.
var words = []string{
	"Alpha", "beta", "Gamma", "delta", "Café", "naïve", "Über", "数据库", "缓存", "設定", "🚀", "✔ done",
	"Привет", "שלום", "مرحبا", "a<b", "x&y", `quote"d`, `back\slash`, "tab-free", "Σ", "ß", "ñandú",
}

func word(rng *rand.Rand) string { return words[rng.IntN(len(words))] }

func generateCase(rng *rand.Rand) stressCase {
	type question struct {
		Question    string   `json:"question"`
		Header      string   `json:"header"`
		Type        string   `json:"type,omitempty"`
		Options     []option `json:"options,omitempty"`
		MultiSelect bool     `json:"multiSelect"`
		Placeholder string   `json:"placeholder,omitempty"`
	}
	nq := 1 + rng.IntN(4)
	var qs []question
	var c stressCase
	c.byText = rng.IntN(4) == 0
	presets := map[string]string{}
	var out bytes.Buffer
	out.WriteString(`{"answers":{`)
	var lines []string
	for i := 0; i < nq; i++ {
		q := question{
			Question:    fmt.Sprintf("%s %s question %d?", word(rng), word(rng), i),
			Header:      fmt.Sprintf("%.8s %d", word(rng), i),
			MultiSelect: rng.IntN(2) == 0,
		}
		key := q.Header
		if c.byText {
			key = q.Question
		}
		if rng.IntN(6) == 0 {
			// A text question: the answer is the text typed, trimmed.
			q.Type, q.MultiSelect = "text", false
			if rng.IntN(2) == 0 {
				q.Placeholder = word(rng)
			}
			text := fmt.Sprintf("%s, %s %d", word(rng), word(rng), rng.IntN(100))
			qs = append(qs, q)
			if rng.IntN(5) == 0 {
				presets[key] = text
			} else {
				lines = append(lines, "  "+text+" ")
			}
			if i > 0 {
				out.WriteByte(',')
			}
			out.Write(jsonString(key))
			out.WriteByte(':')
			out.Write(jsonString(text))
			continue
		}
		no := 2 + rng.IntN(3)
		for j := 0; j < no; j++ {
			o := option{Label: fmt.Sprintf("%s %s%d", word(rng), word(rng), j), Description: word(rng) + " " + word(rng)}
			if !q.MultiSelect && rng.IntN(3) == 0 {
				o.Preview = word(rng) + "\n  " + word(rng)
			}
			q.Options = append(q.Options, o)
		}
		qs = append(qs, q)

		// What the person means, and how it is typed.
		chosen := make([]bool, no)
		var other string
		var typed string
		switch {
		case rng.IntN(10) == 0 && !q.MultiSelect: // Enter: the first option (a multi-select asks again)
			chosen[0] = true
		case !q.MultiSelect:
			j := rng.IntN(no + 1)
			if j == no {
				other = fmt.Sprintf("own %s answer %d", word(rng), rng.IntN(1000))
				typed = []string{"0", "other", "OTHER"}[rng.IntN(3)]
			} else {
				chosen[j] = true
				typed = fmt.Sprint(j + 1)
				if rng.IntN(2) == 0 {
					typed = strings.ToUpper(q.Options[j].Label)
				}
			}
		default:
			var parts []string
			for j := range chosen {
				if rng.IntN(2) == 0 {
					chosen[j] = true
					if rng.IntN(2) == 0 {
						parts = append(parts, fmt.Sprint(j+1))
					} else {
						parts = append(parts, q.Options[j].Label)
					}
				}
			}
			if len(parts) == 0 || rng.IntN(4) == 0 {
				other = fmt.Sprintf("mine, %s", word(rng))
				parts = append(parts, "0")
			}
			rng.Shuffle(len(parts), func(a, b int) { parts[a], parts[b] = parts[b], parts[a] })
			typed = strings.Join(parts, ", ")
		}
		var labels []string
		for j, o := range q.Options {
			if chosen[j] {
				labels = append(labels, o.Label)
			}
		}
		value := strings.Join(append(labels, other), ", ")
		if other == "" {
			value = strings.Join(labels, ", ")
		}

		if rng.IntN(5) == 0 && typed != "" && (other == "" || !q.MultiSelect) {
			presets[key] = value
		} else {
			lines = append(lines, typed)
			if other != "" {
				lines = append(lines, other)
			}
		}
		if i > 0 {
			out.WriteByte(',')
		}
		out.Write(jsonString(key))
		out.WriteByte(':')
		out.Write(jsonString(value))
	}
	out.WriteString("}}\n")
	doc := map[string]any{"questions": qs}
	if len(presets) > 0 {
		doc["answers"] = presets
	}
	if rng.IntN(4) == 0 {
		doc["metadata"] = map[string]any{"source": "stress", "n": rng.IntN(100)}
	}
	c.input, _ = json.Marshal(doc)
	if len(lines) > 0 {
		eol := "\n"
		if rng.IntN(4) == 0 {
			eol = "\r\n"
		}
		c.answers = strings.Join(lines, eol) + eol
	}
	c.via = []string{"arg", "file", "stdin"}[rng.IntN(3)]
	c.expected = out.Bytes()
	return c
}

type option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	Preview     string `json:"preview,omitempty"`
}

func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func (c stressCase) run(bin, file string) error {
	args := []string{"--ui", "line"}
	if c.byText {
		args = append(args, "--key", "question")
	}
	stdin := c.answers
	switch c.via {
	case "arg":
		args = append(args, string(c.input))
	case "file":
		if err := os.WriteFile(file, c.input, 0o644); err != nil {
			return err
		}
		args = append(args, "-f", file)
	case "stdin":
		stdin = string(c.input) + "\n" + c.answers
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	err := cmd.Run()
	if err != nil || !bytes.Equal(stdout.Bytes(), c.expected) {
		return fmt.Errorf("askuser %s (via %s) with answers %q: %v\nstdout: %s\nwant:   %s\nstderr:\n%s",
			strings.Join(args, " "), c.via, c.answers, err, stdout.Bytes(), c.expected, stderr.Bytes())
	}
	return nil
}
