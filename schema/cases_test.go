package schema

import (
	"os"
	"strings"
	"testing"
)

// Inputs and schemas that several tests and the fuzzers share.

// embedded is schema.json as the program embeds it.
func embedded(t testing.TB) []byte {
	t.Helper()
	raw, err := os.ReadFile("../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// overrideSets are limit overrides the tests try: none, the smallest, and
// large ones.
var overrideSets = []Limits{
	{},
	{MaxQuestions: 1, MaxOptions: 2, HeaderMaxLength: 1, QuestionMaxLength: 1},
	{MaxQuestions: 40, MaxOptions: 26, HeaderMaxLength: 100, QuestionMaxLength: 100000},
}

// compileWith compiles the embedded schema with the limits l.
func compileWith(t testing.TB, l Limits) *Schema {
	t.Helper()
	s, err := Compile(embedded(t), l)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validationCases are inputs that fail (or pass) the schema in every way
// the tests could think of; they seed the fuzzers.
var validationCases = []string{
	`{"questions":[{"question":"Which?","header":"H","options":[{"label":"A","description":"a"},{"label":"B","description":"b"}],"multiSelect":false}]}`,
	`{"questions":[{"question":"Which?","header":"H","options":[{"label":"A","description":"a","preview":"p"},{"label":"B","description":"b"}],"multiSelect":true}],"metadata":{"x":[1,{}]},"answers":{"H":"A"}}`,
	`{}`, `[]`, `null`, `1`, `"s"`, `true`,
	`{"questions":[]}`, `{"questions":{}}`, `{"questions":[1,"x",null,[],{}]}`,
	`{"questions":[{}],"extra":1,"Questions":2}`,
	`{"questions":[{"question":"","header":"   ","options":[],"multiSelect":"no"}]}`,
	`{"questions":[{"question":1,"header":true,"options":[1,{"label":""},{"label":"x","description":"y","preview":5,"z":0}],"multiselect":false}]}`,
	`{"questions":[{"question":"Which?","header":"A header that is too long","options":[{"label":"A","description":"a"}],"multiSelect":false}]}`,
	`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"},{"label":"c","description":"d"},{"label":"d","description":"d"},{"label":"e","description":"d"}],"multiSelect":false}]}`,
	`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false},{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"A","description":"d"}],"multiSelect":false},{"question":"q","header":"i","options":[{"label":"Other","description":"d"},{"label":"b","description":"d"}],"multiSelect":false},{"question":"q","header":"j","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false},{"question":"q","header":"k","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false}]}`,
	`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false}],"answers":{"h":1,"x":"","a/b~c":null},"metadata":[]}`,
	`{"questions":[{"question":"` + strings.Repeat("x", 501) + `","header":"数据库数据库数据库数据库","options":[{"label":"` + strings.Repeat("é", 51) + `","description":"` + strings.Repeat("d", 201) + `","preview":"` + strings.Repeat("p", 4001) + `"},{"label":"\t","description":"\n"}],"multiSelect":false}]}`,
	`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false,"options":5}]}`,
	`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":null,"type":"x","placeholder":1}]}`,
	`{"questions":[{"question":"q","header":"h","options":[{"label":"a","description":"d"},{"label":"b","description":"d"}],"multiSelect":false}],"answers":{"h":"\u001b[31m"}}`,
	`{"answers":{"":null,"x":{"":1}},"questions":[{"":1}]}`,
	`{"answers":{" 0":null,"a/b~c%d":1,"é":[]},"questions":[{"?#":1}]}`,
	// Text questions, and what each type allows.
	`{"questions":[{"question":"Why?","header":"Why","type":"text","placeholder":"because"},{"question":"q","header":"t2","type":"text","options":[],"multiSelect":true,"placeholder":""},{"question":"q","header":"c","type":"choice","placeholder":"x","options":[{"label":"a","description":"d","preview":"p"},{"label":"b","description":"d"}],"multiSelect":true},{"question":"q","header":"e","type":"essay"}]}`,
	`{"questions":[{"question":"q","header":"h","type":null,"multiSelect":false},{"question":"q","header":"i","type":"text","multiSelect":false,"placeholder":"` + strings.Repeat("p", 101) + `"},{"question":"q","header":"j","multiSelect":true,"options":[{"label":"a","description":"d","preview":""},{"label":"b","description":"d","preview":5}]}]}`,
	// Blank in every way: ASCII and Unicode white space, and characters
	// that draw nothing.
	`{"questions":[{"question":"\t\n\f\r ","header":"\u000b","options":[{"label":"\u00a0","description":"\u2003"},{"label":"\u0085","description":"\ufeff"}],"multiSelect":false},{"question":"\u3000","header":"\u200b\u2060","options":[{"label":"\u2028","description":"\u00ad\u034f"},{"label":"\udb40\udc41","description":"\u0001"}],"multiSelect":false}]}`,
	// Labels that differ only by what draws nothing.
	`{"questions":[{"question":"q","header":"h","options":[{"label":"SQLite","description":"d"},{"label":"SQ\u200bLite","description":"d"},{"label":"Other\ufeff","description":"d"}],"multiSelect":false}]}`,
	// Presets and notes keyed by header and by question text.
	`{"questions":[{"question":"Which?","header":"H","options":[{"label":"A","description":"a"},{"label":"B","description":"b"}],"multiSelect":true}],"answers":{"Which?":"A, b, own"},"annotations":{"H":{"notes":"because"}}}`,
	`{"questions":[{"question":"Which?","header":"H","options":[{"label":"A","description":"a"},{"label":"B","description":"b"}],"multiSelect":false}],"answers":{"Which?":"A","H":"B"},"annotations":{"Which?":{"notes":" "},"x":{"notes":1,"note":""},"":{},"H":[]}}`,
	// Keys as the library escapes them in its locations.
	`{"annotations":{"a/b~c%d":{"":1}},"answers":{"%2F":1},"questions":[{"question":"q","header":"%2F","type":"text"}]}`,
}
