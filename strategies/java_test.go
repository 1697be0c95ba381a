package strategies

import (
	"fmt"
	"slices"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

func TestJavaHashCodeAndCoordinatorPartition(t *testing.T) {
	cases := []struct {
		group string
		hash  int32
		part  int32
	}{
		{"my-group", -1906497762, 12},
		{"test", 3556498, 48},
		{"A", 65, 15},
		{"", 0, 0},
		{"polygenelubricants", -2147483648, 0},
	}
	for _, c := range cases {
		assert.Equal(t, c.hash, JavaHashCode(c.group), c.group)
		assert.Equal(t, c.part, CoordinatorPartition(c.group, 50), c.group)
	}
}

func TestJavaCompareUsesUTF16Order(t *testing.T) {
	// U+FF21 (fullwidth A) is one UTF-16 unit 0xFF21; U+1F600 starts with the
	// high surrogate 0xD83D, so Java sorts the emoji first; Go's bytes disagree.
	assert.True(t, JavaLess("\U0001F600", "\uFF21"))
	assert.False(t, "\U0001F600" < "\uFF21")
	assert.True(t, JavaLess("c0", "c1"))
	assert.True(t, JavaLess("c", "c0"))
	assert.Equal(t, 0, JavaCompare("x", "x"))
}

// JavaCompare's byte-wise fast path agrees with comparing the strings'
// UTF-16 code units, on any strings, ASCII, BMP, surrogate pairs or bytes
// that are not UTF-8 (each decoded as U+FFFD, as Java's decoder does).
func TestJavaCompareIsUTF16CodeUnitOrder(t *testing.T) {
	alphabet := []rune{'a', 'b', '0', '-', 0x7f, 0xe9, 0x800, 0xe000, 0xff21, 0xffff, 0x10000, 0x1f600, 0x10ffff}
	str := rapid.Custom(func(t *rapid.T) string {
		var b []byte
		for _, k := range rapid.SliceOfN(rapid.IntRange(0, len(alphabet)+1), 0, 6).Draw(t, "chars") {
			switch {
			case k < len(alphabet):
				b = utf8.AppendRune(b, alphabet[k])
			case k == len(alphabet):
				b = append(b, 0xe2) // a lead byte alone
			default:
				b = append(b, 0x82) // a continuation byte alone
			}
		}
		return string(b)
	})
	rapid.Check(t, func(t *rapid.T) {
		prefix := str.Draw(t, "prefix")
		a, b := prefix+str.Draw(t, "a"), prefix+str.Draw(t, "b")
		want := slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		if got := JavaCompare(a, b); got != want {
			t.Fatalf("JavaCompare(%q, %q) = %d, UTF-16 order says %d", a, b, got, want)
		}
	})
}

func BenchmarkJavaCompare(b *testing.B) {
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("t%03d", i)
	}
	b.Run("bytes", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			JavaCompare(names[i%1000], names[(i+1)%1000])
		}
	})
	b.Run("decoded", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			javaCompareRunes(names[i%1000], names[(i+1)%1000])
		}
	})
}

func TestPlaceReplicasMatchesAdminUtilsTable(t *testing.T) {
	got, err := PlaceReplicas(5, 10, 3, 0, 0)
	assert.NoError(t, err)
	assert.Equal(t, [][]int{
		{0, 1, 2}, {1, 2, 3}, {2, 3, 4}, {3, 4, 0}, {4, 0, 1},
		{0, 2, 3}, {1, 3, 4}, {2, 4, 0}, {3, 0, 1}, {4, 1, 2},
	}, got)
	_, err = PlaceReplicas(2, 3, 3, 0, 0)
	assert.Error(t, err)
}

// The four-at-a-time ASCII path is the plain definition, for any string
// (ASCII or not, broken UTF-8 included).
func TestJavaHashCodeMatchesDefinition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s string
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			s = rapid.StringMatching(`[ -~]{0,40}`).Draw(t, "ascii")
		case 1:
			s = rapid.String().Draw(t, "utf8")
		default:
			s = string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes"))
		}
		if got, want := JavaHashCode(s), javaHashCodeFrom(0, s); got != want {
			t.Fatalf("JavaHashCode(%q) = %d, want %d", s, got, want)
		}
	})
}
