package schema_test

import (
	"errors"
	"fmt"
	"os"

	"github.com/askuser/askuser/schema"
)

// questions is what an agent sends: one multiple-choice question, with an
// answer given in advance keyed by the question's text.
const questions = `{
  "questions": [{
    "question": "Which database should we use?",
    "header": "Database",
    "options": [
      {"label": "PostgreSQL (Recommended)", "description": "Relational, rich features"},
      {"label": "SQLite", "description": "Embedded, zero configuration"}
    ],
    "multiSelect": false
  }],
  "answers": {"Which database should we use?": "sqlite"}
}`

// Compile the schema once, then parse questions with it: a valid document
// comes back as questions, with the answers given in advance keyed as
// asked.
func Example() {
	raw, err := os.ReadFile("../schema.json") // askuser embeds it
	if err != nil {
		panic(err)
	}
	s, err := schema.Compile(raw, schema.Limits{})
	if err != nil {
		panic(err)
	}
	in, err := s.Parse([]byte(questions), schema.KeyHeader)
	if err != nil {
		panic(err)
	}
	q := in.Questions[0]
	fmt.Printf("%s: %s (%s)\n", q.Header, q.Question, q.Kind)
	for _, o := range q.Options {
		fmt.Printf("- %s, recommended: %v\n", o.Label, o.Recommended())
	}
	fmt.Printf("given: %q\n", in.Answers["Database"])
	// Output:
	// Database: Which database should we use? (choice)
	// - PostgreSQL (Recommended), recommended: true
	// - SQLite, recommended: false
	// given: "sqlite"
}

// A document that is not valid is a *ValidationError, which lists every
// problem, each at its place in the document, in words for the one who
// wrote it.
func ExampleSchema_Parse_invalid() {
	raw, err := os.ReadFile("../schema.json")
	if err != nil {
		panic(err)
	}
	s, err := schema.Compile(raw, schema.Limits{})
	if err != nil {
		panic(err)
	}
	_, err = s.Parse([]byte(`{"questions":[{"question":"Which?","header":"A header that is too long","options":[{"label":"Other","description":"d"}],"multiSelect":false}]}`), schema.KeyHeader)
	if invalid, ok := errors.AsType[*schema.ValidationError](err); ok {
		for _, p := range invalid.Problems {
			fmt.Println(p)
		}
	}
	// Output:
	// questions[0].header: must be at most 12 characters (got 25)
	// questions[0].options: must have at least 2 items (got 1)
	// questions[0].options[0].label: must not be "Other": an Other choice is added to every question automatically
}

// Resolve reads an answer typed as text the way a person means it, and
// Check checks an answer as every view does, whichever it came from.
func ExampleQuestion_Check() {
	q := schema.Question{Question: "Which features?", Header: "Features", MultiSelect: true, Options: []schema.Option{
		{Label: "Login", Description: "Sign-in"},
		{Label: "Search", Description: "Full text"},
	}}
	labels, other := q.Resolve("search, login, export")
	a, err := q.Check(schema.Answer{Labels: labels, Other: other})
	fmt.Printf("%s (%v)\n", a, err)
	_, err = q.Check(schema.Answer{Labels: []string{"Billing"}})
	fmt.Println(err)
	// Output:
	// Login, Search, export (<nil>)
	// "Billing" is not one of the options
}

// A yes/no question, as askuser confirm asks it, and its answer.
func ExampleConfirmQuestion() {
	q := schema.ConfirmQuestion("Delete 15 files?", false)
	fmt.Println(q.Kind, q.Kind.Gesture() == schema.GestureYesNo, q.Default)
	a, _ := q.Check(schema.Answer{Labels: []string{schema.Yes}})
	fmt.Println(schema.IsYes(a))
	// Output:
	// confirm true No
	// true
}
