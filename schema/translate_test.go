package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// q is a valid single-select question with two options.
func q(question, header string) string {
	return qOpts(question, header, 2)
}

// qOpts is a valid single-select question with n options.
func qOpts(question, header string, n int) string {
	opts := make([]string, n)
	for i := range opts {
		opts[i] = fmt.Sprintf(`{"label":"Option %d","description":"Choice %d"}`, i+1, i+1)
	}
	return fmt.Sprintf(`{"question":%q,"header":%q,"options":[%s],"multiSelect":false}`,
		question, header, strings.Join(opts, ","))
}

// doc is an input document with the questions qs.
func doc(qs ...string) string {
	return `{"questions":[` + strings.Join(qs, ",") + `]}`
}

func compileDefault(t *testing.T) *Schema {
	t.Helper()
	s, err := Compile(embedded(t), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// problems parses input, which must be invalid, and returns its problems
// as printed.
func problems(t *testing.T, s *Schema, input string, key KeyBy) []string {
	t.Helper()
	_, err := s.Parse([]byte(input), key)
	ve, ok := errors.AsType[*ValidationError](err)
	if !ok {
		t.Fatalf("Parse(%s) = %v, want a *ValidationError", input, err)
	}
	out := make([]string, len(ve.Problems))
	for i, p := range ve.Problems {
		out[i] = p.String()
	}
	return out
}

func TestValidationProblems(t *testing.T) {
	s := compileDefault(t)
	opt := func(label string) string { return fmt.Sprintf(`{"label":%q,"description":"d"}`, label) }
	tests := []struct {
		name  string
		input string
		key   KeyBy
		want  []string
	}{
		{"not an object", `"questions"`, KeyHeader, []string{
			"input: must be an object (got string)",
		}},
		{"null", `null`, KeyHeader, []string{
			"input: must be an object (got null)",
		}},
		{"no questions", `{}`, KeyHeader, []string{
			"questions: required",
		}},
		{"questions not an array", `{"questions":{"a":1}}`, KeyHeader, []string{
			"questions: must be an array (got object)",
		}},
		{"no question", `{"questions":[]}`, KeyHeader, []string{
			"questions: must have at least 1 item (got 0)",
		}},
		{"too many questions", doc(q("1?", "1"), q("2?", "2"), q("3?", "3"), q("4?", "4"), q("5?", "5")), KeyHeader, []string{
			"questions: must have at most 4 items (got 5)",
		}},
		{"empty question object", `{"questions":[{}]}`, KeyHeader, []string{
			"questions[0].question: required",
			"questions[0].header: required",
			"questions[0].options: required",
			"questions[0].multiSelect: required",
		}},
		{"wrong types", `{"questions":[{"question":true,"header":1.5,"options":"a, b","multiSelect":null}]}`, KeyHeader, []string{
			"questions[0].question: must be a string (got boolean)",
			"questions[0].header: must be a string (got number)",
			"questions[0].options: must be an array (got string)",
			"questions[0].multiSelect: must be true or false (got null)",
		}},
		{"one option", `{"questions":[{"question":"Q?","header":"H","options":[` + opt("A") + `],"multiSelect":true}]}`, KeyHeader, []string{
			"questions[0].options: must have at least 2 items (got 1)",
		}},
		{"five options", doc(qOpts("Q?", "H", 5)), KeyHeader, []string{
			"questions[0].options: must have at most 4 items (got 5)",
		}},
		{"empty and blank", `{"questions":[{"question":"","header":" \t","options":[{"label":"","description":"\n"},` + opt("B") + `],"multiSelect":false}]}`, KeyHeader, []string{
			"questions[0].question: must not be empty",
			"questions[0].header: must not be blank",
			"questions[0].options[0].label: must not be empty",
			"questions[0].options[0].description: must not be blank",
		}},
		{"lengths in characters", doc(q(strings.Repeat("é", 501), strings.Repeat("語", 13))), KeyHeader, []string{
			"questions[0].question: must be at most 500 characters (got 501)",
			"questions[0].header: must be at most 12 characters (got 13)",
		}},
		{"label and description too long", `{"questions":[{"question":"Q?","header":"H","options":[{"label":"` + strings.Repeat("l", 51) + `","description":"` + strings.Repeat("d", 201) + `","preview":"` + strings.Repeat("p", 4001) + `"},` + opt("B") + `],"multiSelect":false}]}`, KeyHeader, []string{
			"questions[0].options[0].label: must be at most 50 characters (got 51)",
			"questions[0].options[0].description: must be at most 200 characters (got 201)",
			"questions[0].options[0].preview: must be at most 4000 characters (got 4001)",
		}},
		{"unknown field, suggested", `{"questions":[{"question":"Q?","header":"H","options":[` + opt("A") + `,` + opt("B") + `],"multiselect":false}]}`, KeyHeader, []string{
			"questions[0].multiSelect: required",
			`questions[0].multiselect: unknown field; did you mean "multiSelect"?`,
		}},
		{"unknown field, listed", `{"questions":[` + q("Q?", "H") + `],"priority":"high"}`, KeyHeader, []string{
			"priority: unknown field (allowed: questions, metadata, answers, annotations)",
		}},
		{"unknown option field, with a space", `{"questions":[{"question":"Q?","header":"H","options":[{"label":"A","description":"d","the note":"x"},` + opt("B") + `],"multiSelect":false}]}`, KeyHeader, []string{
			`questions[0].options[0]["the note"]: unknown field (allowed: label, description, preview)`,
		}},
		{"duplicate header", doc(q("A?", "Same"), q("B?", "Same"), q("C?", "Same")), KeyHeader, []string{
			`questions[1].header: same as questions[0].header ("Same"); answers are keyed by header, so each must be different`,
			`questions[2].header: same as questions[0].header ("Same"); answers are keyed by header, so each must be different`,
		}},
		{"duplicate header keyed by question", doc(q("A?", "Same"), q("B?", "Same")), KeyQuestion, nil},
		{"duplicate question keyed by question", doc(q("Same?", "A"), q("Same?", "B")), KeyQuestion, []string{
			`questions[1].question: same as questions[0].question ("Same?"); answers are keyed by question text, so each must be different`,
		}},
		{"headers differing in case", doc(q("A?", "Auth"), q("B?", "auth")), KeyHeader, nil},
		{"duplicate labels ignoring case", `{"questions":[{"question":"Q?","header":"H","options":[` + opt("Yes") + `,` + opt(" YES ") + `,` + opt("yes") + `],"multiSelect":true}]}`, KeyHeader, []string{
			`questions[0].options[1].label: same as options[0].label (" YES "); labels must differ, ignoring case`,
			`questions[0].options[2].label: same as options[0].label ("yes"); labels must differ, ignoring case`,
		}},
		{"Other", `{"questions":[{"question":"Q?","header":"H","options":[` + opt("A") + `,` + opt("other") + `],"multiSelect":false}]}`, KeyHeader, []string{
			`questions[0].options[1].label: must not be "other": an Other choice is added to every question automatically`,
		}},
		{"Other-like labels are fine", `{"questions":[{"question":"Q?","header":"H","options":[` + opt("Others") + `,` + opt("Other (specify)") + `],"multiSelect":false}]}`, KeyHeader, nil},
		{"metadata of any shape", `{"questions":[` + q("Q?", "H") + `],"metadata":{"a":[1,{"b":null}],"multiselect":1}}`, KeyHeader, nil},
		{"metadata not an object", `{"questions":[` + q("Q?", "H") + `],"metadata":[]}`, KeyHeader, []string{
			"metadata: must be an object (got array)",
		}},
		{"answers", `{"questions":[` + q("Q?", "Database") + `,` + q("R?", "Region") + `],"answers":{"Databse":"Option 1","Region":"","Colour":"red","Other":1}}`, KeyHeader, []string{
			`answers.Colour: no question has this header or question text`,
			`answers.Databse: no question has this header or question text; did you mean "Database"?`,
			`answers.Other: must be a string (got number)`,
			`answers.Other: no question has this header or question text`,
			`answers.Region: must not be empty`,
		}},
		{"answers by question", `{"questions":[` + q("Which database?", "Database") + `],"answers":{"Datbase":"Option 1","Which databse?":"x"}}`, KeyQuestion, []string{
			`answers.Datbase: no question has this header or question text; did you mean "Database"?`,
			`answers["Which databse?"]: no question has this header or question text; did you mean "Which database?"?`,
		}},
		{"answers by header or question text, whatever the key", `{"questions":[` + q("Which database?", "Database") + `,` + q("Which region?", "Region") + `],"answers":{"Which database?":"Option 1","Region":"Option 2"}}`, KeyHeader, nil},
		{"the same question answered twice", `{"questions":[` + q("Which database?", "Database") + `,` + q("Which region?", "Region") + `],"answers":{"Which database?":"Option 1","Database":"Option 2","Region":"Option 1","Which region?":"Option 1"}}`, KeyHeader, []string{
			`answers["Which database?"]: names the same question as answers.Database; keep one of the two`,
			`answers["Which region?"]: names the same question as answers.Region; keep one of the two`,
		}},
		{"the same question answered twice, by question", `{"questions":[` + q("Which database?", "Database") + `],"answers":{"Which database?":"Option 1","Database":"Option 2"}}`, KeyQuestion, []string{
			`answers.Database: names the same question as answers["Which database?"]; keep one of the two`,
		}},
		{"a question text that two questions share", `{"questions":[` + q("Which one?", "First") + `,` + q("Which one?", "Second") + `],"answers":{"Which one?":"Option 1"},"annotations":{"Which one?":{"notes":"n"}}}`, KeyHeader, []string{
			`answers["Which one?"]: names questions[0] and questions[1], which have this question text; key it by header`,
			`annotations["Which one?"]: names questions[0] and questions[1], which have this question text; key it by header`,
		}},
		{"a key that is one question's header and another's text names the first", `{"questions":[` + q("Why?", "How?") + `,` + q("How?", "Why") + `],"answers":{"How?":"Option 1"}}`, KeyHeader, nil},
		{"annotations", `{"questions":[` + q("Which database?", "Database") + `,` + q("Which region?", "Region") + `],"annotations":{"Which database?":{"notes":"small data"},"Region":{"notes":"near users"}}}`, KeyHeader, nil},
		{"annotations checked strictly", `{"questions":[` + q("Which database?", "Database") + `,` + q("Which region?", "Region") + `],"annotations":{"Databse":{"notes":"x"},"Which database?":{"note":"x"},"Region":{"notes":"\u3000"},"Which region?":{"notes":""}},"x":1}`, KeyHeader, []string{
			`annotations.Databse: no question has this header or question text; did you mean "Database"?`,
			`annotations.Region.notes: must not be blank`,
			`annotations["Which database?"].notes: required`,
			`annotations["Which database?"].note: unknown field; did you mean "notes"?`,
			`annotations["Which region?"]: names the same question as annotations.Region; keep one of the two`,
			"x: unknown field (allowed: questions, metadata, answers, annotations)",
		}},
		{"answers not strings", `{"questions":[` + q("Q?", "H") + `],"answers":[]}`, KeyHeader, []string{
			"answers: must be an object (got array)",
		}},
		{"path order", `{"answers":{"H":" "},"metadata":1,"questions":[{"multiSelect":1,"options":[{"description":"d","label":"Other"}],"header":"H","question":""},"x"],"extra":true}`, KeyHeader, []string{
			"questions[0].question: must not be empty",
			"questions[0].options: must have at least 2 items (got 1)",
			`questions[0].options[0].label: must not be "Other": an Other choice is added to every question automatically`,
			"questions[0].multiSelect: must be true or false (got number)",
			"questions[1]: must be an object (got string)",
			"metadata: must be an object (got number)",
			"answers.H: must not be blank",
			"extra: unknown field (allowed: questions, metadata, answers, annotations)",
		}},
		{"blank in Unicode's way", `{"questions":[{"question":"\u2028","header":"\u3000","options":[{"label":"\u00a0","description":"\u000b"},{"label":"\ufeff","description":"\u200b"}],"multiSelect":false}]}`, KeyHeader, []string{
			"questions[0].question: must not be blank",
			"questions[0].header: must not be blank",
			"questions[0].options[0].label: must not be blank",
			"questions[0].options[0].description: must not be blank",
			"questions[0].options[1].label: must not be blank",
			"questions[0].options[1].description: must not be blank",
		}},
		{"text around white space and invisible characters is not blank", `{"questions":[{"question":"\u3000Which?\u200b","header":"\u00a0H","options":[{"label":"\u2060A","description":"\u00ada"},{"label":"B","description":"b"}],"multiSelect":false}]}`, KeyHeader, nil},
		{"labels compared without what draws nothing", `{"questions":[{"question":"Q?","header":"H","options":[` + opt("SQLite") + `,` + opt("SQ\u200bLite") + `,` + opt("Other\u200b") + `,` + opt("\u2060other\ufeff") + `],"multiSelect":false}]}`, KeyHeader, []string{
			`questions[0].options[1].label: same as options[0].label ("SQ\u200bLite"); labels must differ, ignoring case`,
			`questions[0].options[2].label: must not be "Other\u200b": an Other choice is added to every question automatically`,
			`questions[0].options[3].label: must not be "\u2060other\ufeff": an Other choice is added to every question automatically`,
		}},
		{"headers compared without what draws nothing", doc(q("A?", "Database"), q("B?", "Data\u200dbase")), KeyHeader, []string{
			`questions[1].header: same as questions[0].header ("Data\u200dbase"); answers are keyed by header, so each must be different`,
		}},
		{"preset answers blank in Unicode's way", `{"questions":[` + q("A?", "A") + `,` + q("B?", "B") + `,` + q("C?", "C") + `],"answers":{"A":"\u3000","B?":"\u200b\u00a0","C":"\u2028 "}}`, KeyHeader, []string{
			"answers.A: must not be blank",
			`answers["B?"]: must not be blank`,
			"answers.C: must not be blank",
		}},
		{"preview in a multi-select question", `{"questions":[{"question":"Q?","header":"H","options":[{"label":"A","description":"a","preview":"p"},` + opt("B") + `],"multiSelect":true}]}`, KeyHeader, []string{
			`questions[0].options[0].preview: not allowed when multiSelect is true`,
		}},
		{"options where none are allowed, said once", `{"questions":[{"question":"Q?","header":"H","type":"text","options":[{"label":"Other","description":""}]}]}`, KeyHeader, []string{
			`questions[0].options: not allowed when type is "text"`,
		}},
		{"what a text question may not have", `{"questions":[{"question":"Q?","header":"H","type":"text","multiSelect":true,"placeholder":"p"},{"question":"Q?","header":"I","type":"text","multiSelect":false}]}`, KeyHeader, []string{
			`questions[0].multiSelect: must be false when type is "text"`,
		}},
		{"a field given twice counts as its last value, as in every JSON decoder of maps", `{"questions":[{"question":"Q?","header":"H","options":"none","options":[` + opt("A") + `,` + opt("B") + `],"multiSelect":false}],"questions":[` + q("R?", "R") + `]}`, KeyHeader, nil},
		{"index order is numeric", doc(q("0?", "H0"), q("1?", "H1"), q("2?", "H2"), q(strings.Repeat("x", 501), "H3")) + ` `, KeyHeader, []string{
			"questions[3].question: must be at most 500 characters (got 501)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == nil {
				if _, err := s.Parse([]byte(tt.input), tt.key); err != nil {
					t.Fatalf("Parse: %v", err)
				}
				return
			}
			got := problems(t, s, tt.input, tt.key)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("problems\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
			}
		})
	}
}

func TestValidationErrorHasNoLibraryText(t *testing.T) {
	s := compileDefault(t)
	_, err := s.Parse([]byte(`{"questions":[{"question":1,"header":"","options":[{}],"multiselect":0}],"x":{}}`), KeyHeader)
	if err == nil {
		t.Fatal("no error")
	}
	for _, bad := range []string{"#/", "jsonschema", "askuser:", "$defs", "additionalProperties", "doesn't validate"} {
		if strings.Contains(err.Error(), bad) {
			t.Errorf("error mentions %q: %v", bad, err)
		}
	}
}

func TestParseValid(t *testing.T) {
	s := compileDefault(t)
	in, err := s.Parse([]byte(`{
		"questions":[{"question":"Which?","header":"Which","multiSelect":false,
			"options":[{"label":"A","description":"a","preview":"p"},{"label":"B","description":"b"}]}],
		"metadata":{"x":1},
		"answers":{"Which":"A"}}`), KeyHeader)
	if err != nil {
		t.Fatal(err)
	}
	want := Question{
		Question: "Which?", Header: "Which",
		Options: []Option{{Label: "A", Description: "a", Preview: "p"}, {Label: "B", Description: "b"}},
	}
	if len(in.Questions) != 1 || !reflect.DeepEqual(in.Questions[0], want) {
		t.Errorf("Questions = %+v", in.Questions)
	}
	if in.Answers["Which"] != "A" {
		t.Errorf("Answers = %v", in.Answers)
	}
}

func TestSyntaxErrors(t *testing.T) {
	s := compileDefault(t)
	tests := []struct {
		input string
		want  string
	}{
		{`{"questions":[}`, "unexpected '}' at line 1, column 15; expected a value: an object, an array, a string in double quotes, a number, true, false or null"},
		{"{\n  \"questions\": [\n    {\"question\": x}\n  ]\n}", "unexpected 'x' at line 3, column 18; expected a value: an object, an array, a string in double quotes, a number, true, false or null"},
		{`{"é": "ü" "x"}`, "unexpected '\"' at line 1, column 11; expected a comma, or the } that closes the object"},
		{`[1 2]`, "unexpected '2' at line 1, column 4; expected a comma, or the ] that closes the array"},
		{`{"a" 1}`, "unexpected '1' at line 1, column 6; expected a colon after the key"},
		{`{"a":1,}`, "unexpected '}' at line 1, column 8; expected a key in double quotes"},
		{`not json`, "unexpected 'o' at line 1, column 2; expected true, false or null, as any other text goes in double quotes"},
		{`[1.x]`, "unexpected 'x' at line 1, column 4; expected a digit"},
		{`["a\qb"]`, "unexpected 'q' at line 1, column 5; expected an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hexadecimal digits"},
		{"[\"a\nb\"]", "unexpected '\\n' at line 1, column 4; expected the closing quote: a line break or tab in a string is written \\n or \\t"},
		{`{"questions":[`, "unexpected end of input at line 1, column 15; expected the rest of the document, every { and [ closed"},
		{"{\n", "unexpected end of input at line 2, column 1; expected the rest of the document, every { and [ closed"},
		{`{} []`, "unexpected content after the JSON document at line 1, column 4; expected nothing more: give one document"},
		{"{}\n\n  x", "unexpected content after the JSON document at line 3, column 3; expected nothing more: give one document"},
		{`questions`, "unexpected 'q' at line 1, column 1; expected a value: an object, an array, a string in double quotes, a number, true, false or null"},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			_, err := s.Parse([]byte(tt.input), KeyHeader)
			se, ok := errors.AsType[*SyntaxError](err)
			if !ok {
				t.Fatalf("err = %v, want a *SyntaxError", err)
			}
			if se.Error() != tt.want {
				t.Errorf("\n got %s\nwant %s", se, tt.want)
			}
		})
	}
}

func TestParseTooLarge(t *testing.T) {
	s := compileDefault(t)
	pad := strings.Repeat(" ", MaxInputSize-len(doc(q("Q?", "H"))))
	if _, err := s.Parse([]byte(doc(q("Q?", "H"))+pad), KeyHeader); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	_, err := s.Parse([]byte(doc(q("Q?", "H"))+pad+" "), KeyHeader)
	tl, ok := errors.AsType[*TooLargeError](err)
	if !ok {
		t.Fatalf("err = %v, want a *TooLargeError", err)
	}
	if tl.Size != MaxInputSize+1 {
		t.Errorf("Size = %d", tl.Size)
	}
}

func TestFormatPath(t *testing.T) {
	tests := []struct {
		tokens []any
		want   string
	}{
		{nil, "input"},
		{[]any{"questions"}, "questions"},
		{[]any{"questions", 0, "options", 12, "label"}, "questions[0].options[12].label"},
		{[]any{"answers", "Auth method"}, `answers["Auth method"]`},
		{[]any{"answers", "数据库"}, `answers["数据库"]`},
		{[]any{"answers", `a"b`}, `answers["a\"b"]`},
		{[]any{"answers", "x1"}, "answers.x1"},
		{[]any{"answers", "1x"}, `answers["1x"]`},
	}
	for _, tt := range tests {
		if got := formatPath(tt.tokens); got != tt.want {
			t.Errorf("formatPath(%v) = %s, want %s", tt.tokens, got, tt.want)
		}
	}
}

// Where the library would point at the parent of an empty key, or at a
// URL-escaped key, askuser names the key as written.
func TestOddKeysAreNamed(t *testing.T) {
	s := compileDefault(t)
	question := q("q", "h")
	for input, want := range map[string]string{
		`"answers":{"":null}`:                   `answers[""]: must be a string (got null)`,
		`"answers":{" 0":null}`:                 `answers[" 0"]: must be a string (got null)`,
		`"answers":{"a/b~c%d":1}`:               `answers["a/b~c%d"]: must be a string (got number)`,
		`"annotations":{"":{"notes":1}}`:        `annotations[""].notes: must be a string (got number)`,
		`"annotations":{"":{}}`:                 `annotations[""].notes: required`,
		`"annotations":{"%2F":{"":1}}`:          `annotations["%2F"][""]: unknown field (allowed: notes)`,
		`"annotations":{"h":{"":1,"notes":""}}`: `annotations.h[""]: unknown field (allowed: notes)`,
		`"":1`:                                  `[""]: unknown field (allowed: questions, metadata, answers, annotations)`,
	} {
		_, err := s.Parse([]byte(`{"questions":[`+question+`],`+input+`}`), KeyHeader)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want it to hold %q", input, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "empty key") {
			t.Errorf("%s: err = %v names the key the library was given", input, err)
		}
	}
}

// Every keyword of schema.json is one that translate explains in its own
// words, so that no problem is worded by the library.
func TestEveryKeywordIsTranslated(t *testing.T) {
	var walk func(v any, at string, schema bool)
	walk = func(v any, at string, isSchema bool) {
		m, ok := v.(map[string]any)
		if !ok || !isSchema {
			return
		}
		for k, sub := range m {
			switch k {
			case "type", "required", "minLength", "maxLength", "pattern", "minItems", "maxItems", "const", "enum", "$ref",
				"$schema", "$comment", "title", "description":
			case "additionalProperties", "items", "if", "then", "else":
				walk(sub, at+"/"+k, true)
			case "properties", "$defs":
				for name, p := range sub.(map[string]any) {
					walk(p, at+"/"+k+"/"+name, true)
				}
			case "allOf":
				for i, p := range sub.([]any) {
					walk(p, fmt.Sprintf("%s/allOf/%d", at, i), true)
				}
			default:
				t.Errorf("%s: keyword %q: translate does not word its problems", at, k)
			}
		}
	}
	var doc any
	if err := json.Unmarshal(embedded(t), &doc); err != nil {
		t.Fatal(err)
	}
	walk(doc, "", true)
}

// A UTF-8 byte-order mark, as some editors write, may start the input. It
// counts toward the size limit but not as a column.
func TestParseByteOrderMark(t *testing.T) {
	s := compileDefault(t)
	if _, err := s.Parse([]byte("\ufeff"+doc(q("Q?", "H"))), KeyHeader); err != nil {
		t.Errorf("after a byte-order mark: %v", err)
	}
	_, err := s.Parse([]byte("\ufeff"+`{"questions":[}`), KeyHeader)
	if err == nil || err.Error() != "unexpected '}' at line 1, column 15; expected a value: an object, an array, a string in double quotes, a number, true, false or null" {
		t.Errorf("syntax error after a byte-order mark: %v", err)
	}
	// Only one, and only at the start.
	for _, input := range []string{"\ufeff\ufeff" + doc(q("Q?", "H")), " \ufeff" + doc(q("Q?", "H"))} {
		_, err := s.Parse([]byte(input), KeyHeader)
		if _, ok := errors.AsType[*SyntaxError](err); !ok {
			t.Errorf("%q: err = %v, want a *SyntaxError", input, err)
		}
	}
	pad := strings.Repeat(" ", MaxInputSize-len(doc(q("Q?", "H")))-2)
	_, err = s.Parse([]byte("\ufeff"+doc(q("Q?", "H"))+pad), KeyHeader)
	_, ok := errors.AsType[*TooLargeError](err)
	if !ok {
		t.Errorf("1 MiB and a byte-order mark: err = %v, want a *TooLargeError", err)
	}
}

// metadataOfSmallObjects is a valid input whose metadata, many small
// objects, brings it to nearly MaxInputSize.
func metadataOfSmallObjects() []byte {
	var b strings.Builder
	b.WriteString(`{"questions":[` + q("Q?", "H") + `],"metadata":{`)
	for i := 0; b.Len() < MaxInputSize-100; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":{"a":[1]}`, i)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// metadata is checked to be an object without being built: a megabyte of
// small objects there took 36 MB of maps (335,000 allocations); skipped, it
// takes about 5 MB, mostly the decoder's buffer.
func TestMetadataIsNotBuilt(t *testing.T) {
	s := compileDefault(t)
	data := metadataOfSmallObjects()
	if _, err := s.Parse(data, KeyHeader); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := s.Parse(data, KeyHeader); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 8*MaxInputSize {
		t.Errorf("parsing %d bytes allocated %d bytes", len(data), got)
	}
}

// metadata is skipped only while the schema asks nothing of it but its
// type: a schema that says more is applied to the value in full.
func TestMetadataIsBuiltWhenTheSchemaLooksInside(t *testing.T) {
	raw := strings.Replace(string(embedded(t)),
		`"description": "Free-form data for the caller (analytics, tracing); ignored.",`,
		`"description": "Free-form data for the caller (analytics, tracing); ignored.", "required": ["trace"],`, 1)
	s, err := Compile([]byte(raw), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got := problems(t, s, `{"questions":[`+q("Q?", "H")+`],"metadata":{"x":1}}`, KeyHeader)
	if want := []string{"metadata.trace: required"}; !reflect.DeepEqual(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
	for _, m := range []string{`"x"`, `[]`, `null`, `1.5`, `true`} {
		got := problems(t, compileDefault(t), `{"questions":[`+q("Q?", "H")+`],"metadata":`+m+`}`, KeyHeader)
		if len(got) != 1 || !strings.HasPrefix(got[0], "metadata: must be an object (got ") {
			t.Errorf("metadata %s: problems %q", m, got)
		}
	}
}

// Questions and options past one more than the limits allow are not
// examined: they cannot be asked and must go anyway, and 1 MiB of them
// would otherwise make a million problems. The count is the whole one.
func TestProblemsStopPastTheLimits(t *testing.T) {
	s := compileWith(t, Limits{MaxQuestions: 2, MaxOptions: 3})
	qs := make([]string, 1000)
	for i := range qs {
		qs[i] = `{"question":"Q?","header":"H","options":[{"label":"Other","description":""}],"multiSelect":false}`
	}
	opts := make([]string, 1000)
	for i := range opts {
		opts[i] = `{"label":"A","description":""}`
	}
	qs[0] = `{"question":"Q?","header":"First","options":[` + strings.Join(opts, ",") + `],"multiSelect":false}`
	got := problems(t, s, doc(qs...), KeyHeader)
	want := []string{
		"questions: must have at most 2 items (got 1000)",
		"questions[0].options: must have at most 3 items (got 1000)",
		"questions[0].options[0].description: must not be empty",
		`questions[0].options[1].label: same as options[0].label ("A"); labels must differ, ignoring case`,
		"questions[0].options[1].description: must not be empty",
		`questions[0].options[2].label: same as options[0].label ("A"); labels must differ, ignoring case`,
		"questions[0].options[2].description: must not be empty",
		`questions[0].options[3].label: same as options[0].label ("A"); labels must differ, ignoring case`,
		"questions[0].options[3].description: must not be empty",
		"questions[1].options: must have at least 2 items (got 1)",
		`questions[1].options[0].label: must not be "Other": an Other choice is added to every question automatically`,
		"questions[1].options[0].description: must not be empty",
		`questions[2].header: same as questions[1].header ("H"); answers are keyed by header, so each must be different`,
		"questions[2].options: must have at least 2 items (got 1)",
		`questions[2].options[0].label: must not be "Other": an Other choice is added to every question automatically`,
		"questions[2].options[0].description: must not be empty",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	// The document itself is left as it was.
	var in any
	if err := json.Unmarshal([]byte(doc(qs...)), &in); err != nil {
		t.Fatal(err)
	}
	raw, _ := decodeAll[any]([]byte(doc(qs...)))
	s.withinLimits(raw)
	if !reflect.DeepEqual(plainNumbers(raw), in) {
		t.Error("withinLimits changed the document")
	}
}

// plainNumbers turns the json.Numbers of a decoded value into float64s, as
// json.Unmarshal makes them.
func plainNumbers(v any) any {
	b, _ := json.Marshal(v)
	var out any
	json.Unmarshal(b, &out)
	return out
}
