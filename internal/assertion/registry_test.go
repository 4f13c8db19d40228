package assertion_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/vars"
)

// The registry's test: every kind it lists is proved reachable from YAML,
// categorised, published in the schema, documented, and its references
// reported by `ananke validate` exactly as its binding needs them. A kind
// added without one of these fails here, naming what is missing.

// testFile is a test file holding example as its assert block (on line 4,
// from column 9), with or without a hook to set variables.
func testFile(example string, hooks bool) string {
	h := ""
	if hooks {
		h = "hooks: [{cmd: [setup]}]\n"
	}
	return "version: \"1.2\"\nname: kind\nturns: [{user: hi}]\nassert: " + example + "\n" + h
}

const registryConfig = `version: "1.2"
target: {type: agui, endpoint: "http://127.0.0.1:1/agent", agentId: a}
model: {endpoint: "http://127.0.0.1:1/v1", name: m}
`

// load loads a suite of the config (with the extra lines given) and one
// test file.
func load(t *testing.T, config, test string) (*spec.Suite, diag.Diagnostics) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{"ananke.config.yaml": registryConfig + config, "t.ananke.yaml": test} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := spec.Load(spec.Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	if err == nil {
		return s, nil
	}
	var ds diag.Diagnostics
	if !errors.As(err, &ds) {
		t.Fatal(err)
	}
	for i := range ds {
		ds[i].Pos.File = filepath.Base(ds[i].Pos.File)
	}
	return nil, ds
}

var refRE = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

func TestRegistry(t *testing.T) {
	root := repoRoot(t)
	schema := committedSchema(t, root)
	docs := docSections(t, root)
	seen := map[assertion.Kind]bool{}
	for _, d := range assertion.Defs() {
		t.Run(string(d.Kind), func(t *testing.T) {
			if seen[d.Kind] {
				t.Fatalf("%s is registered twice", d.Kind)
			}
			seen[d.Kind] = true
			if !slices.Contains(assertion.Categories, d.Category) {
				t.Errorf("category %q is not one of %v", d.Category, assertion.Categories)
			}
			if d.Example == "" {
				t.Fatal("no example")
			}
			checkSchema(t, root, schema, d)
			checkDocs(t, docs, d)
			checkReachable(t, d)
			checkRefs(t, d)
			checkClash(t, d)
		})
	}
}

// checkReachable loads the kind's example and finds checks of the kind,
// whose payloads set every field that may hold a reference.
func checkReachable(t *testing.T, d *assertion.Def) {
	t.Helper()
	s, diags := load(t, "", testFile(d.Example, true))
	if diags != nil {
		t.Fatalf("the example does not load:\n%v", diags)
	}
	var payloads []assertion.Payload
	for _, c := range checksOf(s) {
		if c.Kind == d.Kind {
			payloads = append(payloads, c.Payload)
		}
	}
	if len(payloads) == 0 {
		t.Fatalf("the example makes no %s check", d.Kind)
	}
	set := map[string]bool{}
	all := map[string]bool{}
	for _, p := range payloads {
		templatedFields(reflect.ValueOf(p), "", set, all)
	}
	for f := range all {
		if !set[f] && !slices.Contains(unreachable[d.Kind], f) {
			t.Errorf("the example leaves %s unset: give it a value with a ${…} reference, so the test proves validate and binding agree on it", f)
		}
	}
}

// unreachable are payload fields that may hold references but that a kind
// cannot write (the payload type is shared with a kind that can).
var unreachable = map[assertion.Kind][]string{
	assertion.KindTaskRuns: {".Match"}, // task_runs counts runs; outbound's messages match
}

var (
	templateType = reflect.TypeFor[vars.Template]()
	regexType    = reflect.TypeFor[vars.Regex]()
	valueType    = reflect.TypeFor[vars.Value]()
	assertPkg    = reflect.TypeFor[assertion.Check]().PkgPath()
)

// templatedFields walks a payload: every field of a type that may hold a
// ${…} reference goes to all, and to set when it holds something.
func templatedFields(v reflect.Value, path string, set, all map[string]bool) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.Type().Kind() == reflect.Pointer && v.Type().Elem() == regexType {
			all[path] = true
			set[path] = set[path] || !v.IsNil()
			return
		}
		if v.IsNil() {
			if v.Type().Kind() == reflect.Pointer {
				templatedFields(reflect.Zero(v.Type().Elem()), path, set, all)
			}
			return
		}
		templatedFields(v.Elem(), path, set, all)
	case reflect.Slice:
		if v.Len() == 0 {
			templatedFields(reflect.Zero(v.Type().Elem()), path, set, all)
		}
		for i := range v.Len() {
			templatedFields(v.Index(i), path, set, all)
		}
	case reflect.Struct:
		switch v.Type() {
		case templateType, valueType:
			all[path] = true
			set[path] = set[path] || !v.IsZero()
			return
		}
		if v.Type().PkgPath() != assertPkg {
			return // another package's value (a compiled schema, a JSONPath): no references
		}
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				templatedFields(v.Field(i), path+"."+f.Name, set, all)
			}
		}
	}
}

// checkRefs: without a hook, validate reports every ${…} of the example at
// its position; with one, binding needs exactly those.
func checkRefs(t *testing.T, d *assertion.Def) {
	t.Helper()
	names := map[string][]int{} // name → columns in the test file it may be reported at
	for _, m := range refRE.FindAllStringSubmatchIndex(d.Example, -1) {
		col := len("assert: ") + m[0] + 1
		names[d.Example[m[2]:m[3]]] = []int{col}
		if m[0] > 0 && d.Example[m[0]-1] == '"' {
			// At the start of a quoted string, a reference is reported at
			// the string (vars.OffsetPos).
			names[d.Example[m[2]:m[3]]] = append(names[d.Example[m[2]:m[3]]], col-1)
		}
	}
	_, diags := load(t, "", testFile(d.Example, false))
	for name, cols := range names {
		found := slices.ContainsFunc(diags, func(x diag.Diagnostic) bool {
			return x.Pos.Line == 4 && slices.Contains(cols, x.Pos.Col) && strings.HasPrefix(x.Message, "unknown variable ${"+name+"}")
		})
		if !found {
			t.Errorf("validate does not report ${%s} at t.ananke.yaml:4:%d in\n%v", name, cols[0], diags)
		}
	}
	if len(diags) != len(names) {
		t.Errorf("validate reports %d problems for %d references:\n%v", len(diags), len(names), diags)
	}
	s, diags := load(t, "", testFile(d.Example, true))
	if diags != nil {
		t.Fatal(diags)
	}
	checks := checksOf(s)
	bind := func(missing string) error {
		v := vars.NewVars(nil)
		for n := range names {
			if n != missing {
				v.Set(n, "v")
			}
		}
		_, err := assertion.BindChecks(checks, v)
		return err
	}
	if err := bind(""); err != nil {
		t.Errorf("binding with every variable set: %v", err)
	}
	for name := range names {
		if err := bind(name); err == nil || !strings.Contains(err.Error(), "${"+name+"}") {
			t.Errorf("binding without ${%s} = %v; validate reports it, so binding must need it", name, err)
		}
	}
}

// checkClash: two merged blocks that both set a single-valued kind clash;
// other kinds accumulate.
func checkClash(t *testing.T, d *assertion.Def) {
	t.Helper()
	config := "assertions:\n  a: " + d.Example + "\n  b: " + d.Example + "\n"
	_, diags := load(t, config, testFile("{extends: [a, b]}", true))
	clash := slices.ContainsFunc(diags, func(x diag.Diagnostic) bool {
		return strings.Contains(x.Message, string(d.Kind)+" is set twice")
	})
	switch {
	case d.Single && !clash:
		t.Errorf("%s is single-valued, but two blocks setting it do not clash: %v", d.Kind, diags)
	case !d.Single && diags != nil:
		t.Errorf("%s accumulates, but two blocks setting it are an error: %v", d.Kind, diags)
	}
}

func checksOf(s *spec.Suite) []assertion.Check {
	test := s.Tests[0]
	return append(spec.TurnChecks(s.Config, test, 0), spec.TestChecks(s.Config, test)...)
}

// checkSchema: the published test schema has the kind's property, and
// accepts the kind's example.
func checkSchema(t *testing.T, root string, schema map[string]any, d *assertion.Def) {
	t.Helper()
	props := func(m any) map[string]any {
		p, _ := m.(map[string]any)["properties"].(map[string]any)
		return p
	}
	defs, _ := schema["$defs"].(map[string]any)
	section, ok := props(defs["assert"])[d.Section()]
	if ok && d.Key() != "" {
		_, ok = props(section)[d.Key()]
	}
	if !ok {
		t.Errorf("schema/%s has no property for %s; regenerate it (go test ./internal/spec -run TestSchemaCommitted -update)", spec.SchemaFile("test"), d.Kind)
		return
	}
	raw, _ := json.Marshal(schema)
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	c := jsonschema.NewCompiler()
	if err := c.AddResource("test.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("test.json")
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal([]byte(testFile(d.Example, true)), &v); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(v)
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err := sch.Validate(inst); err != nil {
		t.Errorf("the schema rejects the example: %v", err)
	}
}

func committedSchema(t *testing.T, root string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "schema", spec.SchemaFile("test")))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// checkDocs: docs/files.md has the kind's section, and it shows the
// kind's key.
func checkDocs(t *testing.T, docs map[string]string, d *assertion.Def) {
	t.Helper()
	text, ok := docs[d.Doc]
	if !ok {
		t.Errorf("docs/files.md has no section %q", d.Doc)
		return
	}
	key := d.Key()
	if key == "" {
		key = d.Section()
	}
	if !strings.Contains(text, key+":") && !strings.Contains(text, "`"+key+"`") {
		t.Errorf("docs/files.md's section %q does not show %s (as %q or `%s`)", d.Doc, d.Kind, key+":", key)
	}
}

// docSections reads docs/files.md's sections by heading: each holds its
// text up to the next heading.
func docSections(t *testing.T, root string) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "docs", "files.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	heading, fenced := "", false
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if !fenced && strings.HasPrefix(line, "#") {
			heading = strings.TrimSpace(strings.TrimLeft(line, "#"))
			continue
		}
		out[heading] += line + "\n"
	}
	return out
}

// TestSections: every section field is a kind or an option, and every
// kind's key is a field of its section.
func TestSections(t *testing.T) {
	schema := committedSchema(t, repoRoot(t))
	assertProps := schema["$defs"].(map[string]any)["assert"].(map[string]any)["properties"].(map[string]any)
	for _, d := range assertion.Defs() {
		sec, ok := assertProps[d.Section()].(map[string]any)
		if !ok {
			t.Errorf("%s: no section %q in the block", d.Kind, d.Section())
			continue
		}
		if d.Key() == "" {
			continue
		}
		props, _ := sec["properties"].(map[string]any)
		if _, ok := props[d.Key()]; !ok {
			t.Errorf("%s: section %q has no field %q", d.Kind, d.Section(), d.Key())
		}
	}
	for name, sec := range assertProps {
		props, _ := sec.(map[string]any)["properties"].(map[string]any)
		if props == nil || name == "requires" || name == "severity" || name == "extends" {
			continue
		}
		for key := range props {
			if assertion.Lookup(assertion.Kind(name+"."+key)) == nil && !slices.Contains(options, name+"."+key) && assertion.Lookup(assertion.Kind(name)) == nil {
				t.Errorf("section %s has field %q, which is no kind and no option", name, key)
			}
		}
	}
}

// options are the section fields that are not kinds.
var options = []string{"text.case_sensitive"}

func repoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}
