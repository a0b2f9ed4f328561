package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

// minimalInput is the smallest valid input: one question, two options.
const minimalInput = `{"questions":[{"question":"Which?","header":"H","options":[{"label":"A","description":"a"},{"label":"B","description":"b"}],"multiSelect":false}]}`

// maximalInput is the largest valid input under the default limits: four
// questions of four options, every text at its longest, previews and
// presets.
func maximalInput() []byte {
	type option struct {
		Label       string `json:"label"`
		Description string `json:"description"`
		Preview     string `json:"preview,omitempty"`
	}
	type question struct {
		Question    string   `json:"question"`
		Header      string   `json:"header"`
		Options     []option `json:"options"`
		MultiSelect bool     `json:"multiSelect"`
	}
	var qs []question
	answers := map[string]string{}
	for i := 0; i < 4; i++ {
		q := question{
			Question:    strings.Repeat("q", 498) + string(rune('0'+i)) + "?",
			Header:      strings.Repeat("数", 11) + string(rune('0'+i)),
			MultiSelect: i%2 == 1,
		}
		for j := 0; j < 4; j++ {
			o := option{Label: strings.Repeat("l", 49) + string(rune('0'+j)), Description: strings.Repeat("d", 200)}
			if !q.MultiSelect {
				o.Preview = strings.Repeat("preview line\n", 4000/13)
			}
			q.Options = append(q.Options, o)
		}
		qs = append(qs, q)
		if i == 3 {
			answers[q.Header] = q.Options[0].Label + ", " + strings.Repeat("typed ", 300)
		}
	}
	data, err := json.Marshal(map[string]any{"questions": qs, "answers": answers, "metadata": map[string]any{"trace": "abc"}})
	if err != nil {
		panic(err)
	}
	return data
}

func TestBenchInputsAreValid(t *testing.T) {
	s := compileWith(t, Limits{})
	for name, data := range map[string][]byte{"minimal": []byte(minimalInput), "maximal": maximalInput()} {
		if _, err := s.Parse(data, KeyHeader); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// BenchmarkCompileAndParse is what every run of askuser does before it asks:
// compile the embedded schema and parse and validate the input.
func BenchmarkCompileAndParse(b *testing.B) {
	raw := embedded(b)
	for name, data := range map[string][]byte{"minimal": []byte(minimalInput), "maximal": maximalInput()} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				s, err := Compile(raw, Limits{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Parse(data, KeyHeader); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParse is parse and validate alone, with the schema compiled once.
func BenchmarkParse(b *testing.B) {
	s := compileWith(b, Limits{})
	for name, data := range map[string][]byte{"minimal": []byte(minimalInput), "maximal": maximalInput()} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Parse(data, KeyHeader); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
