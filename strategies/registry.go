package strategies

import (
	"fmt"
	"sort"
	"strings"
)

// Protocol is a rebalance protocol an assignor can run under.
type Protocol string

const (
	Eager       Protocol = "eager"       // classic, revoke everything then rejoin
	Cooperative Protocol = "cooperative" // classic, KIP-429 incremental
	Consumer    Protocol = "consumer"    // KIP-848, server-side assignment
)

// Assignor computes an assignment for a group.
type Assignor interface {
	// Name is kviz's name for it: range, roundrobin, sticky,
	// cooperative-sticky, uniform, range-server.
	Name() string
	// KafkaName is the protocol name Kafka uses on the wire or in
	// group.remote.assignor (range-server is "range" there).
	KafkaName() string
	// Protocols lists the rebalance protocols it supports, preferred last
	// (Kafka picks the highest all assignors support).
	Protocols() []Protocol
	// Assign computes the assignment. g must have passed Validate.
	// ex may be nil.
	Assign(g Group, ex *Explainer) Result
}

var (
	assignors = map[string]Assignor{}
	aliases   = map[string]string{}
)

// Register makes an assignor available by its name and aliases. Each
// assignor's file calls it from init.
func Register(a Assignor, alias ...string) {
	assignors[a.Name()] = a
	for _, al := range alias {
		aliases[strings.ToLower(al)] = a.Name()
	}
}

// Lookup finds an assignor by kviz name or alias (e.g. Kafka's class name),
// case-insensitively.
func Lookup(name string) (Assignor, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	if a, ok := assignors[key]; ok {
		return a, nil
	}
	if n, ok := aliases[key]; ok {
		return assignors[n], nil
	}
	return nil, fmt.Errorf("unknown strategy %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the assignors in a fixed teaching order.
func Names() []string {
	order := []string{"range", "roundrobin", "sticky", "cooperative-sticky", "uniform", "range-server"}
	var out []string
	for _, n := range order {
		if _, ok := assignors[n]; ok {
			out = append(out, n)
		}
	}
	var rest []string
	for n := range assignors {
		if !contains(order, n) {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
