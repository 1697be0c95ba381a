package cli

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The tokens of `kviz assign`'s input, read straight from its bytes by the
// jsonParser of assign_input.go (why by hand: BenchmarkAssignInput). Every
// error carries the line and column of the value it is about.

// object reads {"key": value, ...}, calling field with the parser on each value.
func (p *jsonParser) object(path func() string, field func(key string, keyAt int) error) error {
	if err := p.open('{', path, "an object"); err != nil {
		return err
	}
	p.space()
	if p.peek() == '}' {
		p.pos++
		return nil
	}
	for {
		p.space()
		keyAt := p.pos
		if p.peek() != '"' {
			return p.syntax("looking for the beginning of an object key string")
		}
		key, err := p.internedString() // field names and topic names repeat
		if err != nil {
			return err
		}
		p.space()
		if p.peek() != ':' {
			return p.syntax("after object key")
		}
		p.pos++
		p.space()
		if err := field(key, keyAt); err != nil {
			return err
		}
		p.space()
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return nil
		default:
			return p.syntax("after object key:value pair")
		}
	}
}

// array reads [value, ...], calling elem with the parser on each value.
func (p *jsonParser) array(path func() string, elem func(i int) error) error {
	if err := p.open('[', path, "a list"); err != nil {
		return err
	}
	p.space()
	if p.peek() == ']' {
		p.pos++
		return nil
	}
	for i := 0; ; i++ {
		p.space()
		if err := elem(i); err != nil {
			return err
		}
		p.space()
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return nil
		default:
			return p.syntax("after array element")
		}
	}
}

// open consumes the opening bracket of an object or list, or reports what
// was there instead.
func (p *jsonParser) open(bracket byte, path func() string, want string) error {
	p.space()
	if p.peek() == bracket {
		p.pos++
		return nil
	}
	return p.typeError(path, want)
}

// null consumes a null literal if one is next.
func (p *jsonParser) null() bool {
	p.space()
	if bytes.HasPrefix(p.data[p.pos:], []byte("null")) {
		p.pos += 4
		return true
	}
	return false
}

func (p *jsonParser) optionalString(path func() string) (string, error) {
	if p.null() {
		return "", nil
	}
	return p.string(path, false)
}

// string reads a string value; interned ones share memory with earlier copies.
func (p *jsonParser) string(path func() string, intern bool) (string, error) {
	p.space()
	if p.peek() != '"' {
		return "", p.typeError(path, "a string")
	}
	if !intern {
		return p.rawString()
	}
	return p.internedString()
}

func (p *jsonParser) internString(s string) string {
	if v, ok := p.intern[s]; ok {
		return v
	}
	p.intern[s] = s
	return s
}

// internedString reads a string, looking plain ones up without allocating.
func (p *jsonParser) internedString() (string, error) {
	start := p.pos + 1
	end := start
	for end < len(p.data) && p.data[end] != '"' && p.data[end] != '\\' && p.data[end] >= 0x20 && p.data[end] < utf8.RuneSelf {
		end++
	}
	if end < len(p.data) && p.data[end] == '"' {
		if v, ok := p.intern[string(p.data[start:end])]; ok {
			p.pos = end + 1
			return v, nil
		}
	}
	s, err := p.rawString()
	if err != nil {
		return "", err
	}
	return p.internString(s), nil
}

// rawString reads a JSON string at p.pos (which is a quote).
func (p *jsonParser) rawString() (string, error) {
	p.pos++ // the opening quote
	start := p.pos
	plain := true
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			raw := p.data[start:p.pos]
			p.pos++
			if plain && utf8.Valid(raw) {
				return string(raw), nil
			}
			return p.unescape(raw), nil
		case c == '\\':
			plain = false
			if err := p.checkEscape(); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.syntax("in string literal")
		default:
			p.pos++
		}
	}
	return "", p.eof()
}

// checkEscape validates the escape at p.pos and steps over it.
func (p *jsonParser) checkEscape() error {
	if p.pos+1 >= len(p.data) {
		p.pos = len(p.data)
		return p.eof()
	}
	switch p.data[p.pos+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		p.pos += 2
		return nil
	case 'u':
		if p.pos+6 > len(p.data) {
			p.pos = len(p.data)
			return p.eof()
		}
		if _, err := strconv.ParseUint(string(p.data[p.pos+2:p.pos+6]), 16, 16); err != nil {
			p.pos += 2
			return p.syntax("in \\u hexadecimal character escape")
		}
		p.pos += 6
		return nil
	}
	p.pos++
	return p.syntax("in string escape code")
}

// unescape decodes a validated string body, replacing invalid UTF-8 and
// lone surrogates with U+FFFD as encoding/json does.
func (p *jsonParser) unescape(raw []byte) string {
	b := p.scratch[:0]
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			r, n := utf8.DecodeRune(raw[i:])
			b = utf8.AppendRune(b, r)
			i += n
			continue
		}
		switch raw[i+1] {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r := hex4(raw[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) && i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
				if dec := utf16.DecodeRune(r, hex4(raw[i+2:i+6])); dec != utf8.RuneError {
					r = dec
					i += 6
				}
			}
			if utf16.IsSurrogate(r) {
				r = utf8.RuneError
			}
			b = utf8.AppendRune(b, r)
			continue
		default: // " \ /
			b = append(b, raw[i+1])
		}
		i += 2
	}
	p.scratch = b
	return string(b)
}

func hex4(b []byte) rune {
	n, _ := strconv.ParseUint(string(b), 16, 16)
	return rune(n)
}

// integer reads a whole number that fits in bits.
func (p *jsonParser) integer(path func() string, bits int) (int64, error) {
	p.space()
	at := p.pos
	if c := p.peek(); c != '-' && (c < '0' || c > '9') {
		return 0, p.typeError(path, "a whole number")
	}
	if n, end, ok := p.smallInt(); ok && (bits == 64 || (n >= -1<<(bits-1) && n < 1<<(bits-1))) {
		p.pos = end
		return n, nil
	}
	lit, whole, err := p.number()
	if err != nil {
		return 0, err
	}
	if !whole {
		return 0, p.errorf(at, "%s: expected a whole number, got number %s", path(), lit)
	}
	n, err := strconv.ParseInt(lit, 10, bits)
	if err != nil {
		return 0, p.errorf(at, "%s: expected a whole number that fits in %d bits, got number %s", path(), bits, lit)
	}
	return n, nil
}

// smallInt reads a plain integer of at most 18 digits (what partition
// numbers and generations are) without making a string of it, and where it
// ends; anything else is left for number and strconv, with their messages.
func (p *jsonParser) smallInt() (n int64, end int, ok bool) {
	i, neg := p.pos, false
	if i < len(p.data) && p.data[i] == '-' {
		neg, i = true, i+1
	}
	start := i
	for i < len(p.data) && isDigit(p.data[i]) && i-start < 18 {
		n = n*10 + int64(p.data[i]-'0')
		i++
	}
	digits := i - start
	if digits == 0 || (digits > 1 && p.data[start] == '0') {
		return 0, 0, false
	}
	if i < len(p.data) {
		if c := p.data[i]; isDigit(c) || c == '.' || c == 'e' || c == 'E' {
			return 0, 0, false
		}
	}
	if neg {
		n = -n
	}
	return n, i, true
}

// number scans a JSON number and reports whether it is written as an integer.
func (p *jsonParser) number() (string, bool, error) {
	start := p.pos
	whole := true
	if p.peek() == '-' {
		p.pos++
	}
	switch c := p.peek(); {
	case c == '0':
		p.pos++
	case c >= '1' && c <= '9':
		p.digits()
	default:
		return "", false, p.syntax("in numeric literal")
	}
	if p.peek() == '.' {
		whole = false
		p.pos++
		if !isDigit(p.peek()) {
			return "", false, p.syntax("after decimal point in numeric literal")
		}
		p.digits()
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		whole = false
		p.pos++
		if c := p.peek(); c == '+' || c == '-' {
			p.pos++
		}
		if !isDigit(p.peek()) {
			return "", false, p.syntax("in exponent of numeric literal")
		}
		p.digits()
	}
	return string(p.data[start:p.pos]), whole, nil
}

func (p *jsonParser) digits() {
	for isDigit(p.peek()) {
		p.pos++
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *jsonParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// peek returns the next byte, or 0 at the end.
func (p *jsonParser) peek() byte {
	if p.pos < len(p.data) {
		return p.data[p.pos]
	}
	return 0
}

// typeError reports a value of the wrong kind where path expected want,
// or a syntax error when what is there is not a JSON value at all.
func (p *jsonParser) typeError(path func() string, want string) error {
	got := ""
	switch c := p.peek(); {
	case p.pos >= len(p.data):
		return p.eof()
	case c == '"':
		got = "string"
	case c == '{':
		got = "object"
	case c == '[':
		got = "array"
	case bytes.HasPrefix(p.data[p.pos:], []byte("true")), bytes.HasPrefix(p.data[p.pos:], []byte("false")):
		got = "bool"
	case bytes.HasPrefix(p.data[p.pos:], []byte("null")):
		got = "null"
	case c == '-' || isDigit(c):
		at := p.pos
		lit, _, err := p.number()
		if err != nil {
			return err
		}
		p.pos = at
		got = "number " + lit
	default:
		return p.syntax("looking for beginning of value")
	}
	return p.errorf(p.pos, "%s: expected %s, got %s", path(), want, got)
}

func (p *jsonParser) syntax(context string) error {
	if p.pos >= len(p.data) {
		return p.eof()
	}
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	return p.errorf(p.pos, "malformed JSON: invalid character %s %s", quoteChar(r), context)
}

func (p *jsonParser) eof() error {
	return p.errorf(len(p.data), "malformed JSON: the input ends in the middle of a value")
}

func (p *jsonParser) errorf(at int, format string, args ...any) error {
	line, col := lineCol(p.data, int64(at))
	return fmt.Errorf("line %d, column %d: %s", line, col, fmt.Sprintf(format, args...))
}

// quoteChar writes a character the way encoding/json's errors do.
func quoteChar(r rune) string {
	if r == '\'' {
		return `'\''`
	}
	if r == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(r))
	return "'" + strings.Trim(s, `"`) + "'"
}

// lineCol turns a byte offset into a 1-based line and column (in characters).
func lineCol(data []byte, offset int64) (int, int) {
	offset = max(0, min(offset, int64(len(data))))
	before := data[:offset]
	line := bytes.Count(before, []byte{'\n'}) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[lineStart:]) + 1
}
