// Command fuzzverdict judges one `go test -fuzz` run for .ci/run: it
// passed, it found something, or it stopped on a bare deadline.
//
// A bare deadline is Go's fuzzing coordinator racing its own -fuzztime
// (golang/go#75804, fixed in Go 1.27, in no 1.26.x): the time is up, the
// coordinator sees its deadline before the workers' context is cancelled,
// and a clean stop is reported as "context deadline exceeded" with FAIL.
// The run is judged a bare deadline only when nothing else went wrong: the
// exit status is non-zero, the output is that one line and go test's
// framing of it (progress lines, the target's --- FAIL line, FAIL, exit
// status, downloads), and no input was written under the corpus directory
// (a crash being minimised when time runs out is written there even when
// the race eats its message). Anything else is a finding.
//
//	fuzzverdict -pkg PKG -target FuzzX -corpus DIR -before FILE -rc N < LOG
//
// FILE lists DIR's entries before the run, one a line. Exit status: 0 a
// pass, 2 a bare deadline, 1 a finding (it prints the inputs written and
// how to replay each), 3 a usage error.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
)

type verdict int

const (
	pass verdict = iota
	finding
	bareDeadline
)

var written = regexp.MustCompile(`Failing input written to (\S+)`)

// framing is what go test prints around a fuzz target's result; progress
// is the coordinator's ticker, and go: lines are toolchain or module
// downloads.
func framing(line, target string) bool {
	switch {
	case line == "", line == "FAIL",
		strings.HasPrefix(line, "fuzz: elapsed: "),
		strings.HasPrefix(line, "warning: starting with empty corpus"),
		strings.HasPrefix(line, "go: downloading "),
		strings.HasPrefix(line, "exit status "),
		strings.HasPrefix(line, "FAIL\t"),
		strings.HasPrefix(line, "--- FAIL: "+target+" ("):
		return true
	}
	return false
}

// judge decides a run from its exit status, its output and the inputs it
// wrote into the corpus directory; it returns those inputs, with any the
// output names.
func judge(rc int, out, target string, newInputs []string) (verdict, []string) {
	inputs := slices.Clone(newInputs)
	for _, m := range written.FindAllStringSubmatch(out, -1) {
		name := m[1][strings.LastIndex(m[1], "/")+1:]
		if !slices.Contains(inputs, name) {
			inputs = append(inputs, name)
		}
	}
	if len(inputs) > 0 {
		return finding, inputs
	}
	if rc == 0 {
		return pass, nil
	}
	deadline := 0
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, " \r")
		if strings.TrimSpace(line) == "context deadline exceeded" {
			deadline++
			continue
		}
		if !framing(line, target) {
			return finding, nil
		}
	}
	if deadline == 1 {
		return bareDeadline, nil
	}
	return finding, nil
}

func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" {
			out = append(out, s)
		}
	}
	return out, sc.Err()
}

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// run is the command: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fuzzverdict", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pkg := fs.String("pkg", "", "the package fuzzed")
	target := fs.String("target", "", "the fuzz target")
	corpus := fs.String("corpus", "", "the target's testdata/fuzz/<target> directory")
	before := fs.String("before", "", "a file listing the corpus directory's entries before the run")
	rc := fs.Int("rc", -1, "the run's exit status")
	if err := fs.Parse(args); err != nil {
		return 3
	}
	if *pkg == "" || *target == "" || *corpus == "" || *before == "" || *rc < 0 {
		fmt.Fprintln(stderr, "usage: fuzzverdict -pkg PKG -target FuzzX -corpus DIR -before FILE -rc N < LOG")
		return 3
	}
	out, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintln(stderr, "fuzzverdict: reading the log:", err)
		return 3
	}
	old, err := readLines(*before)
	if err != nil {
		fmt.Fprintln(stderr, "fuzzverdict:", err)
		return 3
	}
	var fresh []string
	entries, err := os.ReadDir(*corpus)
	if err != nil && !os.IsNotExist(err) {
		fmt.Fprintln(stderr, "fuzzverdict:", err)
		return 3
	}
	for _, e := range entries {
		if !slices.Contains(old, e.Name()) {
			fresh = append(fresh, e.Name())
		}
	}
	v, inputs := judge(*rc, string(out), *target, fresh)
	switch v {
	case pass:
		return 0
	case bareDeadline:
		fmt.Fprintf(stdout, "%s %s: a bare \"context deadline exceeded\" at the -fuzztime boundary, nothing written: Go's fuzzing coordinator race (golang/go#75804), not a finding\n", *pkg, *target)
		return 2
	}
	if len(inputs) == 0 {
		fmt.Fprintf(stdout, "%s %s failed without writing an input (the log above says why); to reproduce, fuzz it again: go test %s -run '^$' -fuzz '^%s$'\n", *pkg, *target, *pkg, *target)
	}
	for _, in := range inputs {
		fmt.Fprintf(stdout, "failing input: %s/%s\nto reproduce: go test %s -run '^%s$/%s'\n", strings.TrimRight(*corpus, "/"), in, *pkg, *target, in)
	}
	return 1
}
