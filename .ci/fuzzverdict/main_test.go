package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The logs under testdata are real go test output: pass.log and
// finding.log (a panic planted in the parser, fuzzed under go1.27.3) from
// FuzzParseScenario; deadline.log is the race as go1.26.8 printed it
// (a test binary run 550 times at -fuzztime 200ms under load: 5 bare
// deadlines) in go test's framing, as in issue 24.
func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const target = "FuzzParseScenario"

func TestJudge(t *testing.T) {
	deadline := fixture(t, "deadline.log")
	for _, c := range []struct {
		name   string
		rc     int
		out    string
		fresh  []string
		want   verdict
		inputs []string
	}{
		{"clean pass", 0, fixture(t, "pass.log"), nil, pass, nil},
		{"bare deadline", 1, deadline, nil, bareDeadline, nil},
		{"real finding", 1, fixture(t, "finding.log"), nil, finding, []string{"91730a8c226143a7"}},
		{"real finding, its input seen written", 1, fixture(t, "finding.log"), []string{"91730a8c226143a7"}, finding, []string{"91730a8c226143a7"}},
		// the race can eat the message of a crash being minimised at the
		// boundary; its input is still written
		{"deadline with an input written", 1, strings.Replace(deadline, "--- FAIL", "fuzz: minimizing 586-byte failing input file\n--- FAIL", 1), []string{"0123abcd"}, finding, []string{"0123abcd"}},
		{"deadline and a worker dying", 1, strings.Replace(deadline, "FAIL\n", "FAIL\nfuzzing process hung or terminated unexpectedly: exit status 2\n", 1), nil, finding, nil},
		{"deadline from another target", 1, strings.ReplaceAll(deadline, target, "FuzzOther"), nil, finding, nil},
		{"a build failure", 1, "# github.com/kvizlab/kviz/model\nmodel/parse.go:3:1: syntax error\nFAIL\tgithub.com/kvizlab/kviz/model [build failed]\n", nil, finding, nil},
		{"failing without output", 2, "", nil, finding, nil},
		{"passing but writing an input", 0, fixture(t, "pass.log"), []string{"0123abcd"}, finding, []string{"0123abcd"}},
	} {
		v, inputs := judge(c.rc, c.out, target, c.fresh)
		if v != c.want || !slices.Equal(inputs, c.inputs) {
			t.Errorf("%s: judged %d with inputs %v, want %d with %v", c.name, v, inputs, c.want, c.inputs)
		}
	}
}

// The command compares the corpus directory with its listing from before
// the run, and names each new input with the command that replays it.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "testdata", "fuzz", target)
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	before := filepath.Join(dir, "before")
	if err := os.WriteFile(filepath.Join(corpus, "old"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(before, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	judgeRun := func(rc, log string) (int, string) {
		var out, errs bytes.Buffer
		code := run([]string{"-pkg", "example.com/m", "-target", target, "-corpus", corpus, "-before", before, "-rc", rc},
			strings.NewReader(log), &out, &errs)
		return code, out.String() + errs.String()
	}
	if code, out := judgeRun("0", fixture(t, "pass.log")); code != 0 || out != "" {
		t.Errorf("a pass: exit %d, %q", code, out)
	}
	if code, out := judgeRun("1", fixture(t, "deadline.log")); code != 2 || !strings.Contains(out, "golang/go#75804") {
		t.Errorf("a bare deadline: exit %d, %q", code, out)
	}
	if err := os.WriteFile(filepath.Join(corpus, "fresh"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := judgeRun("1", fixture(t, "deadline.log"))
	want := "failing input: " + corpus + "/fresh\nto reproduce: go test example.com/m -run '^FuzzParseScenario$/fresh'\n"
	if code != 1 || out != want {
		t.Errorf("an input written: exit %d, %q, want %q", code, out, want)
	}
	if code, _ := judgeRun("", ""); code != 3 {
		t.Errorf("no -rc: exit %d, want 3", code)
	}
}
