package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// kviz's own packages build nothing at start-up: every run of every
// command (a script's thousandth `kviz assign`, `kviz --version`) pays for
// each package's init, so tables, registries and regexps are built on
// first use (issue 25). The budget is what the sync.OnceValue wrappers
// that defer them cost (two allocations each) and one two-line append; a
// single regexp compiled at init costs about 30 allocations, a map literal
// of a dozen entries several, so either would fail this.
//
// The counts are GODEBUG=inittrace=1's, taken from this test binary, which
// links every kviz package as the kviz binary does (package main's tests
// add no package-level state of their own). They are exact, not timings,
// so the test holds on a loaded machine.
func TestKvizPackagesDoNoWorkAtInit(t *testing.T) {
	const budgetAllocs, budgetBytes = 12, 1024
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	godebug := "inittrace=1"
	if v := os.Getenv("GODEBUG"); v != "" {
		godebug = v + "," + godebug
	}
	cmd.Env = append(os.Environ(), "GODEBUG="+godebug)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", cmd, err, out)
	}
	// init github.com/kvizlab/kviz/live @0.9 ms, 0.007 ms clock, 72 bytes, 2 allocs
	line := regexp.MustCompile(`^init (\S+) @[0-9.]+ ms, [0-9.]+ ms clock, ([0-9]+) bytes, ([0-9]+) allocs$`)
	var allocs, bytesAlloc, kvizInits, inits int
	var report strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		inits++
		if m[1] != "github.com/kvizlab/kviz" && !strings.HasPrefix(m[1], "github.com/kvizlab/kviz/") {
			continue
		}
		b, _ := strconv.Atoi(m[2])
		a, _ := strconv.Atoi(m[3])
		kvizInits++
		allocs += a
		bytesAlloc += b
		report.WriteString("\n" + sc.Text())
	}
	if inits == 0 {
		t.Fatalf("no inittrace lines from %v:\n%s", cmd, out)
	}
	t.Logf("%d package inits, %d of them kviz's: %d allocations, %d bytes%s", inits, kvizInits, allocs, bytesAlloc, report.String())
	if allocs > budgetAllocs || bytesAlloc > budgetBytes {
		t.Errorf("kviz's package inits allocate %d objects, %d bytes (budget %d, %d): build it on first use%s", allocs, bytesAlloc, budgetAllocs, budgetBytes, report.String())
	}
}
