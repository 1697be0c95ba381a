package frame

import (
	"bytes"
	"encoding/xml"
	"testing"
	"unicode/utf8"
)

// xmlEscaped is what encoding/xml's EscapeText writes.
func xmlEscaped(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

func ownEscaped(s string) string {
	var b bytes.Buffer
	escapeText(&b, s)
	return b.String()
}

func TestEscapeTextIsEncodingXMLs(t *testing.T) {
	var runes []rune
	for _, span := range [][2]rune{{0, 0x300}, {0x2500, 0x2600}, {0xD700, 0xE100}, {0xFFF0, 0x10010}, {0x10FFF0, 0x10FFFF}} {
		for r := span[0]; r <= span[1]; r++ {
			runes = append(runes, r)
		}
	}
	for _, r := range runes {
		s := "a" + string(r) + "b"
		if got, want := ownEscaped(s), xmlEscaped(s); got != want {
			t.Fatalf("%U: %q, encoding/xml writes %q", r, got, want)
		}
	}
	for _, s := range []string{"", "plain", `<a href="x">'&'</a>`, "\xff", "a\xc3", "\xe2\x94", "\xed\xa0\x80", "\xef\xbf\xbd", "\t\r\n", "│ c0 ▏orders-0 *"} {
		if got, want := ownEscaped(s), xmlEscaped(s); got != want {
			t.Errorf("%q: %q, encoding/xml writes %q", s, got, want)
		}
	}
	for b := 0x80; b <= 0xFF; b++ {
		s := string([]byte{'x', byte(b), 'y'})
		if got, want := ownEscaped(s), xmlEscaped(s); got != want {
			t.Errorf("byte %#x: %q, encoding/xml writes %q", b, got, want)
		}
	}
}

func FuzzEscapeText(f *testing.F) {
	for _, s := range []string{"", "<&>\"'", "\x00\x1f\x7f", "\xff\xfe", "ü€😀", "\xed\xbf\xbf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ownEscaped(s), xmlEscaped(s); got != want {
			t.Fatalf("%q (valid UTF-8 %v): %q, encoding/xml writes %q", s, utf8.ValidString(s), got, want)
		}
	})
}
