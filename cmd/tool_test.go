package cmd

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// toolShapes are the documented shapes of a tool definition, as JSON
// Schemas: Anthropic's Messages API tool, OpenAI's Chat Completions function
// tool, and the Model Context Protocol's Tool.
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
					"description": {"type": "string", "minLength": 1},
					"parameters": {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}}
				},
				"additionalProperties": false
			}
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
			out, err := toolDefinition(format, "askuser", sch)
			if err != nil {
				t.Fatal(err)
			}
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
			var guide strings.Builder
			writeDocs(&guide, sch.Limits())
			// The description is the guide's own text, not a copy of it.
			for _, part := range []string{"Do not use it for what you can find out yourself", "Never add an \"Other\" option", "joined by \", \""} {
				if !strings.Contains(desc, part) || !strings.Contains(guide.String(), part) {
					t.Errorf("description and guide should both say %q", part)
				}
			}
		})
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
