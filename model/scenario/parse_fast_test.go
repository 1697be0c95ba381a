package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// sameTree says where two node trees differ ("" when they do not), in
// everything the parser reads: kind, style, tag, value, line, column and
// children (comments, which fastTree leaves out, aside).
func sameTree(a, b *yaml.Node, path string) string {
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Line != b.Line || a.Column != b.Column {
		return fmt.Sprintf("%s: fast {kind %d style %d tag %s value %q at %d:%d}, yaml.v3 {kind %d style %d tag %s value %q at %d:%d}",
			path, a.Kind, a.Style, a.Tag, a.Value, a.Line, a.Column, b.Kind, b.Style, b.Tag, b.Value, b.Line, b.Column)
	}
	if len(a.Content) != len(b.Content) {
		return fmt.Sprintf("%s: fast has %d children, yaml.v3 %d", path, len(a.Content), len(b.Content))
	}
	for i := range a.Content {
		if d := sameTree(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// checkFast: where fastTree reads data, yaml.v3 reads it too, into the
// same tree. It reports whether fastTree read it.
func checkFast(t *testing.T, name string, data []byte) bool {
	t.Helper()
	root, lazy, ok := fastTree(data)
	if !ok {
		return false
	}
	for n, m := range lazy { // the nodes they stand for
		if len(n.Content) != 0 {
			t.Fatalf("%s: a lazy node has content", name)
		}
		full := m.tree()
		if full.Line != n.Line || full.Column != n.Column {
			t.Fatalf("%s: a lazy node at %d:%d reads as one at %d:%d", name, n.Line, n.Column, full.Line, full.Column)
		}
		n.Content = full.Content
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: fastTree reads what yaml.v3 refuses (%v):\n%s", name, err, data)
	}
	if len(doc.Content) != 1 {
		t.Fatalf("%s: yaml.v3 has %d documents", name, len(doc.Content))
	}
	if d := sameTree(root, doc.Content[0], ""); d != "" {
		t.Fatalf("%s: %s\n%s", name, d, data)
	}
	return true
}

func nonASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// givenLike is a given start as scripts/scalegen writes one (block
// sequence of flow mappings, long partition lists), at a small size.
func givenLike(members, topics int) string {
	var b strings.Builder
	b.WriteString("topics: {")
	for t := range topics {
		if t > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "t%03d: 10", t)
	}
	b.WriteString("}\ngroup: {id: scale, strategy: uniform, group_epoch: 5}\nmembers:\n")
	for m := range members {
		fmt.Fprintf(&b, "  - {id: c%04d, owned: {t%03d: [", m, m%topics)
		for p := range 10 / max(1, members/topics) {
			if p > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%d", p+(m/topics)*(10/max(1, members/topics)))
		}
		b.WriteString("]}}\n")
	}
	b.WriteString("timeline:\n  - {at_ms: 10000, crash: c0000}\n")
	return b.String()
}

// The subset's reader builds yaml.v3's tree for the files it is for:
// every demo it reads, each demo as Format writes it, a scalegen-like
// given start; and it leaves each corner it does not take to the library.
func TestFastTreeMatchesYAML(t *testing.T) {
	files, _ := filepath.Glob("../../demo/*.yaml")
	more, _ := filepath.Glob("testdata/*/*.yaml")
	files = append(files, more...)
	if len(files) < 20 {
		t.Fatalf("found %d scenario files", len(files))
	}
	formatted := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkFast(t, f, data)
		sc, err := Parse(filepath.Base(f), data)
		if err != nil {
			continue
		}
		out, err := Format(sc)
		if err != nil {
			continue
		}
		if !checkFast(t, f+" (formatted)", out) && !nonASCII(out) { // (UTF-8 notes are the library's)
			t.Errorf("%s: Format's output is not read by the fast path:\n%s", f, out)
		}
		formatted++
	}
	if formatted < 20 {
		t.Errorf("only %d demos formatted", formatted)
	}
	if !checkFast(t, "given", []byte(givenLike(40, 8))) {
		t.Error("a scalegen-like given start is not read by the fast path")
	}
	cases := []struct {
		src  string
		fast bool
	}{
		{"topics: {t0: 3}\n", true},
		{"# a header\n\ntopics: {t0: 3}\n", true},
		{"topics:\n  t0: 3\n  t1: 4\nmembers:\n- id: c1\n  topics: [t0, t1]\n- {id: c2}\n", true},
		{"a: {b: [1, 2, 3,], c: {d: e,}}\n", true},
		{"a: [\"x\", 'y', -5, 4.1, 0, true, null, Yes, ~x]\n", false}, // ~x: not the subset's
		{"a: [\"x\", 'y', -5, 4.1, 0, true, null, Yes, off]\n", true},
		{"title: a few words here\nb: c\n", true},
		{"a: [4.3.0, 4.1, 4., 1..2, -7.5.1]\n", true},
		{"a: 012\n", false},
		{"a: 1_000\n", false},
		{"a: 0x1f\n", false},
		{"a: 2024-01-01\n", false},
		{"a: 1e3\n", false},
		{"a: b # note\n", false},
		{"a:\n  # note\n  b: c\n", false},
		{"a: |\n  text\n", false},
		{"a: &x 1\nb: *x\n", false},
		{"a: [1,\n  2]\n", false},
		{"a:\n", false},
		{"a: b\n  c\n", false},
		{"---\na: b\n", false},
		{"a: 'it''s'\n", true},
		{"a: \"tab\\t\"\n", false},
		{"a:\tb\n", false},
		{"a: b\r\n", false},
		{"a: é\n", false},
		{"{a: b}\n", false},
		{"- a\n", true},
		{"a:\n  - - x\n", false},
		{"a: {b}\n", false},
		{"a: [b: c]\n", false},
		{"a : b\n", false},
		{"a: b: c\n", false},
		{"a: [b*, orders-.*, c*d]\nm: {id: c1, pattern: t.*}\n", true}, // a pattern: '*' within a word
		{"a: [*b]\n", false},
		{"members:\n  - {id: app~member-1, member_id: m-1}\n  - {id: c~}\nb: x~y z~\n", true}, // a live import's shared client.id: '~' within a word
		{"a: [~]\n", false},
		{"a: ~b\n", false},
		{"a: ~\n", false},
		{"a: {b: *c}\n", false},
		{"", false},
		{"\n\n", false},
	}
	for _, c := range cases {
		if got := checkFast(t, fmt.Sprintf("%q", c.src), []byte(c.src)); got != c.fast {
			t.Errorf("%q: fast path %v, want %v", c.src, got, c.fast)
		}
	}
}

// FuzzFastTree: whatever the subset's reader takes, yaml.v3 reads into
// the same tree.
func FuzzFastTree(f *testing.F) {
	files, _ := filepath.Glob("../../demo/*.yaml")
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	f.Add([]byte(givenLike(12, 4)))
	f.Add([]byte("topics:\n  t0: 3\nmembers:\n- id: c1\n  topics: [t0, t1]\n- {id: c2, owned: {t0: [0, 1,]}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFast(t, "input", data)
	})
}

// parseBoth parses data through the fast reader and, with a comment
// line after it (which the fast reader leaves to yaml.v3), through the
// library; it reports whether the fast reader took it.
func parseBoth(t *testing.T, data []byte) bool {
	t.Helper()
	if _, _, ok := fastTree(data); !ok {
		return false
	}
	fast, fastErr := Parse("f.yaml", data)
	slow, slowErr := Parse("f.yaml", append(slices.Clip(data), "\n# the library's\n"...))
	if fmt.Sprint(fastErr) != fmt.Sprint(slowErr) {
		t.Fatalf("fast: %v\nlibrary: %v\n%s", fastErr, slowErr, data)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("the fast reader's scenario differs from the library's:\n%s", data)
	}
	return true
}

// Parse answers the same through the fast reader as through yaml.v3: the
// same scenario, or the same error at the same line, for each fault a
// given start's partition lists (read lazily) can have.
func TestParseFastSameAsLibrary(t *testing.T) {
	files, _ := filepath.Glob("../../demo/*.yaml")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		parseBoth(t, data)
	}
	base := givenLike(40, 8)
	if _, lazy, ok := fastTree([]byte(base)); !ok || len(lazy) != 40 {
		t.Fatalf("a given start's owned lists: fast %v, %d lazy", ok, len(lazy))
	}
	faults := [][2]string{
		{"c0003, owned: {t003: [0", "c0003, owned: {t003: [10"},          // no such partition
		{"c0003, owned: {t003: [0", "c0003, owned: {t003: [-1"},          // negative
		{"c0003, owned: {t003: [0", "c0003, owned: {t009: [0"},           // unknown topic
		{"c0003, owned: {t003: [0", "c0003, owned: {t003: [1, 1"},        // twice
		{"c0003, owned: {t003: [0", "c0003, owned: {t004: [0"},           // another's
		{"c0003, owned: {t003: [0", "c0003, owned: {t003: [], t002: [0"}, // an empty list, then another's
		{"c0003, owned: {t003: [0, 1]}}", "c0003, owned: {t003: [0, 1]}, topics: [t001]}"},
		{"group: {id: scale, strategy: uniform, ", "group: {id: scale, strategy: range, "},
		{"c0007, owned: {", "c0007, owned: {t000: [-0], "},
		{"c0008, owned: {", "c0008, target: {t000: [9], "},
		{"c0009, owned: {", "c0009, revoking: {t000: [1], t001: [1]}, owned: {"},
		{"c0011, owned: {t003: [", "c0011, owned: {t003: [100000000000000000, "},
	}
	for _, fault := range faults {
		from, to := fault[0], fault[1]
		if !strings.Contains(base, from) {
			t.Fatalf("no %q", from)
		}
		data := []byte(strings.Replace(base, from, to, 1))
		if !parseBoth(t, data) {
			t.Errorf("%q: not read by the fast path", to)
		}
		_, err := Parse("f.yaml", data)
		t.Logf("%q: %v", to, err)
	}
	for _, to := range []string{"[0, 1, 2, 3]", "[0, 1, 0]", "[4, 3, 2]", "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]"} {
		parseBoth(t, []byte(strings.Replace(base, "c0000, owned: {t000: [0, 1]}", "c0000, owned: {t000: "+to+"}", 1)))
	}
	// a long list: the duplicate check's set
	long := "topics: {t0: 100}\ngroup: {generation: 2}\nmembers:\n  - {id: c1, owned: {t0: [" + strings.Repeat("5, ", 2) + "]}}\n"
	parseBoth(t, []byte(long))
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "%d, ", i)
	}
	parseBoth(t, []byte("topics: {t0: 300}\ngroup: {generation: 2}\nmembers:\n  - {id: c1, owned: {t0: ["+b.String()+"]}}\n"))
	parseBoth(t, []byte("topics: {t0: 300}\ngroup: {generation: 2}\nmembers:\n  - {id: c1, owned: {t0: ["+b.String()+"40]}}\n"))
}

// FuzzParseFast: through the fast reader or the library, Parse answers
// the same.
func FuzzParseFast(f *testing.F) {
	files, _ := filepath.Glob("../../demo/*.yaml")
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	f.Add([]byte(givenLike(12, 4)))
	f.Add([]byte("topics: {t0: 3, t1: 2}\ngroup: {generation: 2}\nmembers:\n- {id: c1, owned: {t0: [0, 1,], t1: [1]}}\n- id: c2\n  owned: {t0: [2]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parseBoth(t, data)
	})
}
