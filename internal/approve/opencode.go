package approve

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/askuser/askuser/prompt"
	"github.com/askuser/askuser/schema"
)

// OpenCode (1.18.33) asks the person through events of its server: a
// permission.asked or question.asked event that the first reply through its
// API answers, the dialog of its interface or any other client. OpenCode's
// askuser plugin passes each on to askuser approve, with the directory it
// works in, and replies with what askuser approve writes.

// openCodePermission is the request of a permission.asked event.
type openCodePermission struct {
	Permission string          `json:"permission"`
	Patterns   []string        `json:"patterns"`
	Metadata   json.RawMessage `json:"metadata"`
	Always     []string        `json:"always"`
}

// openCodeQuestions is the request of a question.asked event.
type openCodeQuestions struct {
	Questions []struct {
		Question string   `json:"question"`
		Header   string   `json:"header"`
		Options  []option `json:"options"`
		Multiple bool     `json:"multiple"`
	} `json:"questions"`
}

// parseOpenCode reads an OpenCode event of type typ, its properties
// props, from the directory dir.
func parseOpenCode(typ string, props json.RawMessage, dir string) (Request, error) {
	switch typ {
	case "permission.asked":
		var p openCodePermission
		if json.Unmarshal(props, &p) != nil || p.Permission == "" {
			return Request{}, errors.New(`read OpenCode's permission.asked event: its "properties" must name the "permission" asked for`)
		}
		input := p.Metadata
		if len(input) == 0 || input[0] != '{' {
			input = json.RawMessage("{}")
		}
		return Request{Dialect: OpenCodePermission, Tool: p.Permission, Input: input, Cwd: dir, patterns: p.Patterns, always: p.Always}, nil
	case "question.asked":
		var q openCodeQuestions
		if json.Unmarshal(props, &q) != nil || len(q.Questions) == 0 {
			return Request{}, errors.New(`read OpenCode's question.asked event: its "properties" must hold the "questions"`)
		}
		return Request{Dialect: OpenCodeQuestion, Tool: "question", Input: props, Cwd: dir}, nil
	}
	return Request{}, fmt.Errorf("askuser approve answers OpenCode's permission.asked and question.asked events, not %q", typ)
}

// option is an option of a question, as OpenCode's question.asked event
// and askuser's input both write it.
type option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// openCodeDoc returns the questions of an OpenCode question.asked event as
// askuser's input: the headers cut to the length askuser's take (the
// answers go back in order, not by header).
func openCodeDoc(input json.RawMessage, l schema.Limits) ([]byte, error) {
	var q openCodeQuestions
	if err := json.Unmarshal(input, &q); err != nil {
		return nil, err
	}
	type question struct {
		Question    string   `json:"question"`
		Header      string   `json:"header"`
		Options     []option `json:"options"`
		MultiSelect bool     `json:"multiSelect"`
	}
	var doc struct {
		Questions []question `json:"questions"`
	}
	for _, oq := range q.Questions {
		// Never null: the schema asks for a list.
		opts := append([]option{}, oq.Options...)
		doc.Questions = append(doc.Questions, question{Question: oq.Question, Header: prompt.Cut(oq.Header, l.HeaderMaxLength), MultiSelect: oq.Multiple, Options: opts})
	}
	return json.Marshal(doc)
}
