package cmd

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// toolShapes are the documented shapes of a tool definition, as JSON
// Schemas: Anthropic's Messages API tool, OpenAI's Chat Completions function
// tool, OpenAI's Responses API function tool, and the Model Context
// Protocol's Tool. The Responses shape is the OpenAI SDK's FunctionToolParam
// (openai-python, src/openai/types/responses/function_tool_param.py): name,
// parameters, strict and type required, description optional, nothing
// nested; "strict" defaults to true when it is left out, so it is required
// here to be stated, and false.
var toolShapes = map[string]string{
	"anthropic": `{
		"type": "object",
		"required": ["name", "description", "input_schema"],
		"properties": {
			"name": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,64}$"},
			"description": {"type": "string", "minLength": 1},
			"input_schema": {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}}
		},
		"additionalProperties": false
	}`,
	"openai": `{
		"type": "object",
		"required": ["type", "function"],
		"properties": {
			"type": {"const": "function"},
			"function": {
				"type": "object",
				"required": ["name", "description", "parameters"],
				"properties": {
					"name": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,64}$"},
					"description": {"type": "string", "minLength": 1, "maxLength": 1024},
					"parameters": {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}}
				},
				"additionalProperties": false
			}
		},
		"additionalProperties": false
	}`,
	"openai-responses": `{
		"type": "object",
		"required": ["type", "name", "parameters", "strict"],
		"properties": {
			"type": {"const": "function"},
			"name": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,64}$"},
			"description": {"type": "string", "minLength": 1, "maxLength": 1024},
			"parameters": {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}},
			"strict": {"const": false}
		},
		"additionalProperties": false
	}`,
	"mcp": `{
		"type": "object",
		"required": ["name", "inputSchema"],
		"properties": {
			"name": {"type": "string", "minLength": 1},
			"title": {"type": "string"},
			"description": {"type": "string"},
			"inputSchema": {
				"type": "object",
				"required": ["type"],
				"properties": {"type": {"const": "object"}, "properties": {"type": "object"}, "required": {"type": "array", "items": {"type": "string"}}}
			}
		}
	}`,
}

func TestToolDefinitions(t *testing.T) {
	env := testEnv(t)
	sch, err := loadSchema(env)
	if err != nil {
		t.Fatal(err)
	}
	for format, shape := range toolShapes {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := toolRun(env, &b, toolOptions{format: format, name: "askuser"}); err != nil {
				t.Fatal(err)
			}
			out := b.Bytes()
			var def map[string]any
			if err := json.Unmarshal(out, &def); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			c := jsonschema.NewCompiler()
			if err := c.AddResource("shape.json", strings.NewReader(shape)); err != nil {
				t.Fatal(err)
			}
			if err := c.MustCompile("shape.json").Validate(def); err != nil {
				t.Fatalf("not a valid %s tool definition: %v", format, err)
			}

			// The input schema is the effective schema itself: it compiles,
			// and accepts the example of the guide and refuses a typo.
			raw := findSchema(t, def)
			c = jsonschema.NewCompiler()
			c.Draft = jsonschema.Draft2020
			if err := c.AddResource("input.json", bytes.NewReader(raw)); err != nil {
				t.Fatal(err)
			}
			input := c.MustCompile("input.json")
			var good, bad any
			json.Unmarshal([]byte(`{"questions":[{"question":"Which?","header":"H","options":[{"label":"A","description":"a"},{"label":"B","description":"b"}],"multiSelect":false}]}`), &good)
			json.Unmarshal([]byte(`{"questions":[{"question":"Which?","header":"H","options":[{"label":"A","description":"a"},{"label":"B","description":"b"}],"multiselect":false}]}`), &bad)
			if err := input.Validate(good); err != nil {
				t.Errorf("input schema refuses a valid input: %v", err)
			}
			if input.Validate(bad) == nil {
				t.Errorf("input schema accepts an unknown field")
			}

			desc := findDescription(def)
			var text strings.Builder
			if err := docsTemplate().Execute(&text, guide{Limits: sch.Limits()}); err != nil {
				t.Fatal(err)
			}
			// The description is the guide's own text, not a copy of it:
			// the whole guide, or for OpenAI its short form, which says
			// the guide's own sentences.
			parts := []string{"Ask the person you are working for 1-4 questions", "Never add an \"Other\" option: one is added", "joined by \", \"", "If the person cancels, you get no answers", "Ask once, with everything you need to know"}
			if !strings.HasPrefix(format, "openai") {
				parts = append(parts, "Do not use it for what you can find out yourself", `"annotations"`)
			}
			// A model calls the tool without flags: its description names
			// none.
			if flag := regexp.MustCompile(`--[a-z]+`).FindString(desc); flag != "" {
				t.Errorf("the description names the flag %s, which a model cannot give", flag)
			}
			// Only askuser mcp can keep questions waiting past a client's
			// time limit for a call: its description says how to collect
			// the answer then.
			const again = "call this tool again with the same questions"
			if strings.Contains(desc, again) != (format == "mcp") {
				t.Errorf("the description says %q: %v, want %v", again, strings.Contains(desc, again), format == "mcp")
			}
			for _, part := range parts {
				if !strings.Contains(desc, part) {
					t.Errorf("the description does not say %q", part)
				}
				if !strings.Contains(text.String(), part) && !strings.HasPrefix(part, "Ask the person") {
					t.Errorf("the guide does not say %q", part)
				}
			}
		})
	}
}

// OpenAI refuses a function description over 1,024 characters. Both OpenAI
// formats keep to it, with the limits as they come and raised as far as
// they go, whose numbers are in the text.
func TestToolDescriptionForOpenAIFits(t *testing.T) {
	huge := strconv.Itoa(math.MaxInt)
	for _, vars := range []map[string]string{
		nil,
		{"ASK_MAX_QUESTIONS": "10", "ASK_MAX_OPTIONS": "12", "ASK_HEADER_MAX_LENGTH": "40", "ASK_QUESTION_MAX_LENGTH": "2000"},
		{"ASK_MAX_QUESTIONS": huge, "ASK_MAX_OPTIONS": huge, "ASK_HEADER_MAX_LENGTH": huge, "ASK_QUESTION_MAX_LENGTH": huge},
	} {
		env := testEnv(t)
		env.Getenv = func(k string) string { return vars[k] }
		for _, format := range []string{"openai", "openai-responses"} {
			var b bytes.Buffer
			if err := toolRun(env, &b, toolOptions{format: format, name: "askuser"}); err != nil {
				t.Fatalf("%s with %v: %v", format, vars, err)
			}
			out := b.Bytes()
			var def map[string]any
			if err := json.Unmarshal(out, &def); err != nil {
				t.Fatal(err)
			}
			desc := findDescription(def)
			if n := utf8.RuneCountInString(desc); n > maxOpenAIDescription {
				t.Errorf("%s with %v: description of %d characters, over %d", format, vars, n, maxOpenAIDescription)
			}
			if vars != nil && !strings.Contains(desc, "at most "+vars["ASK_HEADER_MAX_LENGTH"]+" characters") {
				t.Errorf("%s with %v: the description does not state the header limit in effect:\n%s", format, vars, desc)
			}
		}
	}
}

func findSchema(t *testing.T, def map[string]any) []byte {
	t.Helper()
	var s any
	switch {
	case def["input_schema"] != nil:
		s = def["input_schema"]
	case def["inputSchema"] != nil:
		s = def["inputSchema"]
	case def["parameters"] != nil:
		s = def["parameters"]
	default:
		s = def["function"].(map[string]any)["parameters"]
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func findDescription(def map[string]any) string {
	if d, ok := def["description"].(string); ok {
		return d
	}
	return def["function"].(map[string]any)["description"].(string)
}
