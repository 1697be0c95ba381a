package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// Pattern subscriptions (issue 23): a member's `pattern: "orders-.*"`.
// A classic member runs KafkaConsumer.subscribe(java.util.regex.Pattern):
// the client matches every topic name of its metadata against it
// (SubscriptionState.matchesSubscribedPattern: pattern.matcher(topic).matches()).
// A consumer-protocol member runs subscribe(SubscriptionPattern): it sends
// the regular expression (ConsumerGroupHeartbeat SubscribedTopicRegex) and
// the coordinator resolves it with RE2J (GroupMetadataManager.
// refreshRegularExpressions: Pattern.compile(regex).matcher(topic).matches()).
// Both match the whole topic name. kviz matches with Go's regexp, so it takes
// only patterns whose meaning is the same in Go and in the member's syntax,
// and refuses the others (CheckPattern).

// Pattern syntaxes.
const (
	// SyntaxJava is java.util.regex (the classic client's subscribe(Pattern)).
	SyntaxJava = "java.util.regex"
	// SyntaxRE2J is com.google.re2j (KIP-848's server-side regex).
	SyntaxRE2J = "RE2J"
)

// PatternSyntax is the syntax a member of that group.protocol writes its
// pattern in.
func PatternSyntax(protocol string) string {
	if protocol == ProtocolConsumer {
		return SyntaxRE2J
	}
	return SyntaxJava
}

// PatternError is a pattern kviz refuses: the parser points at the pattern's line.
type PatternError struct {
	Member, Pattern, Syntax, Why string
}

func (e *PatternError) Error() string {
	return fmt.Sprintf("%s: pattern %q (%s): %s", e.Member, e.Pattern, e.Syntax, e.Why)
}

// CheckPattern reports why kviz cannot take src as a pattern of that
// syntax ("" = it can): a pattern Go's regexp refuses, or one whose meaning
// differs between Go and java.util.regex or RE2J.
func CheckPattern(src, syntax string) string {
	if src == "" {
		return "an empty pattern matches no topic (Kafka takes an empty SubscribedTopicRegex as none); give one"
	}
	for _, r := range src {
		if r > unicode.MaxASCII {
			return fmt.Sprintf("%q is not ASCII: topic names are ASCII, and case folding and Unicode classes differ between Go and %s; kviz takes ASCII patterns only", r, syntax)
		}
	}
	if syntax == SyntaxJava {
		if why := javaOnly(src); why != "" {
			return why
		}
	} else if strings.Contains(src, "(?<") {
		return "(?<name>...) is not RE2J 1.8's syntax for a named group, (?P<name>...) is; kviz refuses it rather than guess"
	}
	if _, err := regexp.Compile(src); err != nil {
		return fmt.Sprintf("kviz matches with Go's regexp, which refuses it (%v); lookaround, backreferences, possessive and atomic groups are not modelled", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return ""
}

// javaOnly scans src for the constructs whose meaning differs between
// java.util.regex and Go's regexp (Go is RE2's syntax; RE2J is a port of
// it, which is why an RE2J pattern needs no such scan).
func javaOnly(src string) string {
	inClass := false
	atomBefore := false // the last token can take a repetition
	for i := 0; i < len(src); i++ {
		ch := src[i]
		switch {
		case ch == '\\':
			if i+1 >= len(src) {
				return "" // Go refuses the trailing backslash
			}
			next := src[i+1]
			switch {
			case next == 'Q': // \Q...\E quotes in both
				end := strings.Index(src[i+2:], `\E`)
				if end < 0 {
					i = len(src)
				} else {
					i += 2 + end + 1
				}
				atomBefore = true
				continue
			case next >= '0' && next <= '9':
				return fmt.Sprintf(`\%c at column %d is a backreference (or, with \0, an octal escape) in java.util.regex and an octal escape in Go`, next, i+1)
			case next == 'v':
				return fmt.Sprintf(`\v at column %d is any vertical whitespace in java.util.regex and the vertical tab in Go`, i+1)
			case next == 'p' || next == 'P':
				name := ""
				if i+2 < len(src) && src[i+2] == '{' {
					if end := strings.IndexByte(src[i+2:], '}'); end > 0 {
						name = src[i+3 : i+2+end]
						i += 2 + end
					}
				} else if i+2 < len(src) {
					name = src[i+2 : i+3]
					i += 2
				}
				if _, ok := unicode.Categories[name]; !ok {
					return fmt.Sprintf(`\%c{%s}: only Unicode general categories (like \p{L}) mean the same in java.util.regex and Go; scripts, blocks and POSIX names differ`, next, name)
				}
				atomBefore = true
				continue
			}
			i++
			atomBefore = true
		case inClass:
			switch {
			case ch == '[':
				return fmt.Sprintf("[ inside a character class at column %d is a nested class (a union) in java.util.regex and a literal or a POSIX class in Go", i+1)
			case ch == '&' && i+1 < len(src) && src[i+1] == '&':
				return fmt.Sprintf("&& inside a character class at column %d is an intersection in java.util.regex and two literal & in Go", i+1)
			case ch == ']':
				inClass = false
				atomBefore = true
			}
		case ch == '[':
			inClass = true
			j := i + 1
			if j < len(src) && src[j] == '^' {
				j++
			}
			if j < len(src) && src[j] == ']' {
				return fmt.Sprintf("] first in the character class at column %d: Go takes it as a literal, java.util.regex does not", i+1)
			}
			i = j - 1
		case ch == '(':
			if strings.HasPrefix(src[i:], "(?P<") {
				return fmt.Sprintf("(?P<name>...) at column %d is Go's and RE2J's named group; java.util.regex refuses it (write (?<name>...))", i+1)
			}
			if strings.HasPrefix(src[i:], "(?") {
				j := i + 2
				for j < len(src) && (src[j] == '-' || unicode.IsLetter(rune(src[j]))) {
					if src[j] == 'U' {
						return fmt.Sprintf("the flag U at column %d is UNICODE_CHARACTER_CLASS in java.util.regex and ungreedy in Go", j+1)
					}
					j++
				}
			}
			atomBefore = false
		case ch == '|':
			atomBefore = false
		case ch == '{':
			if !atomBefore || !validRepeat(src[i:]) {
				return fmt.Sprintf("{ at column %d is not a repetition {n}, {n,} or {n,m}: Go takes it as a literal, java.util.regex refuses it (escape it: \\{)", i+1)
			}
			i += strings.IndexByte(src[i:], '}')
			atomBefore = false
		default:
			atomBefore = ch != '*' && ch != '+' && ch != '?' && ch != '^'
		}
	}
	return ""
}

// repeatRE is compiled on first use, not at every kviz start (issue 25).
var repeatRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\{[0-9]+(,[0-9]*)?\}`) })

func validRepeat(s string) bool { return repeatRE().MatchString(s) }

// CompilePattern compiles a pattern CheckPattern took into a matcher of
// whole topic names (Matcher.matches()).
func CompilePattern(src string) (*regexp.Regexp, error) {
	return regexp.Compile(`\A(?:` + src + `)\z`)
}

// MatchTopics is the topics of counts that re matches, sorted as Java
// sorts strings (the order kviz lists a subscription in).
func MatchTopics(re *regexp.Regexp, counts map[string]int32) []string {
	out := []string{}
	for t := range counts {
		if re.MatchString(t) {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// TopicsBefore is the scenario's topics, with their partition counts, as
// the timeline has made them just before ev: created, deleted and grown by
// the events before it (an event of the file is found by its line; an
// inserted one comes after every event at its millisecond).
func TopicsBefore(sc *Scenario, ev Event) map[string]int32 {
	counts := make(map[string]int32, len(sc.Topics))
	for t, n := range sc.Topics {
		counts[t] = n
	}
	for _, e := range sc.Timeline {
		if e.AtMs > ev.AtMs || ev.line != 0 && e.line == ev.line && e.Kind == ev.Kind {
			break
		}
		applyTopicEvent(counts, e)
	}
	return counts
}

// applyTopicEvent applies a create_topic, delete_topic or add_partitions.
func applyTopicEvent(counts map[string]int32, e Event) {
	switch e.Kind {
	case "create_topic":
		if _, ok := counts[e.Topic]; !ok {
			counts[e.Topic] = e.Count
		}
	case "delete_topic":
		delete(counts, e.Topic)
	case "add_partitions":
		if n, ok := counts[e.Topic]; ok {
			counts[e.Topic] = max(n, e.Count)
		}
	}
}

// ChangesTopics reports whether the timeline creates or deletes topics.
func (sc *Scenario) ChangesTopics() bool {
	return slices.ContainsFunc(sc.Timeline, func(e Event) bool { return e.Kind == "create_topic" || e.Kind == "delete_topic" })
}
