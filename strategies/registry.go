package strategies

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Protocol is a rebalance protocol an assignor can run under.
type Protocol string

const (
	Eager       Protocol = "eager"       // classic, revoke everything then rejoin
	Cooperative Protocol = "cooperative" // classic, KIP-429 incremental
	Consumer    Protocol = "consumer"    // KIP-848, server-side assignment
	// Share is KIP-932's share groups: ShareGroupHeartbeat, server-side
	// assignment, members sharing partitions. kviz assign runs its assignor;
	// the engine does not simulate the protocol yet, so it is not among
	// Protocols.
	Share Protocol = "share"
)

// Protocols lists the rebalance protocols the engine simulates, classic
// ones first (the order the lab's "e" key cycles through).
func Protocols() []Protocol { return []Protocol{Eager, Cooperative, Consumer} }

// simulated reports whether a runs under some protocol the engine
// simulates (Protocols): scenarios, the lab, compare and quiz can use it.
func simulated(a Assignor) bool {
	for _, p := range a.Protocols() {
		if slices.Contains(Protocols(), p) {
			return true
		}
	}
	return false
}

// Preferred is the protocol an assignor runs under unless told: the last
// it lists — Kafka's highest common one for the client assignors, KIP-848
// for the server-side ones.
func Preferred(a Assignor) Protocol {
	ps := a.Protocols()
	if len(ps) == 0 {
		return Eager
	}
	return ps[len(ps)-1]
}

// Supports reports whether an assignor can run under protocol p.
func Supports(a Assignor, p Protocol) bool {
	return slices.Contains(a.Protocols(), p)
}

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

// builtin is every assignor kviz has, with the other names Lookup knows
// it by (Kafka's class names).
var builtin = []struct {
	a       Assignor
	aliases []string
}{
	{rangeAssignor{}, []string{"org.apache.kafka.clients.consumer.RangeAssignor"}},
	{roundRobinAssignor{}, []string{"org.apache.kafka.clients.consumer.RoundRobinAssignor"}},
	{StickyAssignor{}, []string{"org.apache.kafka.clients.consumer.StickyAssignor"}},
	{CooperativeStickyAssignor{}, []string{"org.apache.kafka.clients.consumer.CooperativeStickyAssignor"}},
	{uniformAssignor{}, []string{"org.apache.kafka.coordinator.group.assignor.UniformAssignor"}},
	{rangeServerAssignor{}, []string{"org.apache.kafka.coordinator.group.assignor.RangeAssignor"}},
	{simpleAssignor{}, []string{"org.apache.kafka.coordinator.group.assignor.SimpleAssignor"}},
}

// registry maps names and aliases to assignors.
type registry struct {
	assignors map[string]Assignor
	aliases   map[string]string
}

func (r *registry) add(a Assignor, alias ...string) {
	r.assignors[a.Name()] = a
	for _, al := range alias {
		r.aliases[strings.ToLower(al)] = a.Name()
	}
}

// assignors is the registry, built from builtin when it is first asked.
var assignors = sync.OnceValue(func() *registry {
	r := &registry{assignors: map[string]Assignor{}, aliases: map[string]string{}}
	for _, b := range builtin {
		r.add(b.a, b.aliases...)
	}
	return r
})

// Register makes an assignor available by its name and aliases, in place
// of any of that name (tests wrap the built-in ones this way).
func Register(a Assignor, alias ...string) { assignors().add(a, alias...) }

// Lookup finds an assignor the engine can run (scenarios, the lab) by kviz
// name or alias (e.g. Kafka's class name), case-insensitively.
func Lookup(name string) (Assignor, error) {
	a, err := LookupAny(name)
	if err != nil {
		return nil, fmt.Errorf("unknown strategy %q (valid: %s)", name, strings.Join(Names(), ", "))
	}
	if !simulated(a) {
		return nil, fmt.Errorf("strategy %q is the %s protocol's assignor, which scenarios and the lab do not simulate yet; kviz assign --strategy %s computes its assignments", name, a.Protocols()[0], a.Name())
	}
	return a, nil
}

// LookupAny is Lookup for every assignor kviz knows, the share-group one
// included: what kviz assign runs.
func LookupAny(name string) (Assignor, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	r := assignors()
	if a, ok := r.assignors[key]; ok {
		return a, nil
	}
	if n, ok := r.aliases[key]; ok {
		return r.assignors[n], nil
	}
	return nil, fmt.Errorf("unknown strategy %q (valid: %s)", name, strings.Join(AllNames(), ", "))
}

// teaching is kviz's one list of strategies, in the order the lab and the
// docs present them. compared marks the ones compare sets side by side by
// default, each under its preferred protocol: stop-the-world eager,
// two-round cooperative, KIP-848's per-member reconciliation (range-server
// is KIP-848's range, one server-side assignor is enough for the contrast).
var teaching = []struct {
	name     string
	compared bool
}{
	{"range", true}, {"roundrobin", true}, {"sticky", true}, {"cooperative-sticky", true},
	{"uniform", true}, {"range-server", false}, {"simple", false},
}

// Names lists the assignors the engine can run (Lookup finds them), in
// teaching order (any not in it last, by name).
func Names() []string {
	r := assignors()
	return slices.DeleteFunc(AllNames(), func(n string) bool { return !simulated(r.assignors[n]) })
}

// AllNames lists every assignor, the share-group one included (LookupAny
// finds them), in teaching order.
func AllNames() []string {
	r := assignors()
	var out []string
	for _, t := range teaching {
		if _, ok := r.assignors[t.name]; ok {
			out = append(out, t.name)
		}
	}
	var rest []string
	for n := range r.assignors {
		if !slices.Contains(out, n) {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// CompareNames lists the assignors compared by default, in teaching order.
func CompareNames() []string {
	r := assignors()
	var out []string
	for _, t := range teaching {
		if _, ok := r.assignors[t.name]; ok && t.compared {
			out = append(out, t.name)
		}
	}
	return out
}

// StrategyFor is the assignor to switch to for protocol p: the first, in
// teaching order, whose preferred protocol is p; failing that the first
// that supports p; "" when none does.
func StrategyFor(p Protocol) string {
	names, r := Names(), assignors()
	for _, n := range names {
		if Preferred(r.assignors[n]) == p {
			return n
		}
	}
	for _, n := range names {
		if Supports(r.assignors[n], p) {
			return n
		}
	}
	return ""
}
