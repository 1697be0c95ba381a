package cli

import (
	"bufio"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/model/cluster"
	"github.com/kvizlab/kviz/strategies"
)

// offsetsReplicationFactor is offsets.topic.replication.factor's default.
const offsetsReplicationFactor = 3

// newCoordinatorCmd is `kviz coordinator`: which __consumer_offsets
// partition, and so which broker, coordinates a group. Flags and json output
// are a contract.
func newCoordinatorCmd() *cobra.Command {
	var (
		group                 string
		offsetsPartitions, rf int
		brokers               int
		format                string
		pl                    placementFlags
	)
	cmd := &cobra.Command{
		Use:   "coordinator --group G [--offsets-partitions 50] [--brokers B] [--format json|text]",
		Short: "Find a consumer group's coordinator: its __consumer_offsets partition and leader",
		Long: `The coordinator of group G is the leader of __consumer_offsets partition
Utils.abs(G.hashCode()) % offsets.topic.num.partitions, where hashCode is
Java's String.hashCode (over UTF-16 code units) and Utils.abs maps
Integer.MIN_VALUE to 0. "my-group" → 12, "test" → 48 with 50 partitions.

With --brokers B (brokers 0..B-1) it also places __consumer_offsets' replicas
with Kafka's rack-unaware algorithm (replication factor 3, the
offsets.topic.replication.factor default; --replication-factor changes it) and
names the leader: the partition's first replica, its preferred leader. The
placement's start index and shift are random in Kafka; kviz uses start index 0
and shift 0 unless --start-index/--shift or --seed say otherwise, and says
which in the text form. (KRaft clusters place replicas with
StripedReplicaPlacer, so a real cluster's leader may differ; the partition
never does.)

Output with --format json (one line): {"partition": 12, "hash": -1906497762}
and, with --brokers, also "leader" and "replicas".
--format text (the default on a terminal; json otherwise) shows the steps.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			pl.read(cmd)
			withBrokers := cmd.Flags().Changed("brokers")
			return runCoordinator(cmd, group, offsetsPartitions, brokers, withBrokers, rf, pl, format)
		},
	}
	f := cmd.Flags()
	f.StringVar(&group, "group", "", "the group.id (required)")
	f.IntVar(&offsetsPartitions, "offsets-partitions", 50, "offsets.topic.num.partitions")
	f.IntVar(&brokers, "brokers", 0, "number of brokers (ids 0..B-1): also name the leader")
	f.IntVar(&rf, "replication-factor", offsetsReplicationFactor, "offsets.topic.replication.factor (with --brokers)")
	addFormatFlag(cmd, &format, "", "output format: json or text (default: text on a terminal, json otherwise)", "json", "text")
	pl.register(cmd)
	_ = cmd.MarkFlagRequired("group")
	return cmd
}

// coordinatorAnswer is the result of `kviz coordinator`.
type coordinatorAnswer struct {
	group      string
	hash       int32
	partitions int
	partition  int32
	leader     int
	replicas   []int // nil without --brokers
	how        string
}

func runCoordinator(cmd *cobra.Command, group string, offsetsPartitions, brokers int, withBrokers bool, rf int, pl placementFlags, format string) error {
	text, err := textOrJSON(cmd, format)
	if err != nil {
		return err
	}
	if err := strategies.CheckGroupID(group); err != nil {
		return usageErrf("--group %q: %v", group, err)
	}
	if offsetsPartitions < 1 || offsetsPartitions > strategies.MaxPartitions {
		return usageErrf("--offsets-partitions must be between 1 and %d, got %d", strategies.MaxPartitions, offsetsPartitions)
	}
	ans := coordinatorAnswer{group: group, hash: strategies.JavaHashCode(group), partitions: offsetsPartitions,
		partition: strategies.CoordinatorPartition(group, int32(offsetsPartitions))}
	if withBrokers {
		if err := findCoordinator(&ans, brokers, rf, pl); err != nil {
			return err
		}
	}
	w := bufio.NewWriter(cmd.OutOrStdout())
	if text {
		writeCoordinatorText(w, ans)
	} else {
		writeCoordinatorJSON(w, ans)
	}
	return w.Flush()
}

// findCoordinator asks the cluster model for the group's coordinator on
// brokers 0..brokers-1: it places __consumer_offsets and names the leader
// of the group's partition and its replicas.
func findCoordinator(ans *coordinatorAnswer, brokers, rf int, pl placementFlags) error {
	if err := checkBrokerCount(brokers); err != nil {
		return err
	}
	if rf < 1 {
		return usageErrf("--replication-factor must be at least 1, got %d", rf)
	}
	if rf > brokers {
		return usageErrf("__consumer_offsets needs %d brokers (replication factor %d) but there are %d: Kafka answers COORDINATOR_NOT_AVAILABLE until enough brokers are up (or lower --replication-factor)", rf, rf, brokers)
	}
	start, shift, how, err := pl.resolve(brokers, false)
	if err != nil {
		return err
	}
	c, err := cluster.NewNumbered(brokers)
	if err == nil {
		err = c.CreateOffsetsTopic(ans.partitions, rf, start, shift)
	}
	var co cluster.Coordinator
	if err == nil {
		co, err = c.CoordinatorFor(ans.group)
	}
	if err != nil {
		return usageErr(err)
	}
	ans.partition, ans.leader, ans.replicas, ans.how = int32(co.Partition), co.Broker, co.Replicas, how
	return nil
}

func writeCoordinatorJSON(w *bufio.Writer, a coordinatorAnswer) {
	fmt.Fprintf(w, "{\"partition\": %d, \"hash\": %d", a.partition, a.hash)
	if a.replicas != nil {
		fmt.Fprintf(w, ", \"leader\": %d, \"replicas\": %s", a.leader, jsonIntList(a.replicas))
	}
	w.WriteString("}\n")
}

func writeCoordinatorText(w *bufio.Writer, a coordinatorAnswer) {
	abs := strategies.KafkaAbs(a.hash)
	fmt.Fprintf(w, "group %s\n", strconv.Quote(a.group))
	fmt.Fprintf(w, "String.hashCode = %d\n", a.hash)
	if a.hash == -1<<31 {
		fmt.Fprintf(w, "Utils.abs = 0 (the hash is Integer.MIN_VALUE, which Utils.abs maps to 0)\n")
	} else {
		fmt.Fprintf(w, "Utils.abs = %d\n", abs)
	}
	fmt.Fprintf(w, "%d %% %d = %d → __consumer_offsets partition %d\n", abs, a.partitions, a.partition, a.partition)
	if a.replicas == nil {
		fmt.Fprintf(w, "the coordinator is that partition's leader broker (--brokers B names it)\n")
		return
	}
	fmt.Fprintf(w, "replicas %s, placed rack-unaware with %s\n", intList(a.replicas), a.how)
	fmt.Fprintf(w, "coordinator: broker %d, the preferred leader (first replica)\n", a.leader)
}
