package cli

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/kvizlab/kviz/strategies"
	"github.com/spf13/cobra"
)

// maxBrokers bounds --brokers: placement is O(partitions × R), and a lab
// never needs more.
const maxBrokers = 100000

// newReplicasCmd is `kviz replicas`: Kafka's replica placement for a new
// topic. Flags and json output are a contract.
func newReplicasCmd() *cobra.Command {
	var (
		brokers, partitions, rf int
		racks, format           string
		pl                      placementFlags
	)
	cmd := &cobra.Command{
		Use:   "replicas --brokers B --partitions N --replication-factor R [--start-index I] [--shift S] [--seed X] [--racks r0,r1,...] [--format json|text]",
		Short: "Place a topic's replicas on brokers the way Kafka's AdminUtils does",
		Long: `Brokers are 0..B-1. Each partition's first replica is its preferred leader.

Kafka's algorithm (AdminUtils.assignReplicasToBrokersRackUnaware): partition p's
first replica is broker (p + start index) % B; the others follow at a distance
that grows by one (the shift) every B partitions. Kafka picks the start index
and the shift at random; --start-index fixes the start index and, as in Kafka,
the shift too unless --shift is given. Values not given are drawn from --seed
(default: the clock); the text form reports the values used.
--racks (one rack per broker) switches to the rack-aware variant, which spreads
each partition's replicas over as many racks as it can.
This is how ZooKeeper-based clusters create topics and how
kafka-reassign-partitions.sh --generate proposes a layout. A KRaft controller
(the only mode since Kafka 4.0) creates topics with StripedReplicaPlacer, whose
random offsets give other layouts.

Output with --format json (one line): {"0": [0, 1, 2], "1": [1, 2, 3], ...}
--format text (the default on a terminal; json otherwise) adds the leaders and
the start index and shift used.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			pl.read(cmd)
			return runReplicas(cmd, brokers, partitions, rf, racks, pl, format)
		},
	}
	f := cmd.Flags()
	f.IntVar(&brokers, "brokers", 0, "number of brokers, ids 0..B-1 (required)")
	f.IntVar(&partitions, "partitions", 0, "number of partitions (required)")
	f.IntVar(&rf, "replication-factor", 0, "replicas per partition, at most B (required)")
	f.StringVar(&racks, "racks", "", "comma-separated rack of each broker, in id order (rack-aware placement)")
	addFormatFlag(cmd, &format, "", "output format: json or text (default: text on a terminal, json otherwise)", "json", "text")
	pl.register(cmd)
	for _, name := range []string{"brokers", "partitions", "replication-factor"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

func runReplicas(cmd *cobra.Command, brokers, partitions, rf int, racks string, pl placementFlags, format string) error {
	text, err := textOrJSON(cmd, format)
	if err != nil {
		return err
	}
	if err := checkBrokerCount(brokers); err != nil {
		return err
	}
	switch {
	case partitions < 1 || partitions > strategies.MaxPartitions:
		return usageErrf("--partitions must be between 1 and %d, got %d", strategies.MaxPartitions, partitions)
	case rf < 1:
		return usageErrf("--replication-factor must be at least 1, got %d", rf)
	case rf > brokers:
		return usageErrf("--replication-factor %d is larger than the %d brokers", rf, brokers)
	}
	list, err := brokerList(brokers, racks)
	if err != nil {
		return err
	}
	start, shift, how, err := pl.resolve(brokers, true)
	if err != nil {
		return err
	}
	placed, err := strategies.PlaceReplicasOn(list, partitions, rf, start, shift)
	if err != nil {
		return usageErr(err)
	}
	w := bufio.NewWriter(cmd.OutOrStdout())
	if text {
		kind := "rack-unaware"
		if racks != "" {
			kind = "rack-aware"
		}
		fmt.Fprintf(w, "%s placement, %s\n", kind, how)
		for p, replicas := range placed {
			fmt.Fprintf(w, "partition %d: replicas %s, preferred leader %d\n", p, intList(replicas), replicas[0])
		}
	} else {
		writePlacementJSON(w, placed)
	}
	return w.Flush()
}

func checkBrokerCount(brokers int) error {
	if brokers < 1 || brokers > maxBrokers {
		return usageErrf("--brokers must be between 1 and %d, got %d", maxBrokers, brokers)
	}
	return nil
}

// brokerList makes brokers 0..n-1, with racks when --racks is given.
func brokerList(n int, racks string) ([]strategies.BrokerRack, error) {
	list := make([]strategies.BrokerRack, n)
	for i := range list {
		list[i].ID = i
	}
	if racks == "" {
		return list, nil
	}
	names := strings.Split(racks, ",")
	if len(names) != n {
		return nil, usageErrf("--racks lists %d racks for %d brokers: give one per broker", len(names), n)
	}
	for i, r := range names {
		r = strings.TrimSpace(r)
		if r == "" {
			return nil, usageErrf("--racks: broker %d has an empty rack name", i)
		}
		list[i].Rack = r
	}
	return list, nil
}

// writePlacementJSON writes {"0": [...], "1": [...]} with partitions in
// numeric order (encoding/json would sort "10" before "2").
func writePlacementJSON(w *bufio.Writer, placed [][]int) {
	w.WriteByte('{')
	for p, replicas := range placed {
		if p > 0 {
			w.WriteString(", ")
		}
		fmt.Fprintf(w, "%q: %s", strconv.Itoa(p), jsonIntList(replicas))
	}
	w.WriteString("}\n")
}

func jsonIntList(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func intList(xs []int) string { return strings.ReplaceAll(jsonIntList(xs), ",", "") }

// placementFlags are --start-index, --shift and --seed, shared by the
// commands that place replicas.
type placementFlags struct {
	start, shift                int
	seed                        int64
	startSet, shiftSet, seedSet bool
}

func (p *placementFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.IntVar(&p.start, "start-index", 0, "index of the broker that gets partition 0's first replica (Kafka: random)")
	f.IntVar(&p.shift, "shift", 0, "initial follower shift (Kafka: the start index when that is fixed, else random)")
	f.Int64Var(&p.seed, "seed", 0, "seed for the values not given")
}

func (p *placementFlags) read(cmd *cobra.Command) {
	f := cmd.Flags()
	p.startSet, p.shiftSet, p.seedSet = f.Changed("start-index"), f.Changed("shift"), f.Changed("seed")
}

// resolve returns the start index and shift and says where they came from.
// Values not given are drawn like Kafka's (start index first, both uniform in
// 0..brokers-1) when random is true or --seed was given, and are 0 otherwise.
func (p placementFlags) resolve(brokers int, random bool) (start, shift int, how string, err error) {
	if p.startSet && (p.start < 0 || p.start >= brokers) {
		return 0, 0, "", usageErrf("--start-index %d is outside 0..%d", p.start, brokers-1)
	}
	if p.shiftSet && p.shift < 0 {
		return 0, 0, "", usageErrf("--shift must not be negative, got %d", p.shift)
	}
	start, shift = p.start, p.shift
	if p.startSet && !p.shiftSet {
		shift = start // Kafka's fixedStartIndex fixes both
	}
	if p.startSet {
		return start, shift, fmt.Sprintf("start index %d, shift %d", start, shift), nil
	}
	if !random && !p.seedSet {
		return 0, shift, fmt.Sprintf("start index 0, shift %d (kviz's fixed default: Kafka draws both at random, as --seed does)", shift), nil
	}
	seed := p.seed
	if !p.seedSet {
		seed = time.Now().UnixNano()
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	start = rng.IntN(brokers)
	drawnShift := rng.IntN(brokers)
	if !p.shiftSet {
		shift = drawnShift
	}
	return start, shift, fmt.Sprintf("start index %d, shift %d (drawn from seed %d)", start, shift, seed), nil
}
