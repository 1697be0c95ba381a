package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

var manyDigits = regexp.MustCompile(`[0-9]{4}`)

// FuzzAssign feeds arbitrary bytes to `kviz assign`: it must never panic;
// it either prints valid JSON with exit 0 or one "kviz: ..." line with exit 2,
// and it never accepts what encoding/json says is not JSON.
func FuzzAssign(f *testing.F) {
	for _, seed := range []string{
		seedFour,
		`{"topics": {"t0": 3}, "partition_racks": {"t0": [["a"], ["b"], []]}, "members": [{"id": "c0", "rack": "a"}, {"id": "c1", "rack": "b", "instance": "i"}]}`,
		`{"topics": {"t0": 3}, "members": [{"id": "c0", "owned": {"t0": [0, 2]}, "generation": 4}]}`,
		`{"topics": {"t0": -1}, "members": [{"id": "c0"}]}`,
		`{"members": [{"id": "c0", "topics": ["t0", "t0"]}]}`,
		`{"topics": {"": 1}, "members": [{"id": "\u00e9\ud83d\ude00"}]}`,
		`[`, `{}`, `null`, `{"members": null}`,
	} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, in string, roundRobin bool) {
		if len(in) > 1<<10 || manyDigits.MatchString(in) {
			t.Skip("keeps partition counts small, so each run stays fast")
		}
		strategy := "range"
		if roundRobin {
			strategy = "roundrobin"
		}
		code, out, errOut := run(t, in, "assign", "--strategy", strategy, "--explain")
		switch code {
		case 0:
			if !json.Valid([]byte(in)) {
				t.Fatalf("accepted input that is not JSON: %q", in)
			}
			if !json.Valid([]byte(out)) {
				t.Fatalf("exit 0 with invalid JSON %q", out)
			}
		case 2:
			if out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "kviz: ") {
				t.Fatalf("bad error output: stdout %q, stderr %q", out, errOut)
			}
		default:
			t.Fatalf("exit %d: %q", code, errOut)
		}
	})
}

// FuzzAssignSimple is FuzzAssign for the share-group assignor and its
// fields (topic_ids, assignable), at each release: exit 0 with JSON, one
// usage line with exit 2, or, where Kafka's assignor throws, exit 1 naming
// the exception.
func FuzzAssignSimple(f *testing.F) {
	for _, seed := range []string{
		shareTwo,
		`{"topics": {"t": 9}, "members": [{"id": "A", "owned": {"t": [0,1,2,3,4,5,6,7,8]}}, {"id": "B", "owned": {"t": [0,1,2,3,4,5,6,7,8]}}, {"id": "C", "owned": {"t": [0,1,2,3,4,5,6,7,8]}}]}`,
		`{"topics": {"a": 2, "b": 3}, "assignable": {"a": [1]}, "topic_ids": {"b": "MkZ0Wr0bTXqCW3qLP7Ye4Q"}, "members": [{"id": "m", "topics": ["a"], "owned": {"gone": [0], "a": [0]}}, {"id": "n", "topics": ["b", "x"]}]}`,
		`{"topics": {"t": 1}, "topic_ids": {"t": "AAAAAAAAAAAAAAAAAAAAAA"}, "members": [{"id": "a"}]}`,
	} {
		for v := range uint8(3) {
			f.Add(seed, v)
		}
	}
	f.Fuzz(func(t *testing.T, in string, v uint8) {
		if len(in) > 1<<10 || manyDigits.MatchString(in) {
			t.Skip("keeps partition counts small, so each run stays fast")
		}
		version := []string{"4.0", "4.1", "4.2", "4.3"}[v%4]
		code, out, errOut := run(t, in, "assign", "--strategy", "simple", "--kafka-version", version, "--explain")
		switch code {
		case 0:
			if !json.Valid([]byte(in)) || !json.Valid([]byte(out)) {
				t.Fatalf("exit 0: input %q, output %q", in, out)
			}
		case 1:
			if out != "" || !strings.Contains(errOut, "Kafka's simple assignor throws") {
				t.Fatalf("exit 1 without Kafka's exception: stdout %q, stderr %q", out, errOut)
			}
		case 2:
			if out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "kviz: ") {
				t.Fatalf("bad error output: stdout %q, stderr %q", out, errOut)
			}
		default:
			t.Fatalf("exit %d: %q", code, errOut)
		}
	})
}
